"""One Chinese term per concept: ui/text/GLOSSARY.md names it, this test enforces it over every
ZH catalog (new pages' modules included: CATALOGS merges all of ui/text/).

Two checks:
- no ZH string contains a discouraged variant (the glossary's "Not these" column, as precise
  patterns below, so that legitimate text such as "GPU 时间轴" or "决定点的大小" passes);
- where a key's English names a concept, its Chinese uses the glossary term (and 拐点 appears
  only where the English says "ridge": it must not name the decode knee as well).
"""
import re
from pathlib import Path

import pytest

from ui.i18n import CATALOGS

GLOSSARY = Path(__file__).resolve().parents[2] / "ui" / "text" / "GLOSSARY.md"

# English term (first column of the glossary) -> patterns of its discouraged Chinese variants.
# Each pattern is as narrow as the concept: a lookaround keeps the ordinary words that share
# characters with a variant (时间 / 时长 contain 时, 随机时间 contains 机时, 决定点的大小
# contains 定点的大小, "Roofline 屋顶线" is the model's name, not a roof).
DISCOURAGED: dict[str, list[str]] = {
    "roof": [r"(?<!Roofline )屋顶线"],
    "ridge point": [r"脊点", r"平衡点"],
    "knee (critical batch)": [r"膝点", r"临界\s*batch"],
    "arithmetic intensity": [r"(?<!算术)强度"],
    "memory-bound": [r"访存受限", r"内存受限", r"显存受限", r"访存密集"],
    "compute-bound": [r"计算受限", r"计算密集"],
    "% of ceiling": [r"占屋顶"],
    "memory bandwidth": [r"内存带宽"],
    "MFU": [r"模型浮点利用率"],
    "GPU-hour": [r"GPU\s*时(?![间长刻])", r"(?<![随算])机时", r"卡时(?![间长刻])",
                 r"卡\s*·\s*小?时", r"卡小时", r"GPU\s*·\s*小?时"],
    "worked example": [r"种子(?:例子|示例|例题)"],
    "point size": [r"(?<!决)定点的?大小"],
    "kernel": [r"内核", r"核函数"],
    "idle gap": [r"间隙", r"空档"],
}

# English pattern -> Chinese term its translation must contain (placeholders are stripped).
PAIRED: list[tuple[str, str]] = [
    (r"\bridge\b", "拐点"),
    (r"\bknee\b", "临界批大小"),
    (r"\bGPU-hours?\b", "GPU 小时"),
    (r"\bmemory-bound\b", "带宽受限"),
    (r"\bcompute-bound\b", "算力受限"),
    (r"\bintensity\b", "算术强度"),
    (r"\b(?:worked|seed) example\b", "算例"),
]
# Chinese term -> English pattern that must be present: the term names this concept only.
EXCLUSIVE: list[tuple[str, str]] = [
    ("拐点", r"\bridge\b"),
    ("临界批大小", r"\bknee\b"),
]


def _rows() -> list[list[str]]:
    rows = []
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        if not line.startswith("|") or set(line) <= set("|- "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        rows.append(cells)
    assert rows and rows[0][:2] == ["English", "中文"], "glossary table header changed"
    return rows[1:]


def _variants(cell: str) -> list[str]:
    """'a, b (note), c' -> ['a', 'b', 'c']."""
    return [re.sub(r"\s*\(.*?\)\s*", "", v).strip() for v in cell.split(",") if v.strip()]


def _hits(text: str) -> list[tuple[str, str]]:
    return [(term, m.group(0)) for term, pats in DISCOURAGED.items() for p in pats
            for m in re.finditer(p, text)]


def _plain(text: str) -> str:
    return re.sub(r"\{[^}]*\}", " ", text)


def test_glossary_rows_are_complete_and_unique():
    rows = _rows()
    assert len(rows) >= 30
    for cells in rows:
        assert len(cells) == 4 and all(cells[:3]), f"incomplete glossary row: {cells}"
    english = [c[0] for c in rows]
    chinese = [c[1] for c in rows]
    assert len(set(english)) == len(english), "an English term appears twice"
    assert len(set(chinese)) == len(chinese), "two concepts share one Chinese term"


def test_the_test_and_the_glossary_list_the_same_variants():
    rows = {c[0]: c for c in _rows()}
    assert set(DISCOURAGED) <= set(rows), set(DISCOURAGED) - set(rows)
    for term, cells in rows.items():
        variants = _variants(cells[3])
        assert bool(variants) == (term in DISCOURAGED), f"{term}: glossary and test disagree"
        for v in variants:
            assert any(re.search(p, v) for p in DISCOURAGED[term]), f"{term}: no pattern for {v!r}"
        # the recommended term itself is never flagged
        assert not _hits(cells[1]), f"{term}: its own term {cells[1]!r} is flagged"


@pytest.mark.parametrize("text, flagged", [
    ("多少 GPU 时；", True), ("GPU 机时", True), ("卡·小时", True), ("每卡时 2.5", True),
    ("强度 2", True), ("种子例子", True), ("按时间定点大小", True), ("拐点（临界 batch）", True),
    ("额外的屋顶线", True),
    ("GPU 时间轴上有空隙", False), ("看谁最耗 GPU 时间", False), ("每 GPU 小时价格", False),
    ("算术强度为 2", False), ("随机时间", False), ("按时间决定点的大小", False),
    ("随机种子", False), ("Roofline 屋顶线", False), ("一张卡时间线", False),
])
def test_patterns_flag_variants_and_spare_ordinary_words(text, flagged):
    assert bool(_hits(text)) == flagged, (text, _hits(text))


def test_no_chinese_string_uses_a_discouraged_variant():
    bad = [f"{key}: {found!r} (use the glossary term for {term!r})"
           for key, zh in CATALOGS["zh"].items() for term, found in _hits(zh)]
    assert not bad, "\n".join(bad)


def test_no_lenticular_brackets_for_emphasis():
    bad = [key for key, zh in CATALOGS["zh"].items() if re.search("[【】]", zh)]
    assert not bad, f"【】 in: {bad} (emphasis is **bold**)"


def test_english_and_chinese_name_the_same_concept():
    bad = []
    for key, en in CATALOGS["en"].items():
        zh = CATALOGS["zh"][key]
        for en_pat, zh_term in PAIRED:
            if re.search(en_pat, _plain(en), re.I) and zh_term not in zh:
                bad.append(f"{key}: English says {en_pat!r}, Chinese lacks {zh_term!r}")
        for zh_term, en_pat in EXCLUSIVE:
            if zh_term in zh and not re.search(en_pat, _plain(en), re.I):
                bad.append(f"{key}: {zh_term!r} names another concept than {en_pat!r}")
    assert not bad, "\n".join(bad)
