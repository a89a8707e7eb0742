"""A range value moves as a whole among its numeric options (transforms/items/numeric.py).

Stepping only a range's first number gave `4-10米`, `6-10米`, `12-10米` for the
gold `5-10米`: nine options sharing the gold's upper end, some of them no
range at all, so the gold was found without reading the question. These
tests assert the reason: every option of a range item is a sound range in the
gold's own form, and none is told from the gold by one end only.
"""
from __future__ import annotations

import re
from collections import Counter

from transforms.items.distractors import Draft, choose
from transforms.items.numeric import _end_text, ladder, range_ends, variants

# Values written for these tests: heights, durations, spans of years, months.
RANGES = [
    ("5-10米", "quantity"), ("2～3小时", "quantity"), ("3至5cm", "quantity"), ("20-30天", "quantity"),
    ("1.5-2米", "quantity"), ("10~15天", "quantity"), ("0.6-1.5米", "quantity"), ("30-80厘米", "quantity"),
    ("3米-5米", "quantity"), ("1,200-2,500米", "quantity"), ("3-5月", "quantity"), ("-5～10℃", "quantity"),
    ("2-3小时，若水温较低则更长", "quantity"),
]
_RANGE = re.compile(r"^(-?)([\d,]+(?:\.\d+)?)(\D{0,3}?)\s*([-－—–~～〜]|至|到)\s*([\d,]+(?:\.\d+)?)(.*)$", re.S)


def _parts(text: str) -> tuple[float, str, str, str, float, str, str, str]:
    """lower, its digits, the unit after it, the join, upper, its digits, the rest, the sign."""
    m = _RANGE.match(text)
    assert m, text
    sign, lo, unit, join, hi, rest = m.groups()
    return (float(lo.replace(",", "")) * (-1 if sign else 1), lo, unit, join, float(hi.replace(",", "")), hi,
            rest, sign)


def _decimals(digits: str) -> int:
    return len(digits.split(".")[1]) if "." in digits else 0


def test_every_option_of_a_range_is_a_rising_range_in_the_golds_form():
    for value, typed in RANGES:
        below, above = ladder(value, typed)
        assert len(below) + len(above) >= 9, (value, below, above)
        g_lo, g_lo_d, g_unit, g_join, g_hi, g_hi_d, g_rest, _ = _parts(value)
        for v in below + above:
            lo, lo_d, unit, join, hi, hi_d, rest, _ = _parts(v)
            assert lo < hi, (value, v)  # never `12-10米`
            assert (unit, join, rest) == (g_unit, g_join, g_rest), (value, v)  # separator, units, text after
            # each end at the ends' finer precision; whole, as the gold writes it, only where the gold's is
            places = max(_decimals(g_lo_d), _decimals(g_hi_d))
            for d, g_d in ((lo_d, g_lo_d), (hi_d, g_hi_d)):
                assert _decimals(d) == places or (_decimals(d) == 0 and _decimals(g_d) == 0), (value, v)
            # both ends move: no option shares one end with the gold and differs by the other
            assert lo_d != g_lo_d and hi_d != g_hi_d, (value, v)
            if "月" in g_rest[:1]:
                assert 1 <= lo and hi <= 12, (value, v)  # a month stays a month
        # the two sides are below and above the gold, so the seeded rank holds
        assert all(_parts(v)[0] < g_lo for v in below) and all(_parts(v)[0] > g_lo for v in above), value


def test_a_small_range_steps_as_a_whole_and_a_larger_one_scales():
    below, above = ladder("5-10米", "quantity")
    assert below[:2] == ["4-9米", "3-8米"] and above[:2] == ["6-11米", "7-12米"]
    below, above = ladder("20-30天", "quantity")
    assert below[0] == "18-28天" and above[0] == "22-33天"
    # months: 3-5月 moves within the year, never to 12-14月
    assert ladder("3-5月", "quantity") == (["2-4月", "1-3月"],
                                           ["4-6月", "5-7月", "6-8月", "7-9月", "8-10月", "9-11月", "10-12月"])
    assert ladder("3-5月", "date") == ladder("3-5月", "quantity")
    # a negative lower end keeps its sign and the range still rises
    assert ladder("-5～10℃", "quantity")[0][0] == "-6～9℃"


def test_a_date_range_moves_both_years_by_one_step():
    for value in ("1994年-1998年", "1994-1998", "1994年5月-1998年6月", "公元前221年-公元前206年"):
        below, above = ladder(value, "date")
        assert len(below) == len(above) == 9, value
        years = [int(y) for y in re.findall(r"\d{3,4}", value)]
        for v in below + above:
            moved = [int(y) for y in re.findall(r"\d{3,4}", v)]
            steps = {m - y for m, y in zip(moved, years)}
            assert len(steps) == 1 and 0 not in steps, (value, v)  # the same step for both years
            assert re.sub(r"\d{3,4}", "Y", v) == re.sub(r"\d{3,4}", "Y", value), (value, v)
    assert ladder("1994年-1998年", "date")[1][0] == "1995年-1999年"


def test_what_is_no_range_moves_as_before():
    # a dashed date, a span written backwards, a single number: the first number (or the year) moves alone
    assert range_ends("2015-07-29") is None and range_ends("10-8米") is None and range_ends("1.75米") is None
    assert ladder("1994-05-27", "date")[1][0] == "1995-05-27"
    assert ladder("6397公里", "quantity")[1][0] == "7037公里"
    assert ladder("12首", "quantity") == ([f"{12 - d}首" for d in range(1, 10)], [f"{12 + d}首" for d in range(1, 10)])
    assert ladder("-3℃", "quantity")[0] == ["-2℃", "-1℃"]
    # a month alone stays within 1..12 (it climbed to 14月 as a day would)
    assert ladder("5月", "date")[1] == ["6月", "7月", "8月", "9月", "10月", "11月", "12月"]
    assert ladder("5月27日", "date")[1] == ["5月28日"]


