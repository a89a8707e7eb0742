"""Type-consistent perturbations of numbers, dates and chemical formulas.

A distractor for `1680年` must look like an answer to the same question:
another year, written the same way. So a perturbation changes digits and
nothing else: the units (`6397公里` -> `6524公里`), the date format
(`1994年5月27日` -> `1996年5月27日`, `1994-05-27` -> `1994-05-25`), zero
padding and the number of decimals (`1.75米` -> `1.82米`) all stay. A formula
changes one element count by one (`C10H16O2` -> `C9H16O2`, `C10H17O2`). A
dynasty is a coarse date: it moves to the dynasties before and after it, in
its own form (`唐朝` -> `隋朝`, `宋朝`; `北宋` -> `五代十国`, `南宋`), so an era
question is not answered by the one era among districts.

A range moves as a whole (`5-10米` -> `4-9米`, `6-11米`; `20-30天` -> `22-33天`;
`1994年-1998年` -> `1995年-1999年`): stepping its first number alone gave
`4-10米`, `6-10米`, `12-10米`, nine options sharing an upper end the gold
shares too, and the one that was a sound range beside the others was the
answer. A month stays within 1..12 (`3-5月` -> `4-6月`, never `12-14月`).

The variants are a pure function of the value (no seed), so the embedding
step can embed them once, before any item is built.
"""
from __future__ import annotations

import re

from transforms.eras import dynasty_names
from transforms.quantities import unit_dimension

