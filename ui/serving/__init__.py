"""The Serving page's sections (pages/10_Serving.py): inputs, the frontier chart, the
sizing table with cost and energy, the simulator's TTFT/TPOT-vs-rate chart, and how it is
computed.  Every number comes from calc.serving; these modules read inputs and lay out."""
