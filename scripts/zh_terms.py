"""Scan the Chinese catalogs for concepts written more than one way.

Usage (from the repository root)::

    python scripts/zh_terms.py [OUTPUT]        # default OUTPUT: docs/zh-terms.txt

For each concept below (the glossary's one-word-per-concept rows, ui/text/GLOSSARY.md), every
pattern is one rendering of it: the first is the one to keep, the others are what it replaced
(English words left in a Chinese string, synonyms, an older spelling). The report lists, per
concept, how many ZH strings use each rendering and which (file:key); a concept whose strings
use a rejected rendering is marked "TWO RENDERINGS". Exit status 1 when any concept is so marked.

tests/ui/test_glossary.py runs `scan()` over the live catalogs and fails on any concept with two
renderings, so the report in docs/ stays a regenerated picture, not the check itself.
"""
from __future__ import annotations

import datetime as _dt
import importlib
import pkgutil
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUTPUT = ROOT / "docs" / "zh-terms.txt"


@dataclass(frozen=True)
class Concept:
    """One concept: `renderings[0]` is the glossary's term, the others are rejected forms.

    `exempt` is a regex over keys where a rejected rendering is allowed (tok/s in hover text).
    """
    name: str
    keep: str
    renderings: tuple[str, ...]
    exempt: str = ""


CONCEPTS: tuple[Concept, ...] = (
    Concept("attention", "注意力", (r"注意力", r"(?i)(?<![A-Za-z_.])(?<!ring )attention(?![A-Za-z_])"),
            exempt=r"filter_placeholder"),  # a filter over kernel names, which are English
    Concept("prefill", "预填充", (r"预填充", r"(?i)(?<![A-Za-z_.])prefill(?![A-Za-z_])")),
    Concept("decode", "解码", (r"解码", r"(?<![A-Za-z_.])[Dd]ecode(?![A-Za-z_])")),
    Concept("embedding", "词嵌入", (r"词嵌入", r"(?i)(?<![A-Za-z_.])embeddings?(?![A-Za-z_])")),
    Concept("expert (MoE)", "专家", (r"专家", r"(?i)(?<![A-Za-z_.])experts?(?![A-Za-z_])")),
    Concept("router", "路由器", (r"路由器", r"(?i)(?<![A-Za-z_.])router(?![A-Za-z_])")),
    Concept("norm (LayerNorm, RMSNorm)", "归一化",
            (r"归一化", r"(?<![A-Za-z_.])norms?(?![A-Za-z_])")),
    Concept("head (attention)", "头", (r"头数|个头|每头|头维度|注意力头|KV 头|输出头",
                                       r"(?<![A-Za-z_.])heads?(?![A-Za-z_])")),
    Concept("hidden size", "隐藏维度", (r"隐藏维度", r"(?<![A-Za-z_.])hidden(?![A-Za-z_])")),
    Concept("prompt", "提示词", (r"提示词", r"(?i)(?<![A-Za-z_.])prompts?(?![A-Za-z_])",
                                 r"提示(?!词)(?= ?(?:长度|token|的前向|是|仍))|处理完提示(?!词)",
                                 r"输入长度|输入 →|输入 token")),
    Concept("datasheet", "规格书", (r"规格书", r"(?i)datasheet", r"数据手册", r"标称")),
    Concept("job (a training run)", "任务", (r"任务", r"作业")),
    Concept("step time", "单步时间", (r"单步时间", r"步长", r"(?<!单)步时(?!间)", r"每步时间")),
    Concept("useful (FLOP)", "有效",
            (r"有效 ?(?:的)?(?:模型 )?(?:FLOP|算力|计算)|模型有效", r"有用的 ?(?:模型 )?(?:FLOP|计算)")),
    Concept("activation recomputation", "激活重计算（全量重计算）",
            (r"重计算", r"(?<!重)重算", r"完全重计算|完全（")),
    Concept("degree of parallelism", "并行度", (r"并行度", r"并行规模", r"并行数")),
    Concept("score matrix", "分数矩阵", (r"分数矩阵", r"打分矩阵", r"注意力矩阵")),
    Concept("causal mask", "因果掩码",
            (r"因果掩码|被掩码", r"(?i)(?<![A-Za-z_.])causal(?![A-Za-z_])", r"掩掉|遮住")),
    Concept("checklist (the chapter's ①–⑥)", "排查清单", (r"排查清单", r"检查清单", r"排查的清单")),
    Concept("time window (of a trace)", "时间窗口", (r"时间窗口", r"时间窗(?!口)")),
    Concept("sidebar", "侧边栏", (r"侧边栏", r"侧栏")),
    Concept("MFU", "MFU（模型算力利用率）",
            (r"模型算力利用率", r"模型 ?FLOPs? ?利用率|模型浮点利用率", r"MFU 算力利用率")),
    Concept("time bound / floor", "最短时间 / 下限",
            (r"最短时间|时间下限|（下限）|的下限|下限", r"时间上限|上限估计|(?:费用|成本|时间)（上限")),
    Concept("GPU count", "GPU 数", (r"GPU 数(?!量)", r"GPU 数量", r"卡数")),
    Concept("per GPU", "单卡 / 每卡", (r"每卡|单卡|每张卡", r"每张 GPU|张 GPU")),
    Concept("token", "token", (r"(?<![A-Za-z_])token(?![A-Za-z_/])", r"(?<![A-Za-z_])tokens(?![A-Za-z_/])")),
    Concept("FLOP (a count)", "FLOP", (r"FLOP(?![sS])", r"FLOPs")),
    Concept("roofline (the model and chart)", "Roofline",
            (r"Roofline", r"(?<![A-Za-z\-_/])roofline(?![\-._/A-Za-z])")),
    Concept("tokens per second", "tokens/秒",
            (r"tokens/秒", r"tokens/s(?![A-Za-z])", r"(?<![A-Za-z])token/s(?![A-Za-z])",
             r"(?<![A-Za-z])tok/s(?![A-Za-z])", r"token/秒"),
            exempt=r"hover"),  # tok/s is short enough for a chart's hover label
    Concept("memory copy", "显存拷贝", (r"显存拷贝", r"内存拷贝")),
    Concept("baseline (plan)", "基线", (r"基线", r"基准(?!测试)")),
    Concept("batch size", "批大小",
            (r"批大小", r"(?<![A-Za-z_])batch ?(?:\d|\{|为|大小)|批量大小|批次大小"),
            exempt=r"snippet"),  # "batch = torch.randint(...)" is code
    Concept("verdict (measured vs ceiling)", "低于上限 / 接近上限 / 超过上限（请检查数字）",
            (r"[低近过]上限", r"远低于屋顶|接近屋顶|（数字有误）")),
)


