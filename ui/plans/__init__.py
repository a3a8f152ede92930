"""The Plans page's sections (pages/7_Plans.py): state (the table, the `plans` link),
rows and points (pure: the page's and the report's tables and charts), the editor, the
tables and chart, share (CSV, report, file) and the "Add this setup to the plans" helper
of the Training and Decode pages (ui.plans.add)."""
