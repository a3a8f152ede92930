"""Sections of the Measure page (pages/8_Measure.py): run, compare, curve, live kernels."""
