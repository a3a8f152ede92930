"""AppTest: the Learn page (pages/0_Learn.py). Each lesson accepts the right answer for
several quiz numbers and devices and rejects typical wrong answers with the right hint.

Expected answers are worked out here from the problem's *given* numbers (what the learner
is told) and the datasheet figures, by the chapter's formulas, never read from the
problem's answer: ridge = P / B; ceiling = min(P, I × B); MFU = 6·N·tok/s ÷ (g × P);
6·m·n; share = 12·L·h·s ÷ (6N + 12·L·h·s); decode = B ÷ (2 bytes × N).
"""
import pytest

from calc.hardware import load_hardware
from calc.lessons import as_device, make_problem
from page_helpers import open_app_page
from ui.i18n import translate

PAGE = "pages/0_Learn.py"
HW = load_hardware()


def open_lesson(lesson, quiz=0, device="a100-textbook", lang="en"):
    return open_app_page(PAGE, lang, quiz=str(quiz), device=device, lesson=str(lesson))


def given(lesson, quiz, device):
    """The numbers the page shows for this lesson (the answer is not used)."""
    d = HW[device]
    dev = as_device(d.peak_flops(), d.mem_bw, sparse_headline=d.sparse_headline,
                    device_id=device, precision=d.default_precision)
    return make_problem(lesson, quiz, dev).given


def _submit(at, widget, lesson, qid, value):
    getattr(at, widget)(key=f"learn_{lesson}_{qid}").set_value(value)
    at.button(key=f"learn_{lesson}_{qid}_check").click()
    at.run()
    assert not at.exception, at.exception
    return at


def answer(at, lesson, qid, text):
    """Type `text` into the question's field and press Check."""
    return _submit(at, "text_input", lesson, qid, text)


def choose(at, lesson, qid, choice):
    """Pick `choice` for the question and press Check."""
    return _submit(at, "radio", lesson, qid, choice)


def successes(at):
    return [e.value for e in at.success]


def errors(at):
    return " ".join(e.value for e in at.error)


def hint(key, lang="en", **fields):
    base = {"dense": "", "sparse": "", "batch": "", "rise": "1.2"}
    text = translate(f"learn.hint.{key}", lang, **{**base, **fields})
    return text.split("(")[0].split("{")[0][:40]


def right(at):
    assert any(s.startswith("Right") or s.startswith("对了") for s in successes(at)), \
        (successes(at), errors(at))


def wrong_with(at, key, lang="en", others_right=0):
    """The last answer was wrong and its error names mistake `key`; `others_right`
    questions of the lesson were already right."""
    assert sum(s.startswith(("Right", "对了")) for s in successes(at)) == others_right
    assert hint(key, lang) in errors(at), (key, errors(at))


def done_count(at):
    text = " ".join(m.value for m in at.markdown)
    for n in range(9):
        if f"**{n} / 8**" in text:
            return n
    raise AssertionError(text[:400])


# --- lesson 1: the ridge -------------------------------------------------------------

@pytest.mark.parametrize("device, typed", [
    ("a100-textbook", "156"),          # 312e12 / 2e12 = 156
    ("a100-textbook", "1.56e2"),
    ("a100-textbook", "156 FLOP/B"),
    ("h100-sxm", "295"),               # 989.4e12 / 3.35e12 = 295.3
    ("mi300x", "246"),                 # 1307.4e12 / 5.3e12 = 246.7
])
def test_ridge_right(device, typed):
    at = open_lesson(1, device=device)
    # the sidebar does not give the ridge away on this page
    assert "Ridge point" not in " ".join(m.value for m in at.sidebar.markdown)
    answer(at, 1, "ridge", typed)
    right(at)
    assert done_count(at) == 0                       # part (b) still open
    # (b) left of the ridge P / B the slope caps the kernel, right of it the roof
    d = HW[device]
    intensity = given(1, 0, device)["intensity"]
    line = "memory" if intensity < d.peak_flops() / d.mem_bw else "compute"
    other = "compute" if line == "memory" else "memory"
    choose(at, 1, "line", other)
    wrong_with(at, f"line_{other}", others_right=1)
    choose(at, 1, "line", line)
    assert done_count(at) == 1
    # the chapter's answer is shown once the lesson is done
    assert any("156 FLOP/byte" in m.value for m in at.markdown)


