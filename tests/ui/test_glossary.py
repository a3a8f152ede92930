"""One Chinese term per concept: ui/text/GLOSSARY.md names it, this test enforces it over every
ZH catalog (new pages' modules included: CATALOGS merges all of ui/text/).

Checks:
- no ZH string contains a discouraged variant (the glossary's "Not these" column, as precise
  patterns below and in scripts/zh_terms.py, so that legitimate text such as "GPU 时间轴" or
  "决定点的大小" passes);
- where a key's English names a concept, its Chinese uses the glossary term (and 拐点 appears
  only where the English says "ridge": it must not name the decode knee as well);
- the direction rule: a time or a cost that a bound implies is a 下限 / 最短时间, never a 上限;
  only a real limit (a time budget) is a time 上限;
- scripts/zh_terms.py, run over the catalogs, lists no concept with two renderings.
"""
import importlib.util
import re
import sys
from pathlib import Path

import pytest

from ui.i18n import CATALOGS

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = ROOT / "ui" / "text" / "GLOSSARY.md"


def _load_scanner():
    spec = importlib.util.spec_from_file_location("zh_terms", ROOT / "scripts" / "zh_terms.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("zh_terms", module)
    spec.loader.exec_module(module)
    return module


zh_terms = _load_scanner()

# English term (first column of the glossary) -> patterns of its discouraged Chinese variants.
# Each pattern is as narrow as the concept: a lookaround keeps the ordinary words that share
# characters with a variant (时间 / 时长 contain 时, 随机时间 contains 机时, 决定点的大小
# contains 定点的大小, "Roofline 屋顶线" is the model's name, not a roof).
DISCOURAGED: dict[str, list[str]] = {
    "roof": [r"(?<!Roofline )屋顶线"],
    "ridge point": [r"脊点", r"平衡点"],
    "knee (critical batch)": [r"膝点", r"临界\s*batch"],
    "arithmetic intensity": [r"(?<!算术)强度"],
    "memory-bound": [r"访存受限", r"内存受限", r"显存受限", r"访存密集", r"受(?:显存)?带宽限制"],
    "compute-bound": [r"计算受限", r"计算密集", r"受算力限制"],
    "% of ceiling": [r"占屋顶"],
    "memory bandwidth": [r"内存带宽"],
    "MFU": [r"模型浮点利用率"],
    "GPU-hour": [r"GPU\s*时(?![间长刻])", r"(?<![随算])机时", r"卡时(?![间长刻])",
                 r"卡\s*·\s*小?时", r"卡小时", r"GPU\s*·\s*小?时"],
    "worked example": [r"种子(?:例子|示例|例题)"],
    "point size": [r"(?<!决)定点的?大小"],
    "kernel": [r"内核", r"核函数"],
    "idle gap": [r"间隙", r"空档"],
    "non-matmul work": [r"非矩阵乘(?:算子|运算)"],
}
# One word per concept (issue 25): the scanner's rejected renderings are banned too, so the
# glossary, the report in docs/zh-terms.txt and this test share one list of patterns.
for _c in zh_terms.CONCEPTS:
    DISCOURAGED.setdefault(_c.name, [])
    DISCOURAGED[_c.name] += [p for p in _c.renderings[1:] if p not in DISCOURAGED[_c.name]]
# Keys where a concept's rejected form is allowed (tok/s in a chart's hover label).
EXEMPT: dict[str, str] = {c.name: c.exempt for c in zh_terms.CONCEPTS if c.exempt}

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


def _hits(text: str, key: str = "") -> list[tuple[str, str]]:
    text = zh_terms._plain(text)
    return [(term, m.group(0)) for term, pats in DISCOURAGED.items()
            if not (key and term in EXEMPT and re.search(EXEMPT[term], key))
            for p in pats for m in re.finditer(p, text)]


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
    # issue 25: the forms the native reader found, and the ordinary words around them
    ("首 token 时间上限", True), ("时间都是上限估计", True), ("每百万 token 费用（上限 → 按效率）", True),
    ("HFU（平均步长）", True), ("整个作业 1 万 tokens/秒", True), ("侧栏", True), ("数据手册", True),
    ("decode 里的 attention", True), ("MoE router", True), ("输入 norm", True), ("LM head", True),
    ("prompt 长度", True), ("处理完提示后", True), ("输入长度（token）", True), ("h hidden", True),
    ("全量重算", True), ("并行规模", True), ("打分矩阵", True), ("causal mask", True), ("被遮住的块", True),
    ("检查清单", True), ("时间窗", True), ("GPU 数量", True), ("卡数", True), ("8 张 GPU", True),
    ("12 FLOPs", True), ("画在 roofline 上", True), ("120 tokens/s", True), ("90 tok/s", True),
    ("内存拷贝", True), ("★ 基准", True), ("远低于屋顶", True), ("超过屋顶（数字有误）", True),
    ("MFU 算力利用率", True), ("模型 FLOPs 利用率", True), ("有用的计算", True), ("每步时间", True),
    ("首 token 最短时间", False), ("单步时间下限", False), ("tokens/秒上限", False), ("基准测试", False),
    ("整个任务", False), ("侧边栏", False), ("注意力头", False), ("输出头（lm_head）", False),
    ("提示词长度", False), ("点「开始实测」的提示", False), ("FlashAttention", False), ("RMSNorm", False),
    ("运行时间都有上限（时间预算）", False), ("roofline.toml", False), ("GPU 数", False),
    ("8 张卡", False), ("张量并行度", False), ("低于上限", False), ("超过上限（请检查数字）", False),
    ("链接里记作 prompt", False), ("`decode`", False), ("calc.inference.prefill", False),
    ("环形注意力（Ring Attention）", False),
])
def test_patterns_flag_variants_and_spare_ordinary_words(text, flagged):
    assert bool(_hits(text)) == flagged, (text, _hits(text))


