"""Players for cdsim: the Strategy protocol, the registry, and the scripted players."""
