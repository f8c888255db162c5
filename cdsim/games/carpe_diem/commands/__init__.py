"""Carpe Diem's own command code behind its spec's hooks (``cdsim.games.GameSpec``, the
commands' block): the shared commands (cdsim/cli/) name no game and call these; each
module imports the rules, the table and the view only when its command runs."""