@pytest.mark.parametrize("typed, key", [
    ("0.00641", "inverted"),           # 2e12 / 312e12
    ("312", "sparse"),                 # 624e12 (2:4-sparse headline) / 2e12
    ("141.9", "gib"),                  # 312e12 / (2 × 2**40): TB/s read as TiB/s
    ("0.156", "prefix"),               # TFLOP/s ÷ GB/s mixed
])
def test_ridge_wrong_hints(typed, key):
    at = open_lesson(1)
    answer(at, 1, "ridge", typed)
    wrong_with(at, key)
    assert done_count(at) == 0


def test_reveal_after_two_wrong_tries_and_garbage_is_not_a_try():
    at = open_lesson(1)
    answer(at, 1, "ridge", "banana")
    assert at.warning and "Wrong tries" not in " ".join(c.value for c in at.caption)
    answer(at, 1, "ridge", "100")
    assert not any("The answer:" in i.value for i in at.info)
    answer(at, 1, "ridge", "200")
    assert any("The answer: **156 FLOP/B**" in i.value for i in at.info)
    assert any("156 FLOP/byte" in m.value for m in at.markdown)   # the chapter's answer


# --- lesson 2: the ceiling -----------------------------------------------------------

@pytest.mark.parametrize("typed", ["4 TFLOP/s", "4T", "4e12", "4.0 TFLOPS"])
def test_ceiling_textbook(typed):
    # intensity 2 x 2 TB/s = 4 TFLOP/s < 312 TFLOP/s: memory-bound
    at = open_lesson(2)
    assert any("**2 FLOP per byte**" in m.value for m in at.markdown)
    answer(at, 2, "ceiling", typed)
    right(at)


@pytest.mark.parametrize("typed, key", [
    ("4", "unit"),                     # 4 FLOP/s: the unit left off
    ("312 TFLOP/s", "roof_not_slope"),  # the peak, but the kernel is left of the ridge
    ("624 TFLOP/s", "times_peak"),     # 2 x 312 TFLOP/s
    ("3.64 TFLOP/s", "gib"),           # 2 x 2e12 x 1e12 / 2**40
])
def test_ceiling_wrong_hints(typed, key):
    at = open_lesson(2)
    answer(at, 2, "ceiling", typed)
    wrong_with(at, key)


@pytest.mark.parametrize("quiz, device", [(1, "a100-textbook"), (2, "a100-textbook"),
                                          (7, "h100-sxm"), (11, "l4"), (23, "mi300x")])
def test_ceiling_other_quizzes(quiz, device):
    g = given(2, quiz, device)
    d = HW[device]
    expected = min(d.peak_flops(), g["intensity"] * d.mem_bw)
    at = open_lesson(2, quiz=quiz, device=device)
    answer(at, 2, "ceiling", f"{expected / 1e12:.4g} TFLOP/s")
    right(at)


def test_ceiling_compute_bound_sparse_hint():
    # quiz 2 on the textbook A100 draws an intensity right of the ridge: ceiling = peak
    g = given(2, 2, "a100-textbook")
    assert g["intensity"] > 156
    at = open_lesson(2, quiz=2)
    answer(at, 2, "ceiling", "624 TFLOP/s")          # the sparse headline
    wrong_with(at, "sparse")
    answer(at, 2, "ceiling", f"{g['intensity'] * 2:g} TFLOP/s")   # I x B, above the roof
    wrong_with(at, "above_roof")
    answer(at, 2, "ceiling", "312 TFLOP/s")
    right(at)


# --- lesson 3: MFU -------------------------------------------------------------------

@pytest.mark.parametrize("typed", ["20.2%", "0.202", "20.2", "20%"])
def test_mfu_textbook(typed):
    # 6 x 7e9 x 12 000 / (8 x 312e12) = 5.04e14 / 2.496e15 = 0.2019
    at = open_lesson(3)
    answer(at, 3, "mfu", typed)
    right(at)
    assert done_count(at) == 0                       # (a) still open
    answer(at, 3, "fpt", "6*7e9")                    # 4.2e10 FLOP per token
    assert done_count(at) == 1


