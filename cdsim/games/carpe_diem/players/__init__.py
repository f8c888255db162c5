"""Who sits at a Carpe Diem table: the registry of its built-in players and users'
strategies, its scripted profiles, its learned weights, the profiles a folder played with."""
