"""The Training page's sections (pages/3_Training_time.py lists them): the inputs, the run's
results (calc.training.training_run's record as it is), the memory per GPU
(calc.training_memory's record), how it is computed, and the takeaway."""