@pytest.mark.parametrize("typed, keys", [
    ("161.5%", ["gpus"]),              # 8 x 20.19 %: the number of GPUs forgotten
    ("10.1%", ["macs", "sparse"]),     # half: 3N (MACs) or the 624 TFLOP/s sparse peak
    ("6.73%", ["two_n"]),              # 2N / 6N of the answer
])
def test_mfu_wrong_hints(typed, keys):
    at = open_lesson(3)
    answer(at, 3, "mfu", typed)
    for key in keys:
        wrong_with(at, key)


@pytest.mark.parametrize("quiz, device", [(1, "a100-80gb-sxm"), (5, "h100-sxm"),
                                          (9, "a100-textbook"), (42, "mi300x")])
def test_mfu_other_quizzes(quiz, device):
    g = given(3, quiz, device)
    expected = 6 * g["params"] * g["tokens_per_s"] / (g["gpus"] * HW[device].peak_flops())
    at = open_lesson(3, quiz=quiz, device=device)
    answer(at, 3, "mfu", f"{expected:.2%}")
    right(at)
    answer(at, 3, "mfu", f"{expected * g['gpus']:.2%}")
    wrong_with(at, "gpus")


# --- lesson 4: why 6N ----------------------------------------------------------------

def test_six_n_textbook():
    at = open_lesson(4)
    answer(at, 4, "fwd_bwd", "2*4096*4096")          # forward only
    wrong_with(at, "forward_only")
    answer(at, 4, "fwd_bwd", "3*4096**2")            # MACs
    wrong_with(at, "macs")
    answer(at, 4, "fwd_bwd", "6*4096*4096")          # 100 663 296
    right(at)
    assert done_count(at) == 0                       # part (b) still open
    # 12 x 32 x 4096 x 8192 = 1.2885e10; 6N = 4.2e10; share = 1.2885 / 5.4885 = 23.48 %
    answer(at, 4, "attn_share", "30.7%")             # 1.2885e10 / 4.2e10: ratio, not share
    wrong_with(at, "ratio_not_share", others_right=1)
    answer(at, 4, "attn_share", "23.5%")
    assert done_count(at) == 1


@pytest.mark.parametrize("quiz", [3, 8, 15])
def test_six_n_other_quizzes(quiz):
    g = given(4, quiz, "h100-sxm")
    attn = 12 * g["layers"] * g["hidden"] * g["seq"]
    at = open_lesson(4, quiz=quiz, device="h100-sxm")
    answer(at, 4, "fwd_bwd", f"{6 * g['m'] * g['n']:.6g}")
    answer(at, 4, "attn_share", f"{attn / (6 * g['params'] + attn):.4f}")
    assert len([s for s in successes(at) if s.startswith("Right")]) == 2


# --- lesson 5: bands -----------------------------------------------------------------

def _band(m):
    # the chapter's table: <20 problem, 20-35 low, 35-45 fair, 45-55 good, 55-60 excellent
    for upper, key in ((0.20, "problem"), (0.35, "low"), (0.45, "fair"), (0.55, "good")):
        if m < upper:
            return key
    return "excellent" if m <= 0.60 else "suspicious"


@pytest.mark.parametrize("quiz, device", [(0, "a100-textbook"), (4, "h100-sxm"),
                                          (17, "a100-80gb-sxm")])
def test_bands(quiz, device):
    g = given(5, quiz, device)
    peak = HW[device].peak_flops()
    at = open_lesson(5, quiz=quiz, device=device)
    for i in (1, 2, 3):
        m = 6 * g[f"run{i}.params"] * g[f"run{i}.tokens_per_s"] / (g[f"run{i}.gpus"] * peak)
        choose(at, 5, f"run{i}", _band(m))
    assert done_count(at) == 0                       # (b) still open
    choose(at, 5, "why60", "datasheet")
    wrong_with(at, "why60_datasheet", others_right=3)
    choose(at, 5, "why60", "overheads")
    assert done_count(at) == 1


