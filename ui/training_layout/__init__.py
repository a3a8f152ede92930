"""Sections of the Training layout page (pages/9_Training_layout.py): the inputs, the
network, the table of layouts that fit, the chosen layout's step / memory / schedule, the
rejected layouts, "Use this layout" and "How this is computed"."""
