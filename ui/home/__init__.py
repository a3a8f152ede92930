"""Sections of the home page (app.py, page id "home"): the two questions and their
formulas, the live roofline of the sidebar's device, and a card per tool (from the page
registry, ui.pages)."""