def test_no_chinese_string_uses_a_discouraged_variant():
    bad = [f"{key}: {found!r} (use the glossary term for {term!r})"
           for key, zh in CATALOGS["zh"].items() for term, found in _hits(zh, key)]
    assert not bad, "\n".join(bad)


def test_tok_s_is_allowed_in_hover_text_only():
    assert not _hits("%{y:.0f} tok/s", "decode.fig.throughput_hover")
    assert _hits("%{y:.0f} tok/s", "decode.fig.y_title")


# The direction rule. A time or a cost (时间, 时长, 延迟, 费用, 成本, 天数) next to 上限 is a bound
# said backwards, unless the English names a real limit (a budget, "at most", "bounded in time").
TIME_OR_COST_CEILING = re.compile(
    r"(?:时间|时长|延迟|费用|成本|天数|小时)(?:的)?上限|上限估计|(?:时间|费用|成本)（上限")
REAL_LIMIT = re.compile(r"\b(?:budget|at most|limit|bounded in time|deadline)\b", re.I)
# English that states the time or cost a bound implies: its Chinese must say 下限 / 最短 / 最低.
EN_TIME_BOUND = re.compile(
    r"\b(?:time|TTFT|latency|per-token|step time|time[- ]to[- ]first[- ]token)[- ](?:bound|floor)\b"
    r"|\bcost\b[^.]*\(bound\b", re.I)


@pytest.mark.parametrize("zh, en, ok", [
    ("首 token 时间上限", "TTFT bound", False),
    ("时间都是上限估计", "The times are bounds", False),
    ("每百万 token 费用（上限 → 按效率）", "Cost / M tokens (bound → at eff.)", False),
    ("首 token 最短时间", "TTFT bound", True),
    ("每百万 token 费用（下限 → 按效率）", "Cost / M tokens (bound → at eff.)", True),
    ("每一项的运行时间都有上限（时间预算）", "Each is bounded in time.", True),
    ("tokens/秒上限（批大小 8）", "Tokens/s bound (batch 8)", True),
])
def test_direction_rule_examples(zh, en, ok):
    assert (_direction_problem(zh, en) is None) == ok


def _direction_problem(zh: str, en: str) -> str | None:
    zh, en = zh_terms._plain(zh), re.sub(r"\{[^}]*\}", " ", en)
    m = TIME_OR_COST_CEILING.search(zh)
    if m and not REAL_LIMIT.search(en):
        return f"{m.group(0)!r}: the time or cost a bound implies is a 下限 / 最短时间"
    if EN_TIME_BOUND.search(en) and not re.search(r"下限|最短|最低|最少", zh):
        return "the English states a time or cost bound: say 下限 / 最短时间 / 最低"
    return None


