"""calc.lessons: problems drawn from a quiz number and a device, answers checked within 3 %,
known mistakes named. Expected values are derived here by hand from the chapter's formulas.
"""
import random

import numpy as np
import pytest

from calc.lessons import (LESSONS, N_LESSONS, TOLERANCE, TRACE_SIGNALS, as_device, check_answer,
                          check_choice, make_problem, parse_quiz, synthetic_trace, trace_signal)

TEXTBOOK = as_device(312e12, 2e12, sparse_headline=True, device_id="a100-textbook")
H100 = as_device(989.4e12, 3.35e12, sparse_headline=True, device_id="h100-sxm")
PLAIN = as_device(100e12, 1e12, sparse_headline=False, device_id="custom")


def test_eight_lessons_in_the_chapter_order():
    assert N_LESSONS == 8 and len(LESSONS) == 8
    assert LESSONS[0] == "ridge" and LESSONS[6] == "trace" and LESSONS[7] == "decode"


@pytest.mark.parametrize("lesson", range(1, 9))
def test_deterministic_and_quiz_dependent(lesson):
    a = make_problem(lesson, 42, H100)
    b = make_problem(lesson, 42, H100)
    assert a.given == b.given and [q.answer for q in a.questions] == [q.answer for q in b.questions]
    if lesson != 1:   # the ridge depends on the device only
        drawn = {tuple(sorted((k, str(v)) for k, v in make_problem(lesson, q, H100).given.items()))
                 for q in range(1, 12)}
        assert len(drawn) > 1


def test_quiz_zero_is_the_chapter():
    # 312 / 2 = 156; min(312, 2 x 2) = 4 TFLOP/s; 6 x 7e9 x 12000 / (8 x 312e12) = 20.19 %;
    # 6 x 4096^2; 2e12 / 14e9 = 142.86 tok/s
    assert make_problem(1, 0, TEXTBOOK).question("ridge").answer == 156
    assert make_problem(2, 0, TEXTBOOK).question("ceiling").answer == 4e12
    assert make_problem(3, 0, TEXTBOOK).question("mfu").answer == pytest.approx(0.201923, rel=1e-5)
    assert make_problem(4, 0, TEXTBOOK).question("fwd_bwd").answer == 6 * 4096 * 4096
    assert make_problem(4, 0, TEXTBOOK).facts["weights"] == 4096 * 4096     # the m x n matrix
    # the A100's 2:4-sparse headline is 624 TFLOP/s: twice the dense 312 (whitepaper)
    assert TEXTBOOK.sparse_peak_flops == 624e12
    assert make_problem(8, 0, TEXTBOOK).question("bf16").answer == pytest.approx(142.857, rel=1e-5)


def test_bad_arguments():
    with pytest.raises(ValueError):
        make_problem(9, 0, TEXTBOOK)
    with pytest.raises(ValueError):
        make_problem(1, -1, TEXTBOOK)
    with pytest.raises(ValueError):
        make_problem(1, True, TEXTBOOK)
    assert parse_quiz("42") == 42 and parse_quiz(" 7 ") == 7
    assert parse_quiz("abc") is None and parse_quiz("-1") is None and parse_quiz("1234567") is None
    assert parse_quiz("４２") == 42 and parse_quiz("٣١٢") is None and parse_quiz("1e3") is None


@pytest.mark.parametrize("text", ["156", "1.56e2", "156 FLOP/B", "152", "160", "3*52"])
def test_ridge_accepts_within_tolerance(text):
    q = make_problem(1, 0, TEXTBOOK).question("ridge")
    assert check_answer(q, text).correct         # 152 / 156 = 0.974, 160 / 156 = 1.026


@pytest.mark.parametrize("text", ["150", "162", "abc"])
def test_ridge_rejects_outside_tolerance(text):
    q = make_problem(1, 0, TEXTBOOK).question("ridge")
    assert not check_answer(q, text).correct      # 150 / 156 = 0.962: 3.8 % off
    assert TOLERANCE == 0.03


def test_unreadable_answer_says_why():
    c = check_answer(make_problem(1, 0, TEXTBOOK).question("ridge"), "1,5")
    assert c.status == "unreadable" and "comma" in c.message


def test_sparse_hint_only_for_sparse_headline_devices():
    # 2 x 100 / 1 = 200 FLOP/B on a device whose vendor headlines dense figures: no hint
    assert "sparse" not in check_answer(make_problem(1, 0, PLAIN).question("ridge"), "200").hints
    assert "sparse" in check_answer(make_problem(1, 0, TEXTBOOK).question("ridge"), "312").hints


