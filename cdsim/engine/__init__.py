"""The engine layer every game shares: a game recorded by the core for its replay
(``recorded``); Carpe Diem's table and oracle are its own (``cdsim.games.carpe_diem.engine``)."""
