"""Sections of the Model page (pages/5_Model.py, page id "model"): a whole model's
operators on the roofline. (Its strings are the ``model.*`` keys of ui/text/model.py; the
sidebar's model choice that every page shares is ui/model_picker.py.)

sidebar_model — the sidebar's model, or an offer of the chapter's 7B when there is none
inputs  — the step: phase, batch, prompt / context, precisions, tensor parallel, attention
chart   — the operators (and the Roofline page's kernels) on the device's roofline
results — totals (time per token, tokens/s, time to first token), the table and its CSV
measured — the Roofline page's measured kernels matched to the operators
how     — "How this is computed" with the numbers substituted

The numbers come from calc.model_ops; these modules only read inputs and lay out results.
"""