def test_a_time_or_cost_bound_is_a_lower_bound():
    bad = [f"{key}: {why}" for key, en in CATALOGS["en"].items()
           if (why := _direction_problem(CATALOGS["zh"][key], en))]
    assert not bad, "\n".join(bad)


def test_the_scanner_finds_no_concept_with_two_renderings(tmp_path):
    out = tmp_path / "zh-terms.txt"
    assert zh_terms.main(["zh_terms.py", str(out)]) == 0, out.read_text(encoding="utf-8")
    text = out.read_text(encoding="utf-8")
    assert "# Concepts with two renderings: 0" in text and "TWO RENDERINGS" not in text
    # every concept of issue 25's list is in the report
    assert text.count("\n### ") >= 28


def test_the_scanner_flags_a_second_rendering():
    findings = {f.concept.name: f for f in zh_terms.scan({
        "x.py:a": "解码时的注意力", "x.py:b": "decode 里的 attention", "x.py:c": "单步时间",
        "x.py:d.hover": "%{y} tok/s"})}
    assert findings["attention"].conflicting and findings["decode"].conflicting
    assert not findings["step time"].conflicting
    assert not findings["tokens per second"].conflicting  # tok/s in hover text is allowed


# A page is named as the navigation names it, in 「」, followed by 页 ("「解码速度」页", never
# "Roofline 页面" or "「方案对比」页面").
_PAGE_NAMES = ("整个模型的 Roofline", "Roofline", "MFU", "训练时长", "解码速度", "Trace 诊断", "方案对比",
               "实测本机", "学习", "首页")
PAGE_OUTSIDE_CORNERS = (r"(?<!「)(?:" + "|".join(map(re.escape, _PAGE_NAMES)) + r")(?!」) ?页"
                        r"|」页面")


def test_the_typography_rules():
    bad = []
    for key, zh in CATALOGS["zh"].items():
        text = re.sub(r"`[^`]*`", "x", re.sub(r"\{[^{}]*\}", "0", zh))  # a field is a number or a name
        for name, pat in (("a space before %", r"\d %"),
                          ("a space between Chinese words", r"[\u4e00-\u9fff] +[\u4e00-\u9fff]"),
                          ("spaces around ——", r" ——|—— "),
                          ("a single — between words", r"\S —(?!—) ?\S|[\u4e00-\u9fff]—(?!—)[\u4e00-\u9fff]"),
                          ("a full-width bracket as a formula's operand",
                           r"[÷×=]\s*（[^（），、；。]*[×÷+−·][^（），、；。]*）"),
                          ("a UI name in bold instead of 「」", r"按 \*\*|点 \*\*"),
                          ("a space beside 「」 in a sentence", r"[\u4e00-\u9fff，。；：、] +「|」 +[\u4e00-\u9fff]"),
                          ("a page named outside 「」页", PAGE_OUTSIDE_CORNERS)):
            if re.search(pat, text):
                bad.append(f"{key}: {name}: {zh[:80]!r}")
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


@pytest.mark.parametrize("text, flagged", [
    ("在 Roofline 页面导入", True), ("打开 MFU 页面", True), ("「方案对比」页面", True), ("学习页里", True),
    ("在「Roofline」页导入", False), ("在「整个模型的 Roofline」页", False), ("Roofline 屋顶线", False),
])
def test_page_names_are_in_corner_brackets(text, flagged):
    assert bool(re.search(PAGE_OUTSIDE_CORNERS, text)) == flagged


def test_ui_names_are_in_corner_brackets_not_quotes():
    # a quoted text that is itself a label of the app (an option, a section, a button) is a UI
    # name: 「」, not “” (“” is for what the user typed)
    labels = {v.strip() for v in CATALOGS["zh"].values() if len(v) <= 24 and "{" not in v}
    bad = [f"{key}: {m.group(0)}" for key, zh in CATALOGS["zh"].items()
           for m in re.finditer(r"“([^”]+)”", zh) if m.group(1).rstrip("…") in labels]
    assert not bad, "\n".join(bad)
