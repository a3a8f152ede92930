"""Trace doctor page sections (pages/6_Trace_doctor.py): upload, verdicts, key numbers,
charts, tables, MFU from the trace, how it is computed. One module per section; the
numbers come from calc.diagnosis. The session's trace (read here or imported on the
Roofline page) is ui.trace_session, shared by both pages."""