def test_bands_wrong_hint_forgot_gpus():
    # run 1 of quiz 0 is the chapter's 20.2 %; without dividing by 8 GPUs: 161 % "suspicious"
    at = open_lesson(5)
    choose(at, 5, "run1", "suspicious")
    wrong_with(at, "band_gpus")
    choose(at, 5, "run1", "problem")                 # 10.1 %: half the MFU
    wrong_with(at, "band_macs")
    choose(at, 5, "run1", "low")
    right(at)


# --- lesson 6: the first experiment --------------------------------------------------

@pytest.mark.parametrize("quiz", [0, 1, 2, 5, 6, 12])
def test_experiment(quiz):
    g = given(6, quiz, "a100-textbook")
    at = open_lesson(6, quiz=quiz)
    choose(at, 6, "first", "more_gpus")
    wrong_with(at, "exp_more_gpus")
    choose(at, 6, "first", "random_tensors")
    right(at)
    # same model, same GPUs: the MFU ratio is the throughput ratio; +20 % or more = data
    rise = g["tokens_after"] / g["tokens_per_s"]
    verdict = "data_pipeline" if rise >= 1.2 else "not_data"
    other = "not_data" if verdict == "data_pipeline" else "data_pipeline"
    choose(at, 6, "verdict", other)
    wrong_with(at, f"verdict_{other}", others_right=1)
    choose(at, 6, "verdict", verdict)
    assert done_count(at) == 1


# --- lesson 7: the trace ------------------------------------------------------------

@pytest.mark.parametrize("quiz", [0, 1, 2, 3, 4, 9])
def test_trace(quiz):
    # the trace was made to show one signal; tests/calc/test_lessons.py checks by hand
    # (idle share, NCCL share, tiny-kernel share) that the diagnosis finds exactly that one
    signal = given(7, quiz, "a100-textbook")["made_to_show"]
    at = open_lesson(7, quiz=quiz)
    assert len(at.get("plotly_chart")) == 1
    wrong = next(c for c in ("none", "gaps", "nccl") if c != signal)
    choose(at, 7, "signal", wrong)
    wrong_with(at, f"trace_{wrong}")
    choose(at, 7, "signal", signal)
    right(at)
    assert done_count(at) == 1


# --- lesson 8: decode ----------------------------------------------------------------

def test_decode_textbook():
    # 2e12 / (7e9 x 2) = 142.86 tok/s; 8-bit: 285.7; batch 8 (memory-bound): 1142.9
    at = open_lesson(8)
    answer(at, 8, "bf16", "286")                     # 1 byte per parameter
    wrong_with(at, "bytes_per_param")
    answer(at, 8, "bf16", "133")                     # 2e12 / (14 GiB = 15.03e9)
    wrong_with(at, "gib")
    answer(at, 8, "bf16", "22286")                   # 312e12 / 1.4e10: compute bound
    wrong_with(at, "flops_bound")
    answer(at, 8, "bf16", "143 tok/s")
    right(at)
    answer(at, 8, "int8", "143")
    wrong_with(at, "quant_same", others_right=1)
    answer(at, 8, "int8", "286")
    answer(at, 8, "batch", "143")
    wrong_with(at, "batch_per_request", others_right=2)
    answer(at, 8, "batch", "1143")
    assert done_count(at) == 1


@pytest.mark.parametrize("quiz, device", [(2, "h100-sxm"), (3, "a100-80gb-sxm"), (31, "l40s")])
def test_decode_other_quizzes(quiz, device):
    g = given(8, quiz, device)
    bw = HW[device].mem_bw
    speed = bw / (2 * g["params"])
    at = open_lesson(8, quiz=quiz, device=device)
    answer(at, 8, "bf16", f"{speed:.4g}")
    answer(at, 8, "int8", f"{2 * speed:.4g}")
    answer(at, 8, "batch", f"{g['batch'] * speed:.4g}")   # batch below the knee
    assert done_count(at) == 1


# --- the page ------------------------------------------------------------------------

