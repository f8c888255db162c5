"""Balance reports over run folders (not built yet: see the report issue)."""
