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
    before the value's first number) is negative, its sign part of its text;
    a dash after a number joins a range (`5-10`, `1994年-1998年`)."""
    x, start = float(m.group(0).replace(",", "")), m.start()
    if start and value[start - 1] in "-－" and not any(ch.isdigit() for ch in value[:start - 1]):
        return -x, start - 1
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
    n, top = int(float(last.group(0))), _top(value, last, 28)
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
    s = m.group(0)
    x = float(s.replace(",", ""))
    if "." not in s and x < 20:
        return _ladder(value, m, [x - d for d in _STEPS], [x + d for d in _STEPS])
    return _ladder(value, m, [x * (1 - 0.08 * d) for d in _STEPS], [x * (1 + 0.1 * d) for d in _STEPS])


# What joins a range's two numbers: a dash, a tilde, 至 or 到, after the first
# number's unit when it is written twice (`3米-5米`, `1994年-1998年`).
_RANGE_JOIN = re.compile(r"([^\d\s.,\-－—–~～〜]{0,3}?)\s*(?:[-－—–~～〜]|至|到)\s*")
_DASH_NUMBER = re.compile(r"\s*[-－—–/]\s*\d")


def range_ends(value: str) -> tuple[re.Match, re.Match] | None:
    """The two numbers of a range (`5-10米`, `2～3小时`, `3至5cm`, `-5～10℃`,
    `3米-5米`), or None: the value's first two numbers, joined by a range
    mark, the first below the second, a repeated unit the same on both, and
    no third number dashed on (`2015-07-29` is a date, not a range)."""
    ms = list(_DIGITS.finditer(value))
    if len(ms) < 2:
        return None
    a, b = ms[0], ms[1]
    join = _RANGE_JOIN.fullmatch(value, a.end(), b.start())
    if join is None or (join.group(1) and not value.startswith(join.group(1), b.end())):
        return None
    if _DASH_NUMBER.match(value, b.end()) or not _signed(value, a)[0] < _signed(value, b)[0]:
        return None
    return a, b


def _moved(value: str, ms: list[re.Match], news: list[float], lo: float | None, hi: float,
           rising: bool) -> str | None:
    """`value` with its numbers `ms` (in order) replaced by `news`, each
    written like its own (decimals, padding, a sign where it goes below 0),
    or None when one falls outside lo..hi (lo None: it may go below 0),
    turns 0 from another number, is written as before (a range sharing one
    end with the gold is told from the rest by that end), or, `rising`
    (a range), the numbers as written stop rising (`12-10米`, `2.0-2米`)."""
    out, at, shown = [], 0, []
    for m, new in zip(ms, news):
        old, start = _signed(value, m)
        if (lo is not None and new < lo) or new > hi or (new == 0 and old != 0):
            return None
        digits = _fmt_like(m.group(0), abs(new))
        size = float(digits.replace(",", ""))
        sign = (value[start] if old < 0 else "-") if new < 0 and size else ""
        if digits == m.group(0) and bool(sign) == (old < 0):
            return None
        shown.append(-size if sign else size)
        out += [value[at:start], sign + digits]
        at = m.end()
    if rising and any(x >= y for x, y in zip(shown, shown[1:])):
        return None
    return "".join(out) + value[at:]


def _shifted(value: str, ms: list[re.Match], lo: float | None = 0.0, hi: float = float("inf"),
             factors: tuple[list[float], list[float]] | None = None, rising: bool = False) -> Ladder:
    """Every number of `ms` moved by the same step, 1..LADDER either way, or
    scaled by the same factors (`factors`: below, above): a range and the
    years of a date move as a whole (`rising`: a range, _moved)."""
    xs = [_signed(value, m)[0] for m in ms]
    if factors is None:
        steps = ([[x - d for x in xs] for d in _STEPS], [[x + d for x in xs] for d in _STEPS])
    else:
        steps = ([[x * f for x in xs] for f in factors[0]], [[x * f for x in xs] for f in factors[1]])
    sides: tuple[list[str], list[str]] = ([], [])
    for side, moves in zip(sides, steps):
        for news in moves:
            text = _moved(value, ms, news, lo, hi, rising)
            if text is not None and text not in side:
                side.append(text)
    return sides


def range_ladder(value: str, ends: tuple[re.Match, re.Match]) -> Ladder:
    """Both ends of a range moved alike: stepped by 1..LADDER when both are
    whole numbers under 20 (`2-3小时` -> `1-2小时`, `3-4小时`), else scaled by
    the single numbers' factors (`20-30天` -> `18-28天`, `22-33天`); a month
    stays within 1..12, a positive lower end above 0."""
    a, b = ends
    lower = _signed(value, a)[0]
    lo = None if lower < 0 else 0.0
    hi = _top(value, b, float("inf"))
    if "." not in a.group(0) + b.group(0) and float(b.group(0).replace(",", "")) < 20:
        return _shifted(value, [a, b], lo, hi, rising=True)
    factors = ([1 - 0.08 * d for d in _STEPS], [1 + 0.1 * d for d in _STEPS])  # number_ladder's
    return _shifted(value, [a, b], lo, hi, factors, rising=True)


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


def ladder(value: str, value_type: str | None, relation: str = "") -> Ladder:
    """Perturbations of a date, number, quantity, formula or dynasty, on both sides of it; ([], []) otherwise.

    Two sides, so an item can put the gold at a seeded rank among its numeric
    options (distractors.py): a gold always in the middle of its neighbours
    would be found without reading the question."""
    v = (value or "").strip()
    if not v:
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
