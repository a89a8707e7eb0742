"""Coverage of a pair's text by its triples (issue 10 §4, beyond the paper).

The paper's position index only looks at where the last supported triple
ends: `李三立` passes with 0.998 while some 400 characters of research history
between two supported triples are covered by no triple. Coverage looks at
the whole text: the share of its clauses (runs between `，；。！？` and line
breaks that hold at least one letter, digit or CJK character) that hold the
support span of at least one kept triple. It is written to the pairs table,
reported as a histogram in stats.json, and `--min-coverage` can filter on it
(off by default; the position index stays the paper's filter).
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable

# Histogram bins of stats.json: [0, 0.1), [0.1, 0.2), ..., [0.9, 1.0), and exactly 1.
COVERAGE_BINS = tuple(f"{i / 10:.1f}-{(i + 1) / 10:.1f}" for i in range(10)) + ("1.0",)


# A clause (a run of characters other than `，,。；;！!？?` and line breaks)
# that holds a word character (a letter or digit), in one match: the
# characters before its first word character, that one, then the rest.
_WORDY_CLAUSE = re.compile(r"(?:[^，,。；;！!？?\n\w]|_)*[^\W_][^，,。；;！!？?\n]*")


def clause_spans(text: str) -> list[tuple[int, int]]:
    """[start, end) of every clause of the text that holds a word character."""
    return list(_clauses(text))


@lru_cache(maxsize=512)
def _clauses(text: str) -> tuple[tuple[int, int], ...]:
    """clause_spans, cached: a pair's coverage is taken after the redundant
    triple stage and again in the redundant description stage, which run on
    the same batch of texts one after the other."""
    return tuple([m.span() for m in _WORDY_CLAUSE.finditer(text)])


def coverage(text: str, triples: Iterable[dict]) -> float | None:
    """Share of the text's clauses that overlap a kept triple's support span;
    None for a text without clauses."""
    clauses = _clauses(text or "")
    if not clauses:
        return None
    spans = sorted((t["start"], t["end"]) for t in triples
                   if t.get("start") is not None and t.get("end") is not None)
    # Clauses are disjoint and in text order: a clause is covered when some
    # span starting before its end ends after its start, i.e. when the
    # furthest end among the spans starting before its end is past its start.
    covered = k = 0
    reach = -1
    for cs, ce in clauses:
        while k < len(spans) and spans[k][0] < ce:
            reach = max(reach, spans[k][1])
            k += 1
        if reach > cs:
            covered += 1
    return covered / len(clauses)


def coverage_bin(value: float | None) -> str:
    if value is None:
        return "none"
    if value >= 1.0:
        return "1.0"
    return COVERAGE_BINS[min(9, max(0, int(value * 10)))]