def test_fraction_answers_typed_three_ways():
    q = make_problem(3, 0, TEXTBOOK).question("mfu")
    for text in ("20.2%", "0.202", "20.2"):
        assert check_answer(q, text).correct, text
    assert check_answer(q, "0.161").hints == ()   # nothing known: 0.161 is no known slip


def test_mistake_values_never_collide_with_the_answer():
    for lesson in (1, 2, 3, 4, 8):
        for quiz in range(40):
            for dev in (TEXTBOOK, H100, PLAIN):
                for q in make_problem(lesson, quiz, dev).questions:
                    if q.is_choice:
                        continue
                    for m in q.mistakes:
                        assert abs(m.value - q.answer) > 2 * TOLERANCE * q.answer, (lesson, quiz, m)


def test_decode_batch_is_below_the_knee():
    # total = batch x (bw / 2N) exactly, as long as 2N·batch / peak < 2N / bw
    for quiz in range(1, 40):
        p = make_problem(8, quiz, H100)
        speed = 3.35e12 / (2 * p.given["params"])
        assert p.question("batch").answer == pytest.approx(p.given["batch"] * speed)


def test_bands_runs_land_in_three_different_bands():
    for quiz in range(1, 40):
        p = make_problem(5, quiz, H100)
        runs = [q for q in p.questions if q.id.startswith("run")]
        bands = [q.answer for q in runs]
        assert len(set(bands)) == 3, (quiz, bands)
        assert p.question("why60").answer == "overheads"     # the chapter's reason
        for i, q in enumerate(runs, 1):
            g = p.given
            m = 6 * g[f"run{i}.params"] * g[f"run{i}.tokens_per_s"] / (g[f"run{i}.gpus"] * 989.4e12)
            assert g[f"run{i}.mfu"] == pytest.approx(m)


def test_choice_checks():
    p = make_problem(6, 3, TEXTBOOK)
    first = p.question("first")
    assert check_choice(first, "random_tensors").correct
    assert check_choice(first, "more_gpus").hints == ("exp_more_gpus",)
    assert check_choice(first, None).status == "unreadable"
    with pytest.raises(ValueError):
        check_answer(first, "1")


# --- lesson 7: the synthetic traces and their diagnosis ---------------------------------

def _hand_diagnosis(start, duration, name):
    """The chapter's three signals by hand: idle share of the window (union of kernel
    intervals), NCCL share of kernel time, share of kernels under 10 us (count) and
    their share of time; thresholds 10 %, 20 %, 50 % and 10 % (calc.diagnosis docs)."""
    order = np.argsort(start)
    s, e = start[order], (start + duration)[order]
    busy, cur_s, cur_e = 0.0, s[0], e[0]
    for a, b in zip(s[1:], e[1:]):
        if a > cur_e:
            busy += cur_e - cur_s
            cur_s, cur_e = a, b
        else:
            cur_e = max(cur_e, b)
    busy += cur_e - cur_s
    idle = 1 - busy / (e.max() - s.min())
    comm = np.array(["nccl" in n.lower() for n in name])
    comm_share = duration[comm].sum() / duration.sum()
    small = duration < 10e-6
    if idle >= 0.10:
        return "gaps"
    if comm_share >= 0.20:
        return "nccl"
    if small.mean() >= 0.5 and duration[small].sum() / duration.sum() >= 0.10:
        return "tiny_kernels"
    return "none"


@pytest.mark.parametrize("signal", TRACE_SIGNALS)
def test_each_synthetic_trace_shows_its_signal(signal):
    for k in range(15):
        trace = synthetic_trace(signal, random.Random(k))
        found, facts = trace_signal(trace)
        assert found == signal == _hand_diagnosis(trace.start, trace.duration, trace.name)
        assert 0 < facts["busy"] <= 1


def test_trace_lesson_answer_is_the_diagnosis():
    for quiz in range(12):
        p = make_problem(7, quiz, TEXTBOOK)
        t = p.trace
        assert p.question("signal").answer == _hand_diagnosis(t.start, t.duration, t.name)
    assert make_problem(7, 0, TEXTBOOK).question("signal").answer == "gaps"   # the checkpoint


def test_an_answer_in_chinese_units_is_read():
    # issue 25: the chapter's 2000 / 14 = 142.9 tokens/秒, typed the way the Chinese page shows it
    q = make_problem(8, 0, TEXTBOOK).question("bf16")
    assert check_answer(q, "143 tokens/秒").correct
    assert not check_answer(q, "71 tokens/秒").correct   # half: 50 % off
