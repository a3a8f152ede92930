"""The roofline page's parts: kernel-table state (state), the table editor (table), the
kernel builder (builder) and the results (results). pages/1_Roofline.py lays them out."""
