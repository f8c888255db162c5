"""Who sits at the table: the registry of built-in players, learned weights, the user-code sandbox."""
