"""The Decode page's sections (pages/4_Decode_speed.py lists them in order):

* ``header``    title, introduction, the seed's example; the takeaway at the end
* ``inputs``    the model (or "parameters only"), precisions, ``tp``, batch, KV cache, …
* ``answer``    the page's one call into calc (calc.inference.decode_report)
* ``results``   metrics, headline, batch chart and knee, memory fit, measured speed
* ``prefill``   time to first token
* ``roofline``  the step on the roofline and why decode MFU is low
* ``how``       "How this is computed"
"""