FORMULA_RE = re.compile(r"^(?:[A-Z][a-z]?\d*){2,}$")
_ELEMENT = re.compile(r"([A-Z][a-z]?)(\d*)")
# 2,240 is one number (thousands separators), 1.75 another; 2,240 keeps its commas.
_DIGITS = re.compile(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?")
MAX_VARIANTS = 12
LADDER = 9  # steps on each side of the gold


def is_formula(value: str) -> bool:
    v = (value or "").strip()
    return bool(FORMULA_RE.match(v)) and any(ch.isdigit() for ch in v)


def formula_variants(value: str) -> list[str]:
    """One element count moved by one, element by element: C10H16O2 -> C9H16O2, C11H16O2, C10H15O2 ..."""
    parts = _ELEMENT.findall(value.strip())
    out: list[str] = []
    for delta in (-1, 1, -2, 2):
        for i, (el, n) in enumerate(parts):
            count = int(n) if n else 1
            new = count + delta
            if new < 1:
                continue
            rebuilt = "".join(e + ((str(new) if new > 1 else "") if j == i else c)
                              for j, (e, c) in enumerate(parts))
            if rebuilt != value and rebuilt not in out:
                out.append(rebuilt)
    return out[:MAX_VARIANTS]


def _fmt_like(original: str, number: float) -> str:
    """`number` written like `original`: same decimals, same zero padding."""
    if "," in original:
        decimals = len(original.split(".", 1)[1]) if "." in original else 0
        return f"{number:,.{decimals}f}"
    if "." in original:
        decimals = len(original.split(".", 1)[1])
        return f"{number:.{decimals}f}"
    text = str(int(round(number)))
    if original.startswith("0") and len(original) > 1:
        text = text.zfill(len(original))
    return text


def _replace_span(value: str, span: tuple[int, int], new: str) -> str:
    return value[: span[0]] + new + value[span[1]:]


def _signed(value: str, m: re.Match) -> tuple[float, int]:
    """A number's value and where its text starts: `-5` of `-5～10℃` (a dash
    before the value's first number) is negative, its sign part of its text,
    as is `-5` of `-10～-5℃` (a dash after a range mark); a dash after a
    number joins a range (`5-10`, `1994年-1998年`)."""
    x, start = float(m.group(0).replace(",", "")), m.start()
    if start and value[start - 1] in "-－":
        before = value[:start - 1].rstrip()
        if not any(ch.isdigit() for ch in before) or before.endswith(_RANGE_MARKS):
            return -x, start - 1  # `-10～-5℃`: a minus after a range mark is the second end's
    return x, start


def _is_year(value: str, m: re.Match) -> bool:
    s = m.group(0)
    after = value[m.end(): m.end() + 1]
    return ("." not in s) and ("," not in s) and (after == "年" or (len(s) == 4 and 1000 <= int(s) <= 2100))


Ladder = tuple[list[str], list[str]]  # (below the gold, nearest first; above, nearest first)

_STEPS = tuple(range(1, LADDER + 1))


def _ladder(value: str, m: re.Match, below: list[float], above: list[float], lo: float = 0.0) -> Ladder:
    s = m.group(0)
    x = float(s.replace(",", ""))

    def render(cands: list[float]) -> list[str]:
        out = []
        for c in cands:
            if c < lo or (c == 0 and x != 0):
                continue
            new = _fmt_like(s, c)
            text = _replace_span(value, m.span(), new)
            if new != s and text not in out:
                out.append(text)
        return out

    return render(below), render(above)


def _top(value: str, m: re.Match, other: float) -> float:
    """The largest value a number may take: 12 for a month (`5月`; `5个月`
    is a length), `other` for any other (a date's day: 28)."""
    return 12 if value.startswith("月", m.end()) else other


def date_ladder(value: str) -> Ladder:
    """Years moved by 1..LADDER (the format kept), every year of the value by
    the same step (`1994年-1998年` -> `1995年-1999年`); a date without a year
    moves its day, or its month (within 1..12), a range of them both ends."""
    matches = list(_DIGITS.finditer(value))
    if not matches:
        return [], []
    years = [m for m in matches if _is_year(value, m)]
    if len(years) > 1:
        return _shifted(value, years, lo=1)
    if years:
        y = int(years[0].group(0))
        return _ladder(value, years[0], [y - d for d in _STEPS], [y + d for d in _STEPS], lo=1)
    ends = range_ends(value)
    if ends is not None:  # 3-5月: both months, within 1..12
        return _shifted(value, list(ends), lo=1, hi=_top(value, ends[1], 28), rising=True)
    last = matches[-1]  # 5月27日: the day, within 1..28
    n, top = int(float(last.group(0).replace(",", ""))), _top(value, last, 28)
    below = [n - d for d in _STEPS if n - d >= 1]
    above = [n + d for d in _STEPS if n + d <= top]
    return _ladder(value, last, below, above, lo=1)


def number_ladder(value: str) -> Ladder:
    """The first number stepped (small counts) or scaled, units/decimals/padding
    kept; a range (range_ends) both its ends, by range_ladder."""
    m = _DIGITS.search(value)
    if not m:
        return [], []
    ends = range_ends(value)
    if ends is not None:
        return range_ladder(value, ends)
    if _unordered_units(value):
        return [], []
    s = m.group(0)
    x = float(s.replace(",", ""))
    if "." not in s and x < 20:
        return _ladder(value, m, [x - d for d in _STEPS], [x + d for d in _STEPS])
    return _ladder(value, m, [x * (1 - 0.08 * d) for d in _STEPS], [x * (1 + 0.1 * d) for d in _STEPS])


# What joins a range's two numbers: a dash, a tilde, 至 or 到, after the first
# number's unit when it is written twice (`3米-5米`, `1994年-1998年`), before
# the second number's minus (`-10～-5℃`).
_RANGE_MARKS = ("-", "－", "—", "–", "~", "～", "〜", "至", "到")
_RANGE_JOIN = re.compile(r"([^\d\s.,\-－—–~～〜]{0,3}?)\s*(?:[-－—–~～〜]|至|到)\s*[-－]?")
_DASH_NUMBER = re.compile(r"\s*[-－—–/]\s*\d")
# Units a range may change between its ends (`12小时 - 3天`): (dimension, size) from
# the aligner's table of units (transforms/quantities.py); 秒钟 is its 秒.
_UNIT_SIZES = {u: unit_dimension(u) for u in ("秒", "分钟", "小时", "个小时", "天", "日", "周", "星期", "个星期",
                                              "个月", "年", "毫米", "厘米", "米", "公里", "千米", "克", "千克",
                                              "公斤", "吨")}
_UNIT_SIZES["秒钟"] = _UNIT_SIZES["秒"]


def _unit_after(value: str, end: int) -> str:
    """The longest unit of _UNIT_SIZES written at `end`, or ''."""
    return max((u for u in _UNIT_SIZES if value.startswith(u, end)), key=len, default="")


def _sizes(value: str, a: re.Match, b: re.Match) -> tuple[float, float] | None:
    """What one of each end's number is worth in the other's measure: (1, 1)
    for a range of one unit (`5-10米`, `3米-5米`); for two units of one measure
    (`12小时 - 3天`, `30分钟-2小时`), their sizes; None for two other units."""
    join = _RANGE_JOIN.fullmatch(value, a.end(), b.start())
    if join is None:
        return None
    first = join.group(1).strip()
    if not first or value.startswith(first, b.end()):
        return 1.0, 1.0
    second = _unit_after(value, b.end())
    if first in _UNIT_SIZES and second:
        (dim_a, size_a), (dim_b, size_b) = _UNIT_SIZES[first], _UNIT_SIZES[second]
        if dim_a == dim_b and size_a != size_b:
            return size_a, size_b
    return None


def range_ends(value: str) -> tuple[re.Match, re.Match] | None:
    """The two numbers of a range (`5-10米`, `2～3小时`, `3至5cm`, `-5～10℃`,
    `-10～-5℃`, `3米-5米`, `12小时 - 3天`), or None: the value's first two
    numbers, joined by a range mark, the first below the second, a repeated
    unit the same on both or of one measure (_sizes), and no third number
    dashed on (`2015-07-29` is a date, not a range)."""
    ms = list(_DIGITS.finditer(value))
    if len(ms) < 2:
        return None
    a, b = ms[0], ms[1]
    sizes = _sizes(value, a, b)
    if sizes is None or _DASH_NUMBER.match(value, b.end()):
        return None
    if not _signed(value, a)[0] * sizes[0] < _signed(value, b)[0] * sizes[1]:
        return None
    return a, b


def _unordered_units(value: str) -> bool:
    """A range of two units range_ends cannot order (`3米-5天`, `2小时-30分钟`):
    moving its first number alone gave options that all share its second end,
    so it gets no numeric variants."""
    ms = list(_DIGITS.finditer(value))
    if len(ms) < 2 or _DASH_NUMBER.match(value, ms[1].end()):
        return False
    join = _RANGE_JOIN.fullmatch(value, ms[0].end(), ms[1].start())
    return bool(join and join.group(1).strip() and not value.startswith(join.group(1).strip(), ms[1].end()))


def _decimals(digits: str) -> int:
    return len(digits.split(".", 1)[1]) if "." in digits else 0


def _moved(value: str, ms: list[re.Match], news: list[float], lo: float | None, hi: float,
           rising: bool, forms: list[str] | None = None, sizes: tuple[float, ...] | None = None) -> str | None:
    """`value` with its numbers `ms` (in order) replaced by `news`, each
    written like its own (decimals, padding, a sign where it goes below 0) or
    like its `forms` (a range's ends at its finer precision, range_ladder),
    or None when one falls outside lo..hi (lo None: it may go below 0), is
    written 0 from another number, is written as before (a range sharing one
    end with the gold is told from the rest by that end), or, `rising`
    (a range), the numbers as written stop rising (`12-10米`, `2.0-2米`;
    in one measure when the ends have two units, `sizes`)."""
    out, at, shown = [], 0, []
    for i, (m, new) in enumerate(zip(ms, news)):
        old, start = _signed(value, m)
        if (lo is not None and new < lo) or new > hi:
            return None
        digits = _fmt_like(forms[i] if forms else m.group(0), abs(new))
        if forms and "." in digits:  # back to the end's own decimals where the value allows:
            own = _decimals(m.group(0))  # `1.2-1.25米` -> `1.1-1.15米`, `0.7-1米`, not `1.10`, `1.0`
            while _decimals(digits) > own and digits.endswith("0"):
                digits = digits[:-1]
            digits = digits.rstrip(".")
        size = float(digits.replace(",", ""))
        if size == 0 and old != 0:
            return None  # `0-0.7米` for `1-1.5米`: 0 as written, whatever the number was
        sign = (value[start] if old < 0 else "-") if new < 0 and size else ""
        if size == abs(old) and bool(sign) == (old < 0):
            return None
        shown.append((-size if sign else size) * (sizes[i] if sizes else 1))
        out += [value[at:start], sign + digits]
        at = m.end()
    if rising and any(x >= y for x, y in zip(shown, shown[1:])):
        return None
    return "".join(out) + value[at:]


def _shifted(value: str, ms: list[re.Match], lo: float | None = 0.0, hi: float = float("inf"),
             factors: tuple[list[float], list[float]] | None = None, rising: bool = False,
             steps: tuple[list[list[float]], list[list[float]]] | None = None,
             forms: list[str] | None = None, sizes: tuple[float, ...] | None = None) -> Ladder:
    """Every number of `ms` moved by the same step, 1..LADDER either way, or
    scaled by the same factors (`factors`: below, above), or as `steps` gives
    (below, above: the new numbers of each option): a range and the years of a
    date move as a whole (`rising`: a range, _moved). A range's option whose
    end, as written, another option or the gold already has is not offered:
    `1-1.5米` scaled gave lower ends 0, 0, 0, 2, 2, 2…, the gold's 1 the one
    end no option repeated."""
    xs = [_signed(value, m)[0] for m in ms]
    if steps is None and factors is None:
        steps = ([[x - d for x in xs] for d in _STEPS], [[x + d for x in xs] for d in _STEPS])
    elif steps is None:
        steps = ([[x * f for x in xs] for f in factors[0]], [[x * f for x in xs] for f in factors[1]])
    sides: tuple[list[str], list[str]] = ([], [])
    seen = [{_end_text(value, m)} for m in ms]
    for side, moves in zip(sides, steps):
        for news in moves:
            text = _moved(value, ms, news, lo, hi, rising, forms, sizes)
            if text is None or text in side:
                continue
            if rising:
                ends = range_ends(text)
                if ends is None:
                    continue
                written = [_end_text(text, m) for m in ends]
                if any(w in s for w, s in zip(written, seen)):
                    continue
                for w, s in zip(written, seen):
                    s.add(w)
            side.append(text)
    return sides


def _end_text(value: str, m: re.Match) -> str:
    """A range end as written, with its sign."""
    return value[_signed(value, m)[1]:m.end()]


def _end_moves(x: float, digits: str) -> tuple[list[float], list[float]]:
    """One number's ladder (number_ladder): stepped by 1..LADDER when whole
    and under 20, else scaled."""
    if "." not in digits and abs(x) < 20:
        return [x - d for d in _STEPS], [x + d for d in _STEPS]
    return [x * (1 - 0.08 * d) for d in _STEPS], [x * (1 + 0.1 * d) for d in _STEPS]


def range_ladder(value: str, ends: tuple[re.Match, re.Match]) -> Ladder:
    """Both ends of a range moved alike: stepped by one unit of the ends'
    finer precision, 1..LADDER times, when the upper end counts under 20 such
    units (`2-3小时` -> `1-2小时`, `3-4小时`; `1-1.5米` -> `0.9-1.4米`,
    `1.1-1.6米`), else scaled by the single numbers' factors (`20-30天` ->
    `18-28天`, `22-33天`; `1.5-2米` -> `1.4-1.8米`). When one end has more
    decimals than the other, both are written with them, the end the gold
    writes whole without them when the value is whole (`1.5-2米` ->
    `1.4-1.8米`, `0.8-1米`): rounded to its own precision, an end of
    `1-1.5米` collapsed onto 0 and 2, and the gold's 1 was the one end no
    option repeated. A month stays within 1..12, a positive lower end above 0
    (as written). Two units of one measure (`12小时 - 3天`) move each end by
    its own ladder (number_ladder: stepped or scaled), unit kept, the range
    rising in that measure (`11小时-2天`, `13小时-4天`)."""
    a, b = ends
    lower = _signed(value, a)[0]
    lo = None if lower < 0 else 0.0
    hi = _top(value, b, float("inf"))
    sizes = _sizes(value, a, b)
    if sizes is not None and sizes != (1.0, 1.0):
        xa, xb = lower, _signed(value, b)[0]
        (da, ua), (db, ub) = _end_moves(xa, a.group(0)), _end_moves(xb, b.group(0))
        steps = ([list(p) for p in zip(da, db)], [list(p) for p in zip(ua, ub)])
        return _shifted(value, [a, b], lo, hi, rising=True, steps=steps, sizes=sizes)
    places = max(_decimals(a.group(0)), _decimals(b.group(0)))
    forms = [_finer(m.group(0), places) for m in ends]
    unit = 10.0 ** -places
    if abs(_signed(value, b)[0]) / unit < 20:
        xs = [_signed(value, m)[0] for m in ends]
        steps = ([[x - d * unit for x in xs] for d in _STEPS], [[x + d * unit for x in xs] for d in _STEPS])
        return _shifted(value, [a, b], lo, hi, rising=True, steps=steps, forms=forms)
    factors = ([1 - 0.08 * d for d in _STEPS], [1 + 0.1 * d for d in _STEPS])  # number_ladder's
    return _shifted(value, [a, b], lo, hi, factors, rising=True, forms=forms)


def _finer(digits: str, places: int) -> str:
    """A range end's digits as a form with `places` decimals (`1` -> `1.0`)."""
    if _decimals(digits) >= places:
        return digits
    return digits.split(".", 1)[0] + "." + "0" * places


def dynasty_ladder(value: str, relation: str = "") -> Ladder:
    """The dynasties before the value (nearest first) and after it, written
    the same way (transforms/eras.py); ([], []) when the value is no dynasty."""
    names = dynasty_names(value, relation)
    if names is None:
        return [], []
    i = names.index(value.strip())
    return names[:i][::-1], names[i + 1:]


def formula_ladder(value: str) -> Ladder:
    """Formulas have no order: every variant counts as 'above'."""
    return [], formula_variants(value)


_LONG_NUMBER = re.compile(r"\d[\d,.]{15}")
# Full-width digits (`５-１０米`, `３．５亿`) are moved as ASCII ones and written
# back full-width: options in ASCII beside a full-width gold gave it away.
_TO_ASCII = str.maketrans("０１２３４５６７８９．", "0123456789.")
_DIGITS_BACK = str.maketrans("0123456789", "０１２３４５６７８９")


def ladder(value: str, value_type: str | None, relation: str = "") -> Ladder:
    """Perturbations of a date, number, quantity, formula or dynasty, on both sides of it; ([], []) otherwise.

    Two sides, so an item can put the gold at a seeded rank among its numeric
    options (distractors.py): a gold always in the middle of its neighbours
    would be found without reading the question."""
    v = (value or "").strip()
    ascii_v = v.translate(_TO_ASCII)
    if ascii_v != v:
        back = {**_DIGITS_BACK, **({ord("."): "．"} if "．" in v else {})}
        return tuple([o.translate(back) for o in side] for side in ladder(ascii_v, value_type, relation))
    if not v or _LONG_NUMBER.search(v):  # no value has 16 digits; a float would overflow or lose them
        return [], []
    if is_formula(v):
        return formula_ladder(v)
    era = dynasty_ladder(v, relation)
    if era != ([], []):
        return era
    if value_type == "date":
        return date_ladder(v)
    if value_type in ("number", "quantity"):
        return number_ladder(v)
    return [], []


def variants(value: str, value_type: str | None, relation: str = "") -> list[str]:
    """Every perturbation `ladder` may offer (what the embedding step embeds)."""
    below, above = ladder(value, value_type, relation)
    return below + above