def test_a_range_items_options_are_all_ranges_and_none_shares_the_golds_upper_end_alone():
    gold = "6-10米"
    below, above = ladder(gold, "quantity")
    sims = {t: 0.8 for t in variants(gold, "quantity")}
    for i in range(30):
        draft = Draft(item_id=f"height{i}", gold=gold, gold_type="quantity", relation="高度", known=frozenset({"6-10米"}),
                      aliases=frozenset(), candidates=[], below=below, above=above)
        chosen = choose(draft, sims, (0.15, 0.9), 0, 4)
        assert chosen is not None and len(chosen) == 9
        for text, origin, _ in chosen:
            lo, _, _, _, hi, hi_d, _, _ = _parts(text)
            assert origin == "numeric" and lo < hi and hi_d != "10", text


def _ends(text: str) -> tuple[str, str]:
    """A range's two ends as written, with their signs (numeric.range_ends)."""
    ends = range_ends(text)
    assert ends is not None, text
    return tuple(_end_text(text, m) for m in ends)


def test_no_end_of_the_gold_is_the_one_no_option_repeats():
    """`1-1.5米` rounded each end to its own precision: lower ends 0, 0, 0, 2,
    2, 2…, the gold's 1 the one end value written once, and even `0-0.7米`;
    `1.5-2米` gave upper ends 1×5, 3×5, 4×2; KdConv's `0.5小时 - 1小时` two
    options. Both ends now move at the finer precision, no end as written is
    offered twice, and none is written 0 when the gold's is not."""
    sample = ["1-1.5米", "1.5-2米", "0.5小时 - 1小时", "0.6-1.5米", "20-30天", "1,200-2,500米", "5-10米",
              "2.5-4米", "1-2.5kg", "10-12.5厘米", "-10～-5℃", "-5～10℃", "12小时 - 3天", "30分钟-2小时"]
    for gold in sample:
        below, above = ladder(gold, "quantity")
        options = below + above
        assert len(options) >= 9 or gold in ("12小时 - 3天", "30分钟-2小时"), (gold, options)
        for i in (0, 1):
            written = [_ends(v)[i] for v in [gold, *options]]
            counts = Counter(written)
            assert counts[written[0]] == max(counts.values()) == 1, (gold, i, counts)
            zeros = [w for w in written[1:] if float(w.replace(",", "")) == 0]
            assert not zeros or float(written[0].replace(",", "")) == 0, (gold, zeros)
    below, above = ladder("1-1.5米", "quantity")
    assert below[:2] == ["0.9-1.4米", "0.8-1.3米"] and above[0] == "1.1-1.6米"
    assert ladder("1.5-2米", "quantity")[0][:2] == ["1.4-1.8米", "1.3-1.7米"]
    assert len(variants("0.5小时 - 1小时", "quantity")) >= 9


def test_a_range_of_two_units_moves_each_end_in_its_own_unit():
    """`12小时 - 3天` failed range_ends (its units differ) and moved its first
    number alone: every option shared `3天`. Each end now moves by its own
    ladder, its unit kept, the range rising in hours."""
    for gold, hours in (("12小时 - 3天", (12, 72)), ("1小时 - 3天", (1, 72))):
        options = variants(gold, "quantity")
        assert len(options) >= 9, options
        for v in options:
            m = re.fullmatch(r"(\d+)小时 - (\d+)天", v)
            assert m, v
            h, d = int(m.group(1)), int(m.group(2))
            assert h < 24 * d and h != hours[0] and 24 * d != hours[1], (gold, v)
    assert ladder("12小时 - 3天", "quantity")[0][0] == "11小时 - 2天"
    # two units of no known measure, or falling: no numeric variant rather than one shared end
    assert ladder("2小时-30分钟", "quantity") == ([], []) and ladder("3米-5天", "quantity") == ([], [])


def test_a_negative_second_end_is_a_range_end():
    """`-10～-5℃`: no sign was allowed before the second number, so only -10
    moved: every option shared -5 and some did not rise (`-4～5℃`)."""
    assert range_ends("-10～-5℃") is not None
    below, above = ladder("-10～-5℃", "quantity")
    assert below[0] == "-11～-6℃" and above[0] == "-9～-4℃"
    for v in below + above:
        lo, hi = (float(e) for e in _ends(v))
        assert lo < hi and lo != -10 and hi != -5, v
    assert "-5～0℃" not in above  # a nonzero end is never written 0


def test_each_end_keeps_its_own_decimals_where_the_value_allows_and_no_value_overflows():
    """Review, session 39: `1.2-1.25米` wrote every option `1.10-1.15米`, the gold's
    lower end the one with one decimal; a number of 400 digits raised."""
    below, above = ladder("1.2-1.25米", "quantity")
    assert below[0] == "1.1-1.15米" and all(o.count(".") == 2 for o in below + above)
    assert ladder("1" * 400, "quantity") == ([], []) and ladder("1.1" + "1" * 400 + "-2", "quantity") == ([], [])
    assert ladder("1,000", "date")[0][0] == "999"


def test_full_width_digits_are_moved_and_written_back_full_width():
    """`５-１０米` gave `4-9米`…: the gold the one full-width option."""
    below, above = ladder("５-１０米", "quantity")
    assert below[0] == "４-９米" and not any(ch.isascii() and ch.isdigit() for o in below + above for ch in o)
    assert ladder("３．５亿", "number")[1][0] == "３．９亿"
