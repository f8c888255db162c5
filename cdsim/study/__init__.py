"""Studies: the study file, its plan and its sequential cells."""
