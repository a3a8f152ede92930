"""The baseline for bench.py: a bare Streamlit page with one slider."""
import streamlit as st

x = st.slider("x", 0, 100, 50)
st.write(x)
