"""Shared UI layer: page frame and sidebar, widgets, figure builders, URL state, translations.

`calc/` holds every formula; this package only lays out what `calc/` computes.
"""
