"""measure.timing and measure.lock: deterministic checks with a fake clock (no real timing)."""
import threading

import pytest

from measure.lock import Busy, exclusive, holder
from measure.timing import Cancelled, Timing, time_op


class FakeClock:
    """A clock that advances only when the timed function runs: each call costs `cost` s."""

    def __init__(self, cost):
        self.now = 0.0
        self.cost = cost
        self.calls = 0

    def __call__(self):
        return self.now

    def op(self):
        self.calls += 1
        self.now += self.cost


def test_inner_calls_amortise_a_tiny_operation():
    # A 1 µs call: calibration says inner = ceil(2 ms / 1 µs) = 2000 calls per sample,
    # so every sample reports 1 µs per call.
    clk = FakeClock(1e-6)
    t = time_op(clk.op, budget_s=0.02, clock=clk, warmup=1, min_samples=3, max_samples=30)
    assert t.inner == 2000
    assert t.best == pytest.approx(1e-6) and t.median == pytest.approx(1e-6)
    # Samples stop once the next would pass the 20 ms budget: 2 ms each -> 10 samples.
    assert t.samples == 10
    # warm-up 1 + calibration 1 + 10 samples × 2000
    assert clk.calls == 2 + 10 * 2000


def test_slow_call_still_gets_min_samples_and_the_budget_holds_otherwise():
    clk = FakeClock(0.5)            # each call 0.5 s, budget 0.2 s: only the 3 minimum samples
    t = time_op(clk.op, budget_s=0.2, clock=clk, min_samples=3)
    assert t.samples == 3 and t.inner == 1
    clk2 = FakeClock(0.01)          # 10 ms calls, 0.1 s budget: samples while spent + next <= 0.1
    t2 = time_op(clk2.op, budget_s=0.1, clock=clk2, min_samples=1, max_samples=100)
    # after k samples spent = 0.01k; stop when 0.01k + 0.01 > 0.1 -> k = 10
    assert t2.samples == 10


def test_spread_best_median():
    t = Timing((1.0, 1.2, 1.1, 2.0))
    assert t.best == 1.0 and t.worst == 2.0
    assert t.median == pytest.approx(1.15)
    assert t.spread == pytest.approx((2.0 - 1.0) / 1.15)


def test_should_stop_cancels_between_samples():
    clk = FakeClock(1e-3)
    polls = []

    def stop():
        polls.append(1)
        return len(polls) > 3

    with pytest.raises(Cancelled):
        time_op(clk.op, budget_s=10, clock=clk, should_stop=stop, max_samples=100)
    assert clk.calls < 100


def test_bad_budget_is_rejected():
    with pytest.raises(ValueError, match="budget_s"):
        time_op(lambda: None, budget_s=0)
    with pytest.raises(ValueError, match="min_samples"):
        time_op(lambda: None, budget_s=1, min_samples=5, max_samples=2)


def test_sync_runs_after_every_sample():
    clk = FakeClock(1e-3)
    syncs = []
    t = time_op(clk.op, budget_s=0.01, clock=clk, sync=lambda: syncs.append(clk.calls))
    # after the warm-up, after calibration, after each sample
    assert len(syncs) == 2 + t.samples


def test_lock_is_exclusive_and_always_released():
    assert holder() is None
    with exclusive("alice", "benchmark", 30) as me:
        assert holder() is me and me.owner == "alice"
        with pytest.raises(Busy) as err:
            with exclusive("bob", "kernels"):
                pass
        assert err.value.holder.owner == "alice"
        assert "benchmark by alice" in str(err.value)
        # another thread is refused too (one lock per process, not per thread)
        result = []

        def other():
            try:
                with exclusive("carol", "benchmark"):
                    result.append("got it")
            except Busy:
                result.append("busy")
        th = threading.Thread(target=other)
        th.start()
        th.join()
        assert result == ["busy"]
    assert holder() is None
    with pytest.raises(RuntimeError):
        with exclusive("alice", "benchmark"):
            raise RuntimeError("cancelled mid-run")
    assert holder() is None
    with exclusive("bob", "kernels"):
        assert holder().owner == "bob"


def test_deadline_cuts_samples_below_the_minimum():
    # 0.1 s calls, a deadline 0.25 s from the start: warm-up (0.1) + calibration (0.2) +
    # first sample (0.3) is already past it, so one sample despite min_samples = 5.
    clk = FakeClock(0.1)
    t = time_op(clk.op, budget_s=10, clock=clk, min_samples=5, deadline=0.25)
    assert t.samples == 1
