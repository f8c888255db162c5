"""The documents: ``cdsim report`` (report), ``cdsim balance`` (balance), the study's pages
(study, skill inside), ``cdsim ladder`` (ladder), with charts and one way to write a number
(fmt). They format what cdsim.analysis computes (cdsim.analysis.rows for a run's rows) and
compute no statistic of their own; one ``Doc`` is built once and rendered to Markdown and HTML.
"""
