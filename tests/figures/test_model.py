"""ui.figures.model: the Model page's operator chart (labels that can be read)."""
import pytest


@pytest.mark.parametrize("lang, more", [("en", "(+4 more here)"), ("zh", "（此处另有 4 个）")])
def test_operators_at_the_same_point_share_one_label(lang, more):
    # issue 23 item 9: Mixtral 8x7B decode at batch 1 puts the routed experts, QKV, the
    # output projection, the router and the LM head at ~1 FLOP/B (2 FLOP per weight of
    # 2 bytes): one label, the largest (routed experts), says 4 more sit there
    from calc.models import load_models
    from calc.model_ops import model_operators
    from ui.figures.model import operator_traces
    from ui.i18n import translator
    from ui.model.chart import operator_labels
    t = translator(lang)
    ops = model_operators(load_models()["mixtral-8x7b"], phase="decode", batch=1, tokens=4096,
                          peak_flops=989e12, mem_bw=3.35e12)
    traces = operator_traces(t, ops, operator_labels(t, ops), 0.01)
    drawn = [(x, s) for tr in traces for x, s in zip(tr["x"], tr["text"]) if s]
    at_one = [s for x, s in drawn if 0.5 < x < 2]
    assert len(at_one) == 1 and more in at_one[0]
