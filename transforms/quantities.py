"""Dates and quantities in values and texts (the date and number levels of alignment).

`parse_date` / `parse_quantity` read a whole infobox value; `find_dates` /
`find_quantities` list every date or quantity of a text with its offsets.
Split out of transforms/align.py, which uses them to compare a value with
the text in another surface form (`1994-05-27` / `1994年5月27日`, `175cm` /
`1.75米`, `12首` / `十二首`).
"""
from __future__ import annotations

import re
from functools import lru_cache

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
# Durations in seconds, so `1小时` is not `一年`; a day of a month (`日`, `号`)
# counts as a day and a person's age as years.
_add_units("time", {"年": 31536000.0, "月": 2592000.0, "日": 86400.0, "号": 86400.0, "天": 86400.0,
                    "小时": 3600.0, "分钟": 60.0, "秒": 1.0, "周": 604800.0, "岁": 31536000.0,
                    # counted with a measure word (`2个小时`, `3个月`)
                    "个小时": 3600.0, "钟头": 3600.0, "个钟头": 3600.0, "个月": 2592000.0,
                    "星期": 604800.0, "个星期": 604800.0})
_add_units("percent", {"%": 1.0, "％": 1.0})
# Counters of people are interchangeable: 300人 / 300名 / 300位.
for _w in ("人", "名", "位", "万人"):
    _UNITS[_w] = ("count:person", 1.0)
_UNITS["万人"] = ("count:person", 1e4)
for _w in ("首", "个", "部", "集", "张", "件", "座", "家", "所", "项", "种", "次",
           "场", "本", "篇", "章", "层", "条", "只", "头", "册", "卷", "季", "期", "届", "支", "辆",
           "架", "艘", "台", "户", "栋", "间", "款", "门", "颗", "枚"):
    _UNITS.setdefault(_w, ("count:" + _w, 1.0))


def unit_dimension(unit: str) -> tuple[str, float] | None:
    """(dimension, factor to its base unit) of a unit (`小时` -> ("time", 3600.0)), or None."""
    return _UNITS.get(unit)


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
    # `1-1.6厘米`: the bound before the dash is in the unit after the other one
    # (1厘米, never 1米); a unit of time is left alone (`1990-1995年` are years).
    for i in range(len(out) - 1):
        s, e, _amount, dim, raw = out[i]
        nxt = range_partner(text, out, i)
        if dim is None and nxt is not None and nxt[3] is not None and nxt[3] != "time" and nxt[4]:
            out[i] = (s, e, raw * nxt[2] / nxt[4], nxt[3], raw)
    return tuple(out)


# What joins the two bounds of a range (`1-1.6厘米`, `两到三个小时`).
_DASH = r"(?:-|－|—|–|~|～|至|到)"
_RANGE_DASH = re.compile(rf"\s*{_DASH}\s*")


def range_partner(text: str, found, i: int):
    """The quantity after found[i] (find_quantities' tuples) when a range
    dash alone stands between them (`1-1.6厘米`, `5～10月`), else None."""
    if i + 1 < len(found) and _RANGE_DASH.fullmatch(text, found[i][1], found[i + 1][0]):
        return found[i + 1]
    return None


def _close(a: float, b: float, tol: float) -> bool:
    return abs(a - b) <= tol * max(1.0, abs(a), abs(b))


# ------------------------------------------------------------- duration ranges

# A visit's length is often a range (`建议游玩时间 2小时 - 3小时`), said in
# the text as `2-3小时`, `两到三个小时` or `一两个小时`. A range states the
# value only with both bounds; one bound alone is not the range, and a bound
# of a range (`2-3小时`) is not a duration of its own.
_DURATION_UNITS = {u: _UNITS[u][1] for u in ("小时", "钟头", "分钟", "天")}
_DUR_NUM = r"(\d+(?:\.\d+)?|[一二两三四五六七八九十半]+)"
_DUR_UNIT = r"个?(小时|钟头|分钟|天)"
_RANGE_RE = re.compile(rf"{_DUR_NUM}\s*(?:{_DUR_UNIT})?\s*{_DASH}\s*{_DUR_NUM}\s*{_DUR_UNIT}")
# `一两个小时`, `三四天`: two neighbouring numerals before the unit.
_PAIR_RE = re.compile(rf"(?<![一二两三四五六七八九十])([一二两三四五六七八])([两三四五六七八九])(?:{_DUR_UNIT})")


def _duration_number(num: str) -> float | None:
    return 0.5 if num == "半" else _to_float(num)


def _duration_range(m: re.Match, pair: bool) -> tuple[float, float] | None:
    if pair:
        lo_num, hi_num, lo_unit, hi_unit = m.group(1), m.group(2), m.group(3), m.group(3)
    else:
        lo_num, lo_unit, hi_num, hi_unit = m.group(1), m.group(2) or m.group(4), m.group(3), m.group(4)
    lo, hi = _duration_number(lo_num), _duration_number(hi_num)
    if lo is None or hi is None or not lo * _DURATION_UNITS[lo_unit] < hi * _DURATION_UNITS[hi_unit]:
        return None
    return lo * _DURATION_UNITS[lo_unit], hi * _DURATION_UNITS[hi_unit]


@lru_cache(maxsize=4096)
def parse_duration_range(value: str) -> tuple[float, float] | None:
    """(low, high) in seconds when the whole value is a duration range
    (`2小时 - 3小时`, `1-2小时`); else None."""
    v = value.strip()
    m = _RANGE_RE.fullmatch(v)
    return _duration_range(m, False) if m else None


@lru_cache(maxsize=64)
def find_duration_ranges(text: str) -> tuple[tuple[int, int, float, float], ...]:
    """Every duration range of the text as (start, end, low, high) in seconds."""
    out = []
    for rx, pair in ((_RANGE_RE, False), (_PAIR_RE, True)):
        for m in rx.finditer(text):
            r = _duration_range(m, pair)
            if r is not None:
                out.append((m.start(), m.end(), *r))
    return tuple(sorted(out))
