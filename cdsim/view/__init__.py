"""What a game looks like to a person: the HTML pages (``pages``) and The Castles of
Tuscany's replay and sheet; Carpe Diem's trace and replay data are its own
(``cdsim.games.carpe_diem.view``)."""
