"""Players for cdsim: the Strategy protocol, the registry, and the scripted players."""

import cdsim  # noqa: F401  (first: decides whether strategies.value runs compiled)
