"""The network of a training cluster and what each collective costs on it.

Two tiers, as every GPU cluster of today is built (JAX scaling book, ``gpus.md``):

* **scale-up** — the NVLink / xGMI / ICI domain: ``domain_gpus`` GPUs (8 in an HGX node,
  72 in a GB200 NVL72 rack) joined by a switch, ``bandwidth`` bytes/s per GPU per direction
  (H100 SXM: 450 GB/s);
* **scale-out** — the InfiniBand / RoCE network between domains: one NIC per GPU,
  ``bandwidth`` bytes/s per GPU per direction (400 Gb/s NDR = 50 GB/s).

Each tier reaches a fraction ``efficiency`` of its bandwidth and pays ``latency`` per
message step.  The constants are Calculon's system files (calculon-ai/calculon
``systems/a100_80g.json`` and ``systems/h100_80g_nvl8.json`` at commit 4f81f02): NVLink
efficiency 0.6, latency 1 µs; the InfiniBand network efficiency 0.9, latency 2 µs.  Another
version of the same files (commit 71f6435, the one ../shared/reference quotes) has NVLink at
0.65 and one latency per operation (10 µs NVLink, 20 µs network: Calculon's
``Network.time`` = latency + bytes / (bw·eff)).  The per-step form is kept: it is the ring
algorithm's own α-β cost, so a collective's latency grows with its ring, as the gpt-fast
README's tensor-parallel rows do (their time per all-reduce beyond the weight reads grows
from ~14 µs at 2 GPUs to ~28 µs at 8; README, "Serving: predicted vs published").  One set
of constants for every page: the Training layout page, the Serving estimate and the
disaggregated KV transfer all use these.

Ring collectives over a group of n GPUs moving a buffer of ``nbytes`` (the whole tensor,
before it is split) per GPU (Patarasuk & Yuan 2009; JAX scaling book ``gpus.md``):

    all-reduce          2·(n−1)/n · nbytes / (bw·eff) + 2·(n−1)·latency
    reduce-scatter      (n−1)/n · nbytes / (bw·eff)   + (n−1)·latency
    all-gather          (n−1)/n · nbytes / (bw·eff)   + (n−1)·latency
    all-to-all          (n−1)/n · nbytes / (bw·eff)   + (n−1)·latency
    point-to-point      nbytes / (bw·eff)             + latency

A group runs on the scale-up tier when all its GPUs lie in one domain, else on the
scale-out tier: a ring that leaves the domain is as slow as its slowest link, the NIC of
one GPU.  Units: bytes, bytes/s, seconds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from .. import _validate as v

__all__ = [
    "SCALE_UP_EFFICIENCY", "SCALE_OUT_EFFICIENCY", "SCALE_UP_LATENCY", "SCALE_OUT_LATENCY",
    "COLLECTIVES", "NetworkTier", "Network", "network_for", "custom_network", "collective_seconds",
]

SCALE_UP_EFFICIENCY = 0.6
"""Achievable share of NVLink bandwidth: Calculon ``systems/a100_80g.json`` and
``systems/h100_80g_nvl8.json``, first network, ``"efficiency": 0.6``."""
SCALE_OUT_EFFICIENCY = 0.9
"""Achievable share of the InfiniBand bandwidth: the same files, second network, 0.9."""
SCALE_UP_LATENCY = 1e-6
"""Seconds per message step on NVLink: the same files, ``"latency": 0.000001``."""
SCALE_OUT_LATENCY = 2e-6
"""Seconds per message step on InfiniBand: the same files, ``"latency": 0.000002``."""

COLLECTIVES = ("all_reduce", "reduce_scatter", "all_gather", "all_to_all", "p2p")


@dataclass(frozen=True)
class NetworkTier:
    """One tier: ``bandwidth`` bytes/s per GPU per direction, ``efficiency`` 0..1 of it
    reached by collectives, ``latency`` seconds per message step."""

    name: str               # "scale_up" or "scale_out"
    bandwidth: float
    efficiency: float
    latency: float

    @property
    def achievable_bw(self) -> float:
        """bandwidth × efficiency   [bytes/s]."""
        return self.bandwidth * self.efficiency


@dataclass(frozen=True)
class Network:
    """A cluster network: ``domain_gpus`` GPUs per scale-up domain and the two tiers."""

    domain_gpus: int
    scale_up: NetworkTier
    scale_out: NetworkTier
    source: str = ""

    def tier(self, span: int) -> NetworkTier:
        """The tier a group spanning ``span`` consecutive GPU ranks runs on: scale-up when
        it fits in one domain (span ≤ domain_gpus), else scale-out."""
        return self.scale_up if span <= self.domain_gpus else self.scale_out


def _tier(name: str, bw: float, eff: float, lat: float) -> NetworkTier:
    bw_ = v.number(f"{name}_bw", bw, "positive", "bytes/s")
    eff_ = v.number(f"{name}_efficiency", eff, "fraction")
    lat_ = v.number(f"{name}_latency", lat, "non_negative", "s")
    if not all(isinstance(x, float) for x in (bw_, eff_, lat_)):
        raise ValueError(f"the {name} tier takes single numbers")
    return NetworkTier(name, bw_, eff_, lat_)


def custom_network(domain_gpus: int, scale_up_bw: float, scale_out_bw: float, *,
                   scale_up_efficiency: float = SCALE_UP_EFFICIENCY,
                   scale_out_efficiency: float = SCALE_OUT_EFFICIENCY,
                   scale_up_latency: float = SCALE_UP_LATENCY,
                   scale_out_latency: float = SCALE_OUT_LATENCY,
                   source: str = "user input") -> Network:
    """A network typed by the user: GPUs per scale-up domain, bandwidths per GPU per
    direction (bytes/s), efficiencies (default Calculon's 0.6 / 0.9) and latencies (s)."""
    d = v.number("domain_gpus", domain_gpus, "positive", "GPUs")
    if not isinstance(d, float) or not d.is_integer():
        raise ValueError(f"domain_gpus must be a whole number > 0, got {domain_gpus!r}")
    return Network(int(d), _tier("scale_up", scale_up_bw, scale_up_efficiency, scale_up_latency),
                   _tier("scale_out", scale_out_bw, scale_out_efficiency, scale_out_latency), source)


def network_for(device) -> Optional[Network]:
    """The network of ``device`` (a calc.hardware.Accelerator) from its hardware.toml fields
    ``scale_up_gpus``, ``scale_up_gbs``, ``scale_out_gbs``, with the cited efficiencies;
    None when the file gives none (type a custom network)."""
    if getattr(device, "scale_up_gpus", None) is None:
        return None
    return custom_network(device.scale_up_gpus, device.scale_up_bw, device.scale_out_bw,
                          source=device.network_source)


def collective_seconds(kind: str, nbytes, n, tier: NetworkTier):
    """Time of one ring collective of ``kind`` over ``n`` GPUs on ``tier``   [s].

    ``nbytes``: the full buffer per GPU (an all-reduce of a b·s·h tensor: b·s·h·2 bytes);
    formulas in the module docstring.  n = 1 costs nothing.  Accepts arrays.
    """
    if kind not in COLLECTIVES:
        raise ValueError(f"kind must be one of {', '.join(COLLECTIVES)}, got {kind!r}")
    b = v.number("nbytes", nbytes, "non_negative", "bytes")
    n_ = v.number("n", n, "positive", "GPUs")
    if v.is_scalar(b, n_):
        if n_ <= 1:
            return 0.0
        if kind == "p2p":
            return b / tier.achievable_bw + tier.latency
        steps = (n_ - 1.0) * (2.0 if kind == "all_reduce" else 1.0)
        return steps / n_ * b / tier.achievable_bw + steps * tier.latency
    import numpy as np
    b, n_ = np.asarray(b, dtype=float), np.asarray(n_, dtype=float)
    if kind == "p2p":
        out = b / tier.achievable_bw + tier.latency + 0.0 * n_
    else:
        steps = (n_ - 1.0) * (2.0 if kind == "all_reduce" else 1.0)
        out = steps / n_ * b / tier.achievable_bw + steps * tier.latency
    return v.finish(np.where(n_ <= 1, 0.0, out), b, n_)
