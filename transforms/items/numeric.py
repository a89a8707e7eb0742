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


def date_ladder(value: str) -> Ladder:
    """Years moved by 1..LADDER (the format kept); a date without a year moves its day."""
    matches = list(_DIGITS.finditer(value))
    if not matches:
        return [], []
    year = next((m for m in matches if _is_year(value, m)), None)
    if year is not None:
        y = int(year.group(0))
        return _ladder(value, year, [y - d for d in _STEPS], [y + d for d in _STEPS], lo=1)
    last = matches[-1]  # 5月27日: the day, within 1..28
    n = int(float(last.group(0)))
    below = [n - d for d in _STEPS if n - d >= 1]
    above = [n + d for d in _STEPS if n + d <= 28]
    return _ladder(value, last, below, above, lo=1)


def number_ladder(value: str) -> Ladder:
    """The first number stepped (small counts) or scaled, units/decimals/padding kept."""
    m = _DIGITS.search(value)
    if not m:
        return [], []
    s = m.group(0)
    x = float(s.replace(",", ""))
    if "." not in s and x < 20:
        return _ladder(value, m, [x - d for d in _STEPS], [x + d for d in _STEPS])
    return _ladder(value, m, [x * (1 - 0.08 * d) for d in _STEPS], [x * (1 + 0.1 * d) for d in _STEPS])


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