def test_quiz_and_lesson_in_the_url_and_reproducible():
    at = open_lesson(3, quiz=42, device="h100-sxm")
    assert at.query_params["quiz"] == "42" and at.query_params["lesson"] == "3"
    first = [m.value for m in at.markdown if "Transformer trains" in m.value]
    again = open_lesson(3, quiz=42, device="h100-sxm")
    assert first == [m.value for m in again.markdown if "Transformer trains" in m.value]
    other = open_lesson(3, quiz=43, device="h100-sxm")
    assert first != [m.value for m in other.markdown if "Transformer trains" in m.value]


def test_fresh_session_gets_a_quiz_number_in_the_url():
    at = open_app_page(PAGE, "en")
    assert at.query_params["quiz"].isdigit()
    assert at.text_input(key="learn_quiz").value == at.query_params["quiz"]


def test_bad_quiz_in_url_is_reported():
    at = open_app_page(PAGE, "en", quiz="abc")
    assert any("abc" in w.value for w in at.warning)


def test_teacher_view_shows_the_answers_and_progress_survives_pages():
    at = open_lesson(1)
    assert not any("Teacher view:" in m.value for m in at.markdown)
    at.toggle(key="learn_teacher").set_value(True).run()
    assert any("156 FLOP/B" in m.value for m in at.markdown if "Ridge point" in m.value)
    assert any("The slope" in m.value for m in at.markdown if "Which line" in m.value)
    answer(at, 1, "ridge", "156")
    choose(at, 1, "line", "memory")                  # 50 FLOP/B < 156: the slope
    assert done_count(at) == 1
    at.switch_page("pages/2_MFU.py").run()
    at.switch_page(PAGE).run()
    assert done_count(at) == 1
    assert at.toggle(key="learn_teacher").value is True


def test_next_and_textbook_buttons():
    at = open_app_page(PAGE, "en", quiz="77", device="h100-sxm")
    next_button = [b for b in at.button if b.label == "Next lesson"][0]
    next_button.click().run()
    assert at.query_params["lesson"] == "2"
    [b for b in at.button if b.label == "The chapter's numbers"][0].click().run()
    assert at.query_params["quiz"] == "0"
    assert any("**2 FLOP per byte**" in m.value for m in at.markdown)
    assert "312 TFLOP/s" in " ".join(m.value for m in at.sidebar.markdown)


def test_chinese_lesson_with_hint():
    at = open_lesson(3, lang="zh")
    answer(at, 3, "fpt", "14 GFLOP")                 # 2N = 1.4e10: the forward pass only
    wrong_with(at, "forward_only_n", "zh")
    answer(at, 3, "fpt", "42 GFLOP")                 # 6 x 7e9 = 4.2e10
    answer(at, 3, "mfu", "161.5%")
    wrong_with(at, "gpus", "zh", others_right=1)
    answer(at, 3, "mfu", "20.2%")
    assert any("已完成 **1 / 8**" in m.value for m in at.markdown)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_textbook_device_reproduces_the_chapter_on_home(lang):
    # a100-textbook: 312 TFLOP/s / 2 TB/s = 156 FLOP/B; intensity 2 x 2 TB/s = 4 TFLOP/s
    at = open_app_page("app.py", lang, device="a100-textbook")
    info = " ".join(i.value for i in at.info)
    assert "156 FLOP/B" in info and "4 TFLOP/s" in info, info


@pytest.mark.parametrize("lang, shown, absent", [("zh", "NVIDIA A100（教材版：312 TFLOP/s，2 TB/s）", "textbook"),
                                                 ("en", "NVIDIA A100 (textbook: 312 TFLOP/s, 2 TB/s)", "教材")])
def test_the_textbook_device_is_named_in_the_pages_language(lang, shown, absent):
    # the sidebar's choice and the page's device line both use hardware.toml's name_zh in Chinese
    at = open_lesson(1, device="a100-textbook", lang=lang)
    box = at.sidebar.selectbox(key="device")
    assert shown in box.options, box.options
    page_text = " ".join(m.value for m in at.markdown)
    assert shown in page_text and absent not in page_text
