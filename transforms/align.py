"""Triple–text alignment: where, if anywhere, does the text state a value?

The redundant-triple filter (paper §3.2) keeps a triple only when the pair's
text supports it. `align_value` looks for that support in levels, cheapest
first, and stops at the first hit:

1. exact: `str.find` on the raw strings, then on normalised forms (width,
   case, spaces, punctuation; see transforms/text.py). Latin/digit edges
   must fall on a word boundary so `6亿` is not found inside `7.61亿`.
2. date: the value parses as a date (`1994年5月27日`, `1994-05-27`,
   `1994.5.27`, `一九九四年`) and the text holds a compatible date in any
   surface form. A value less precise than the text (`1994年` against
   `1994年5月27日`) matches; a text less precise than the value only with
   `date_allow_partial` (off: the text does not state the day).
3. number: the value parses as a number with an optional multiplier and unit
   (`2900万美元`, `1.75米`, `12首`) and the text holds the same quantity in
   another form (`2,900万美元`, `175厘米`, `十二首`). Units of another
   dimension never match (`5月` is not `5首`).
4. alias: another name of the value: anchor titles from value_links, the
   linked page's title, the parts inside/outside brackets of the value.
5. fuzzy: rapidfuzz partial_ratio on normalised strings locates a candidate,
   then an edit script verifies it: at most (100 - `fuzzy_threshold`)% of
   the value's characters inserted or omitted (`美国纽约曼哈顿` /
   `美国纽约市曼哈顿`), no replaced character in values shorter than
   `fuzzy_substitution_min_length` (山东/山西电影制片厂 are two studios), and
   the same digit runs. Only values of at least `fuzzy_min_length`
   characters. It is the slowest level (10-20x str.find), so it runs only on
   what every exact level missed.

Offsets in the returned Alignment always refer to the ORIGINAL text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from transforms.text import boundary_ok, find_bounded, norm_char, normalise, normalise_with_map


@dataclass
class AlignConfig:
    """Which alignment levels run, and how strict they are."""

    exact: bool = True
    dates: bool = True
    numbers: bool = True
    aliases: bool = True
    fuzzy: bool = True
    # rapidfuzz partial_ratio score (0-100) at or above which a fuzzy match counts.
    fuzzy_threshold: float = 85.0
    # Shorter values are never fuzzed: one changed character in a 3-character
    # name is another name.
    fuzzy_min_length: int = 5
    # Values shorter than this must match without replaced characters (only
    # inserted/omitted ones): 山东电影制片厂 is not 山西电影制片厂.
    fuzzy_substitution_min_length: int = 12
    # A text date less precise than the value (`1994年` for `1994年5月27日`)
    # still supports it. Off by default: the text then does not state the day,
    # and on DuIE this was the main source of false support. A value less
    # precise than the text (`1994年` vs `1994年5月27日`) always matches.
    date_allow_partial: bool = False
    # A bare number in the text (no unit) may support a value with a unit.
    number_allow_unitless_text: bool = True
    # Relative tolerance when comparing quantities after unit conversion.
    number_rel_tol: float = 1e-9

    def __post_init__(self) -> None:
        if not 0.0 <= self.fuzzy_threshold <= 100.0:
            raise ValueError(f"fuzzy_threshold is a rapidfuzz score in [0, 100], not {self.fuzzy_threshold}")
        if self.fuzzy_min_length < 1:
            raise ValueError("fuzzy_min_length must be >= 1")


@dataclass(frozen=True)
class Alignment:
    """Support of a value in the text: original [start, end) and the level."""

    start: int
    end: int
    match: str  # exact | date | number | alias | fuzzy


# --------------------------------------------------------------------------- dates

_CN_DIGIT = {"零": 0, "〇": 0, "○": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
             "六": 6, "七": 7, "八": 8, "九": 9}
_CN_UNIT = {"十": 10, "百": 100, "千": 1000}
_CN_BIG = {"万": 10_000, "亿": 100_000_000}

_D = r"(?<!\d)(?<!\d\.)"
_CN = "零〇○一二三四五六七八九"
_CN_SMALL = "一二三四五六七八九十"
_DATE_RES = (
    # 1994年5月27日, 1994年5月, 1994年
    re.compile(_D + r"(\d{4})\s*年\s*(?:(\d{1,2})\s*月\s*(?:(\d{1,2})\s*[日号])?)?"),
    # 1994-05-27, 1994/5/27, 1994.05.27, 1994-05
    re.compile(_D + r"(\d{4})\s*[-/.]\s*(\d{1,2})(?:\s*[-/.]\s*(\d{1,2}))?(?![0-9])"),
    # 一九九四年五月二十七日
    re.compile(rf"([{_CN}]{{4}})年(?:([{_CN_SMALL}]{{1,3}})月(?:([{_CN_SMALL}]{{1,3}})[日号])?)?"),
)
# A bare 4-digit year value ("1994") is a date only when the whole value is it.
_BARE_YEAR = re.compile(r"^(\d{4})$")


def _cn_int(s: str) -> int | None:
    """Parse a Chinese numeral: positional (一九九四) or with units (二十七, 三千五百万)."""
    if not s:
        return None
    if all(c in _CN_DIGIT for c in s) and len(s) > 1:
        return int("".join(str(_CN_DIGIT[c]) for c in s))
    total, section, digit = 0, 0, None
    for c in s:
        if c in _CN_DIGIT:
            digit = _CN_DIGIT[c]
        elif c in _CN_UNIT:
            section += (1 if digit is None else digit) * _CN_UNIT[c]
            digit = None
        elif c in _CN_BIG:
            section += digit or 0
            total += (section or 1) * _CN_BIG[c]
            section, digit = 0, None
        else:
            return None
    return total + section + (digit or 0)


def _num(s: str | None) -> int | None:
    if s is None:
        return None
    return int(s) if s.isdigit() else _cn_int(s)


def _date_from_match(m: re.Match) -> tuple[int, int | None, int | None] | None:
    y, mo, d = _num(m.group(1)), _num(m.group(2)), _num(m.group(3))
    if y is None or (mo is not None and not 1 <= mo <= 12) or (d is not None and not 1 <= d <= 31):
        return None
    return y, mo, d


_DATE_CHARS = re.compile(r"[0-9年]")
_NUMBER_CHARS = re.compile("[0-9" + "零〇一二两三四五六七八九十百千万亿" + "]")


@lru_cache(maxsize=16384)
def parse_date(value: str) -> tuple[int, int | None, int | None] | None:
    """(year, month, day) when the whole value is a date, else None.
    Memoised: infobox values repeat across entries."""
    if _DATE_CHARS.search(value) is None:
        return None
    v = value.strip()
    m = _BARE_YEAR.match(v)
    if m:
        return int(m.group(1)), None, None
    for rx in _DATE_RES:
        m = rx.match(v)
        if m and not v[m.end():].strip(" 　,，.。"):
            return _date_from_match(m)
    return None


# A cheap substring that any match of the corresponding _DATE_RES pattern
# must contain: scanning CJK text with `re` costs ~10 us per pattern, `in`
# almost nothing.
_DATE_GUARDS = (("年",), ("-", "/", "."), ("年",))


@lru_cache(maxsize=64)
def find_dates(text: str) -> tuple[tuple[int, int, tuple[int, int | None, int | None]], ...]:
    """All dates in `text` as (start, end, (y, m, d)), in text order.

    Cached per text: an entry's date values are all checked against the same
    summary."""
    found = []
    for rx, guards in zip(_DATE_RES, _DATE_GUARDS):
        if not any(g in text for g in guards):
            continue
        for m in rx.finditer(text):
            dt = _date_from_match(m)
            if dt is not None:
                found.append((m.start(), m.end(), dt))
    found.sort()
    return tuple(found)


def dates_compatible(value, text_date, allow_partial: bool) -> bool:
    """The text date states the value date (same year; month/day agree)."""
    for v, t in zip(value, text_date):
        if v is None:
            continue  # the value says nothing more; a more precise text is fine
        if t is None:
            return allow_partial
        if v != t:
            return False
    return True


# ------------------------------------------------------------------------- numbers

# unit -> (dimension, factor to the dimension's base unit). Counting words are
# their own dimension with factor 1, so 12首 never matches 12张.
_UNITS: dict[str, tuple[str, float]] = {}


def _add_units(dim: str, table: dict[str, float]) -> None:
    for u, f in table.items():
        _UNITS[u] = (dim, f)


_add_units("length", {"mm": 1e-3, "毫米": 1e-3, "cm": 1e-2, "厘米": 1e-2, "公分": 1e-2, "m": 1.0,
                      "米": 1.0, "km": 1e3, "公里": 1e3, "千米": 1e3, "英寸": 0.0254, "寸": 0.0254,
                      "英尺": 0.3048, "英里": 1609.344})
_add_units("mass", {"g": 1e-3, "克": 1e-3, "kg": 1.0, "公斤": 1.0, "千克": 1.0, "斤": 0.5,
                    "吨": 1e3, "t": 1e3})
_add_units("area", {"平方米": 1.0, "m²": 1.0, "m2": 1.0, "平方公里": 1e6, "平方千米": 1e6,
                    "km²": 1e6, "km2": 1e6, "公顷": 1e4, "亩": 10000 / 15})
_add_units("cny", {"元": 1.0, "人民币": 1.0, "元人民币": 1.0, "块": 1.0})
_add_units("usd", {"美元": 1.0, "美金": 1.0})
_add_units("hkd", {"港元": 1.0, "港币": 1.0})
_add_units("eur", {"欧元": 1.0})
_add_units("jpy", {"日元": 1.0})
_add_units("time", {"年": 1.0, "月": 1.0, "日": 1.0, "号": 1.0, "天": 1.0, "小时": 1.0,
                    "分钟": 1.0, "秒": 1.0, "周": 1.0, "岁": 1.0})
_add_units("percent", {"%": 1.0, "％": 1.0})
# Counters of people are interchangeable: 300人 / 300名 / 300位.
for _w in ("人", "名", "位", "万人"):
    _UNITS[_w] = ("count:person", 1.0)
_UNITS["万人"] = ("count:person", 1e4)
for _w in ("首", "个", "部", "集", "张", "件", "座", "家", "所", "项", "种", "次",
           "场", "本", "篇", "章", "层", "条", "只", "头", "册", "卷", "季", "期", "届", "支", "辆",
           "架", "艘", "台", "户", "栋", "间", "款", "门", "颗", "枚"):
    _UNITS.setdefault(_w, ("count:" + _w, 1.0))

_MULT = {"十": 10, "百": 100, "千": 1e3, "万": 1e4, "十万": 1e5, "百万": 1e6, "千万": 1e7, "亿": 1e8,
         "十亿": 1e9, "百亿": 1e10, "千亿": 1e11, "万亿": 1e12}
_UNIT_ALT = "|".join(sorted((re.escape(u) for u in _UNITS), key=len, reverse=True))
_MULT_ALT = "|".join(sorted(_MULT, key=len, reverse=True))
_CN_NUM = "零〇一二两三四五六七八九十百千万亿"
_NUMBER_RE = re.compile(
    r"(?<!\d)(?<!\d[.,])(\d+(?:,\d{3})*(?:\.\d+)?|[" + _CN_NUM + r"]+)\s*"
    r"(" + _MULT_ALT + r")?\s*(" + _UNIT_ALT + r")?",
    re.IGNORECASE,
)
_VALUE_PREFIX = re.compile(r"^(?:约|近|超过|逾|大约|共|总计|合计|累计)")
_VALUE_SUFFIX = re.compile(r"(?:多|余|左右|以上|\+)$")


def _to_float(num: str) -> float | None:
    if num[0].isdigit():
        return float(num.replace(",", ""))
    n = _cn_int(num)
    return None if n is None else float(n)


def _quantity(m: re.Match) -> tuple[float, str | None, float] | None:
    base = _to_float(m.group(1))
    if base is None:
        return None
    raw = base * _MULT.get(m.group(2) or "", 1)
    unit = (m.group(3) or "").lower()
    dim, factor = _UNITS.get(unit, (None, 1.0)) if unit else (None, 1.0)
    return raw * factor, dim, raw


@lru_cache(maxsize=16384)
def parse_quantity(value: str) -> tuple[float, str | None, float] | None:
    """(amount in the dimension's base unit, dimension or None, number with its
    multiplier) when the whole value is a quantity like `2900万美元`, `1.75米`,
    `12首`, `12`; else None. Memoised."""
    if _NUMBER_CHARS.search(value) is None:
        return None
    v = _VALUE_SUFFIX.sub("", _VALUE_PREFIX.sub("", value.strip().replace(" ", "")))
    if not v:
        return None
    m = _NUMBER_RE.fullmatch(v)
    if not m:
        return None
    return _quantity(m)


@lru_cache(maxsize=64)
def find_quantities(text: str) -> tuple[tuple[int, int, float, str | None, float], ...]:
    """All quantities in the text as (start, end, amount, dimension, number);
    cached per text like find_dates."""
    out = []
    for m in _NUMBER_RE.finditer(text):
        q = _quantity(m)
        if q is None:
            continue
        end = m.end()
        while end > m.start() and text[end - 1].isspace():
            end -= 1
        out.append((m.start(), end, *q))
    return tuple(out)


def _close(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


# --------------------------------------------------------------------------- levels

_DIGITS = re.compile(r"\d+")
_BRACKETS = re.compile(r"[（(\[【《〈<「『][^）)\]】》〉>」』]*[）)\]】》〉>」』]")


_OPENERS = frozenset("（([【《〈<「『")
_LATIN_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9 .&'\-]*$")


def value_variants(value: str) -> list[str]:
    """Other spellings of a value derivable from the value alone: the part
    outside brackets, and a Latin-script part inside them, which names the
    same thing (`瑞恩·高斯林（Ryan Gosling）`, `上大（SHU）`). A Chinese part
    inside brackets is a qualifier (`1995年10月27日（美国）`, `美国（俄裔）`,
    `（自然科学版）`), never another name of the value."""
    if _OPENERS.isdisjoint(value):
        return []
    out = []
    outside = _BRACKETS.sub("", value).strip()
    if outside and outside != value:
        out.append(outside)
    for m in _BRACKETS.finditer(value):
        inner = m.group(0)[1:-1].strip()
        if inner and _LATIN_NAME.match(inner) and len(inner) >= 2:
            out.append(inner)
    return out


def _original_boundary_ok(text: str, s: int, e: int, nv: str) -> bool:
    """Word boundaries of a normalised match, judged on the ORIGINAL
    neighbours: a space or punctuation mark there (dropped by normalisation)
    is a boundary (`Bonnie Turner、Terry`, `ATL（Amperex`); a letter or digit of
    the same class is not (`8.06亿` does not state `06亿`)."""
    first, last = nv[0], nv[-1]
    if s > 0 and first.isascii() and first.isalnum():
        b = norm_char(text[s - 1])
        if b:
            if (b[-1].isdigit() and first.isdigit()) or (b[-1].isascii() and b[-1].isalpha() and first.isalpha()):
                return False
        if text[s - 1] in ".," and first.isdigit() and s > 1 and norm_char(text[s - 2])[-1:].isdigit():
            return False  # inside 8.06 or 21,439
    if e < len(text) and last.isascii() and last.isalnum():
        a = norm_char(text[e])
        if a:
            if (a[0].isdigit() and last.isdigit()) or (a[0].isascii() and a[0].isalpha() and last.isalpha()):
                return False
        if text[e] in ".," and last.isdigit() and e + 1 < len(text) and norm_char(text[e + 1])[:1].isdigit():
            return False
    return True


def _exact(value: str, text: str) -> Alignment | None:
    i = find_bounded(text, value)
    if i != -1:
        return Alignment(i, i + len(value), "exact")
    nv = normalise(value)
    if not nv:
        return None
    nt = normalise_with_map(text)
    j = nt.text.find(nv)
    while j != -1:
        s, e = nt.span(j, j + len(nv))
        # Judge word boundaries on the ORIGINAL neighbours: normalisation drops
        # the bracket or space that separated `ATL（Amperex`.
        if _original_boundary_ok(text, s, e, nv):
            return Alignment(s, e, "exact")
        j = nt.text.find(nv, j + 1)
    return None


def _date(value: str, text: str, cfg: AlignConfig) -> Alignment | None:
    vd = parse_date(value)
    if vd is None:
        return None
    found = find_dates(text)
    # Prefer a text date at least as precise as the value; a partial one
    # (year only) is the fallback.
    for s, e, td in found:
        if dates_compatible(vd, td, False):
            return Alignment(s, e, "date")
    if cfg.date_allow_partial:
        for s, e, td in found:
            if dates_compatible(vd, td, True):
                return Alignment(s, e, "date")
    return None


_COUNT_RELATION = re.compile(r"数|量|次|届|个")


def _number(value: str, text: str, cfg: AlignConfig, relation: str | None = None) -> Alignment | None:
    q = parse_quantity(value)
    if q is None:
        return None
    amount, dim, raw = q
    tol = cfg.number_rel_tol
    counting = bool(relation and _COUNT_RELATION.search(relation))
    for s, e, t_amount, t_dim, t_raw in find_quantities(text):
        # One Chinese numeral character (一, 两, 十) is part of countless words
        # (一部, 两次, 十分): it supports a value only with the value's own unit
        # or, for a counting relation (曲目数量, 员工数), with a counting unit.
        single_cn = not text[s].isdigit() and (e - s) <= 2
        if dim == t_dim:
            ok = _close(amount, t_amount, tol) and (not single_cn or dim is not None)
        elif dim is None:
            # A bare value number ("12") stated with a unit in the text ("12首"),
            # but never a day, month or year of a date.
            ok = (t_dim != "time" and _close(raw, t_raw, tol)
                  and (not single_cn or (counting and t_dim.startswith("count:"))))
        elif t_dim is None:
            ok = cfg.number_allow_unitless_text and not single_cn and _close(raw, t_raw, tol)
        else:
            ok = False  # another dimension: 5月 is not 5首
        if ok:
            return Alignment(s, e, "number")
    return None


def _alias(aliases: Sequence[str], text: str) -> Alignment | None:
    for a in aliases:
        if not a or len(normalise(a)) < 2:
            continue
        hit = _exact(a, text)
        if hit is not None:
            return Alignment(hit.start, hit.end, "alias")
    return None


def fuzzy_score(value: str, text: str) -> tuple[float, int, int] | None:
    """Best partial_ratio of the normalised value in the normalised text, with
    its original span."""
    from rapidfuzz import fuzz

    nv = normalise(value)
    nt = normalise_with_map(text)
    if not nv or not nt.text:
        return None
    res = fuzz.partial_ratio_alignment(nv, nt.text)
    if res is None or res.dest_end <= res.dest_start:
        return None
    s, e = nt.span(res.dest_start, res.dest_end)
    return res.score, s, e


def _gapped_span(nv: str, window: str, cfg: AlignConfig) -> tuple[int, int] | None:
    """Verify a fuzzy candidate window and return the matched [start, end)
    inside it, or None.

    The value may differ from the text by inserted or omitted characters
    (`美国纽约曼哈顿` / `美国纽约市曼哈顿`, `奥斯卡奖最佳男配角` / `奥斯卡最佳男配角`),
    at most (100 - threshold)% of its length. Replaced characters are not
    tolerated in values shorter than `fuzzy_substitution_min_length`: in a
    Chinese name one replaced character names another thing (山东/山西
    电影制片厂).
    """
    from rapidfuzz.distance import Levenshtein

    ops = [o for o in Levenshtein.opcodes(nv, window)]
    while ops and ops[0].tag == "insert":  # text before the match
        ops.pop(0)
    while ops and ops[-1].tag == "insert":  # text after the match
        ops.pop()
    if not ops:
        return None
    replaced = sum(o.src_end - o.src_start for o in ops if o.tag == "replace")
    edits = sum(max(o.src_end - o.src_start, o.dest_end - o.dest_start) for o in ops if o.tag != "equal")
    if replaced and len(nv) < cfg.fuzzy_substitution_min_length:
        return None
    if edits == 0 or edits * 100 > (100 - cfg.fuzzy_threshold) * len(nv):
        return None
    return ops[0].dest_start, ops[-1].dest_end


def _fuzzy(value: str, text: str, cfg: AlignConfig) -> Alignment | None:
    nv = normalise(value)
    n = len(nv)
    if n < cfg.fuzzy_min_length:
        return None
    k = int((100 - cfg.fuzzy_threshold) * n // 100)
    if k == 0:
        return None  # no edit allowed: the exact level already decided
    from rapidfuzz import fuzz

    nt = normalise_with_map(text)
    if len(nt.text) < n - k:
        return None
    # partial_ratio compares the value with text windows of its own length,
    # scoring 100 * LCS / len(value); the LCS cannot exceed the number of the
    # value's characters that occur in the text at all. Most misses stop here.
    chars = nt.chars
    if sum(c in chars for c in nv) * 100 < cfg.fuzzy_threshold * len(nv):
        return None
    # At most k edits are allowed; they cut the value into at most k + 1 runs
    # that appear contiguously in the text, so some run of length
    # ceil((n - k) / (k + 1)) must occur verbatim. One str.find per n-gram
    # rules out most remaining candidates before any edit distance is run.
    run = -(-(n - k) // (k + 1))
    if run >= 2 and not any(nv[i:i + run] in nt.text for i in range(n - run + 1)):
        return None
    # partial_ratio (C++) locates the best candidate window; a slightly lower
    # cutoff lets a window shifted by an insertion through to verification.
    res = fuzz.partial_ratio_alignment(nv, nt.text, score_cutoff=max(0.0, cfg.fuzzy_threshold - 10))
    if res is None or res.dest_end <= res.dest_start:
        return None
    pad = max(2, len(nv) // 5)
    w0 = max(0, res.dest_start - pad)
    window = nt.text[w0:res.dest_end + pad]
    sub = _gapped_span(nv, window, cfg)
    if sub is None:
        return None
    ns, ne = w0 + sub[0], w0 + sub[1]
    # A different number is a different fact (10.7亿 is not 10.5亿, 9220 is
    # not 9320): a fuzzy match must keep every digit run of the value.
    if _DIGITS.findall(nv) != _DIGITS.findall(nt.text[ns:ne]):
        return None
    s, e = nt.span(ns, ne)
    return Alignment(s, e, "fuzzy")


def align_value(value: str, text: str, aliases: Sequence[str] = (), cfg: AlignConfig | None = None,
                relation: str | None = None) -> Alignment | None:
    """Support of `value` in `text`, trying the levels cheapest first; None if
    no level finds it. `aliases` are other names of the value (anchor titles,
    linked page titles); variants from brackets in the value are added here.
    `relation` (optional) lets the number level accept a counting unit for a
    bare count (曲目数量 10 / 收录十首歌曲)."""
    cfg = cfg or AlignConfig()
    if not value or not text or not value.strip():
        return None
    if cfg.exact:
        hit = _exact(value, text)
        if hit:
            return hit
    if cfg.dates:
        hit = _date(value, text, cfg)
        if hit:
            return hit
    if cfg.numbers:
        hit = _number(value, text, cfg, relation)
        if hit:
            return hit
    if cfg.aliases:
        hit = _alias([*aliases, *value_variants(value)], text)
        if hit:
            return hit
    if cfg.fuzzy:
        hit = _fuzzy(value, text, cfg)
        if hit:
            return hit
    return None


__all__ = ["AlignConfig", "Alignment", "align_value", "parse_date", "find_dates", "parse_quantity",
           "find_quantities", "value_variants", "fuzzy_score", "boundary_ok"]
