"""Training layouts: which TP × PP × DP × EP × CP split fits, how long a step takes and
where the time goes, predicted from the roofline and the network.

    calc.parallel.network     the two network tiers, ring collectives (Calculon constants)
    calc.parallel.schedules   1F1B / interleaved / ZB1P / DualPipe bubbles, Gantt timeline
    calc.parallel.compute     one micro-batch on one stage: GEMM efficiency by size,
                              attention, memory-bound operators (calc.model_ops)
    calc.parallel.step        training_step (one record per layout) and search_layouts

Memory per GPU is calc.models.training_memory's (one memory model in the app).
"""
from .compute import (ATTENTION_EFFICIENCY, GEMM_EFFICIENCY, MEMORY_EFFICIENCY, StageCompute,
                      gemm_efficiency, layers_on_worst_stage, memory_efficiency, stage_compute)
from .network import (SCALE_OUT_EFFICIENCY, SCALE_OUT_LATENCY, SCALE_UP_EFFICIENCY,
                      SCALE_UP_LATENCY, Network, NetworkTier, collective_seconds, custom_network,
                      network_for)
from .schedules import SCHEDULES, Bubble, GanttBlock, pipeline_bubble, schedule_timeline
from .step import (GANTT_MAX_MICROBATCHES, global_batch_sequences, step_timeline, MEMORY_RESERVE, PROBLEMS, LayoutSearch, Rejection, TrainingStep,
                   layout_problems, search_layouts, training_step)

__all__ = [
    "ATTENTION_EFFICIENCY", "GEMM_EFFICIENCY", "MEMORY_EFFICIENCY", "StageCompute",
    "gemm_efficiency", "layers_on_worst_stage", "memory_efficiency", "stage_compute",
    "SCALE_OUT_EFFICIENCY", "SCALE_OUT_LATENCY", "SCALE_UP_EFFICIENCY", "SCALE_UP_LATENCY",
    "Network", "NetworkTier", "collective_seconds", "custom_network", "network_for",
    "SCHEDULES", "Bubble", "GanttBlock", "pipeline_bubble",
    "schedule_timeline", "MEMORY_RESERVE", "PROBLEMS", "LayoutSearch", "Rejection",
    "TrainingStep", "layout_problems", "search_layouts", "training_step",
    "GANTT_MAX_MICROBATCHES", "global_batch_sequences", "step_timeline",
]