@dataclass
class Finding:
    concept: Concept
    hits: list[list[str]] = field(default_factory=list)  # per rendering: file:key

    @property
    def conflicting(self) -> bool:
        """Two renderings in use, or only a rejected one (the concept is still not written the
        glossary's way)."""
        return any(self.hits[1:])


def zh_catalogs() -> dict[str, str]:
    """{"file.py:key": ZH text} over every module of ui/text/ (new pages' included)."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    import ui.text as text_pkg

    out: dict[str, str] = {}
    for info in sorted(pkgutil.iter_modules(text_pkg.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"ui.text.{info.name}")
        for key, zh in getattr(module, "ZH", {}).items():
            out[f"{info.name}.py:{key}"] = zh
    return out


def _plain(text: str) -> str:
    """Code is not Chinese: placeholders ({name}, {n:,}) read as "0", `code` spans and the URL names
    a help text quotes ("链接里记作 prompt", "recompute=none / selective / full")."""
    text = re.sub(r"\{[^{}]*\}", "0", text)  # a field stands for a number or a name
    text = re.sub(r"`[^`]*`", " ", text)
    return re.sub(r"记作\s*[A-Za-z0-9_=/|.,… -]+", "记作 ", text)


def scan(catalog: dict[str, str] | None = None) -> list[Finding]:
    catalog = zh_catalogs() if catalog is None else catalog
    findings = []
    for c in CONCEPTS:
        f = Finding(c, [[] for _ in c.renderings])
        for where, zh in catalog.items():
            key = where.split(":", 1)[-1]
            text = _plain(zh)
            for i, pat in enumerate(c.renderings):
                if i and c.exempt and re.search(c.exempt, key):
                    continue
                if re.search(pat, text):
                    f.hits[i].append(where)
        findings.append(f)
    return findings


def report(findings: list[Finding]) -> str:
    lines = ["# Chinese catalog terms (ui/text/*.py ZH dicts, file:key): per concept, the term kept",
             "# (first rendering) and the rejected renderings; written by scripts/zh_terms.py.",
             f"# Generated on {_dt.date.today().isoformat()}; regenerate after changing a catalog.",
             f"# Concepts with two renderings: {sum(f.conflicting for f in findings)}", ""]
    for f in findings:
        mark = "  <- TWO RENDERINGS" if f.conflicting else ""
        lines.append(f"### {f.concept.name} (keep {f.concept.keep}){mark}")
        for i, (pat, hits) in enumerate(zip(f.concept.renderings, f.hits)):
            role = "keep" if i == 0 else "rejected"
            lines.append(f"  {pat}  [{len(hits)}] {role}")
            if i:  # the kept term's keys are many and say nothing; list only the offenders
                lines += [f"    {h}" for h in hits]
    return "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    import argparse
    parser = argparse.ArgumentParser(description="Scan the Chinese catalogs for concepts written "
                                                 "more than one way; write the report.")
    parser.add_argument("output", nargs="?", type=Path, default=DEFAULT_OUTPUT,
                        help=f"the report's path (default: {DEFAULT_OUTPUT.relative_to(ROOT)})")
    out = parser.parse_args(argv[1:]).output
    findings = scan()
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(report(findings), encoding="utf-8")
    bad = [f.concept.name for f in findings if f.conflicting]
    print(f"wrote {out}: {len(bad)} concept(s) with two renderings" + (f": {', '.join(bad)}" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
