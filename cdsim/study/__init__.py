"""Studies: the records and the study file (``model``, ``file``, ``sweeps``), the study
folder (``store``, ``manifest``), the games a verdict reads (``games``), the plan
(``plan``, ``budget``), playing it (``play``) and ``cdsim whatif`` (``whatif``)."""
