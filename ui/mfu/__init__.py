"""The MFU page's sections (pages/2_MFU.py lists them): the run's inputs, the results
(calc.mfu.measured_mfu's record as it is), how they are computed, and the checklist."""
