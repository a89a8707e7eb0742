"""The plain alignment levels: exact, date, number and alias (see
transforms/align.py for the order they run in and the checks every
candidate span then passes).

- exact: `str.find` on the raw strings, then on normalised forms (width,
  case, spaces, punctuation; transforms/text.py). Latin/digit edges must
  fall on a word boundary so `6亿` is not found inside `7.61亿`; a duration
  that is only a bound of a range (`1.5-2小时`) is none of its own.
- date: the value parses as a date and the text holds a compatible date in
  any surface form (a text less precise than the value only with
  `date_allow_partial`).
- number: the value parses as a number with an optional multiplier and
  unit, and the text holds the same quantity in another form; units of
  another dimension never match.
- alias: another name of the value (anchor titles, the linked page's title,
  the parts inside and outside the value's brackets), found as exact.

`cfg` is the entry's AlignConfig (transforms/align.py), read for its
tolerances only. Every function returns candidate [start, end) spans in the
original text.
"""
from __future__ import annotations

import re
from typing import Sequence

from transforms.quantities import (
    _close, dates_compatible, find_dates, find_duration_ranges, find_quantities, parse_date,
    parse_duration_range, parse_quantity, range_partner,
)
from transforms.text import any_absent_ideograph, find_bounded, norm_char, normalise, normalise_with_map


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


def exact_spans(value: str, text: str) -> list[tuple[int, int]]:
    """Every occurrence of the value: raw first, then normalised (offsets in
    the original text), each with Latin/digit word boundaries."""
    out = []
    i = find_bounded(text, value)
    while i != -1:
        out.append((i, i + len(value)))
        i = find_bounded(text, value, i + 1)
    if out:
        return out
    nv = normalise(value)
    if not nv or any_absent_ideograph(nv, text):
        return out
    nt = normalise_with_map(text)
    j = nt.text.find(nv)
    while j != -1:
        s, e = nt.span(j, j + len(nv))
        # Judge word boundaries on the ORIGINAL neighbours: normalisation drops
        # the bracket or space that separated `ATL（Amperex`.
        if _original_boundary_ok(text, s, e, nv):
            out.append((s, e))
        j = nt.text.find(nv, j + 1)
    return out


def not_range_bounds(value: str, text: str, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """A duration the text gives only as a bound of a range (`1.5-2小时`) is
    no duration of its own, even word for word."""
    if not spans:
        return spans
    q = parse_quantity(value)
    if q is None or q[1] != "time":
        return spans
    ranges = find_duration_ranges(text)
    return [(s, e) for s, e in spans if not any(lo <= s < hi for lo, hi, _, _ in ranges)]


def date_spans(value: str, text: str, cfg) -> list[tuple[int, int]]:
    vd = parse_date(value)
    if vd is None:
        return []
    found = find_dates(text)
    # A text date at least as precise as the value; a partial one (year
    # only) only when nothing better is there and the config allows it.
    out = [(s, e) for s, e, td in found if dates_compatible(vd, td, False)]
    if not out and cfg.date_allow_partial:
        out = [(s, e) for s, e, td in found if dates_compatible(vd, td, True)]
    return out


_COUNT_RELATION = re.compile(r"数|量|次|届|个")


def _bound_of_range(text: str, found, i: int) -> bool:
    """`花期5～10月`: a bare number before a range dash is the first bound of a
    range in the other bound's unit (5月), never a bare number a valued
    quantity (`高度 5米`) could be said by. find_quantities gives lengths
    and weights such a bound their unit already; months and years it leaves
    bare, as `1990-1995年` are dates."""
    nxt = range_partner(text, found, i)
    return nxt is not None and nxt[3] is not None


_UNIT_NEEDED = re.compile(r"time|percent|cny|usd|hkd|eur|jpy")


def number_spans(value: str, text: str, cfg, relation: str | None = None) -> list[tuple[int, int]]:
    q = parse_quantity(value)
    if q is None:
        # a duration range (`2小时 - 3小时`) is stated by a range with both bounds
        span = parse_duration_range(value)
        if span is None:
            return []
        tol = cfg.number_rel_tol
        return [(s, e) for s, e, lo, hi in find_duration_ranges(text)
                if _close(span[0], lo, tol) and _close(span[1], hi, tol)]
    amount, dim, raw = q
    tol = cfg.number_rel_tol
    counting = bool(relation and _COUNT_RELATION.search(relation))
    out = []
    found = find_quantities(text)
    for i, (s, e, t_amount, t_dim, t_raw) in enumerate(found):
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
            # A price, a duration or a share is said with its unit: `园内有20多处景观`
            # does not state `门票 20元`.
            ok = (cfg.number_allow_unitless_text and not single_cn and not _UNIT_NEEDED.match(dim)
                  and _close(raw, t_raw, tol) and not _bound_of_range(text, found, i))
        else:
            ok = False  # another dimension: 5月 is not 5首
        if ok:
            out.append((s, e))
    return not_range_bounds(value, text, out)  # `2-3小时` states no 3小时


def alias_spans(aliases: Sequence[str], text: str) -> list[tuple[int, int]]:
    out = []
    for a in aliases:
        if not a or len(normalise(a)) < 2:
            continue
        out.extend(h for h in exact_spans(a, text) if h not in out)
    return out


def text_date_spans(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(sorted({(s, e) for s, e, _ in find_dates(text)}))


def text_quantity_spans(text: str) -> tuple[tuple[int, int], ...]:
    return tuple(sorted({(s, e) for s, e, _a, dim, _r in find_quantities(text) if dim != "time"}))
