"""Pairs travel between stages in batches: an element is a pair or a list of pairs.

Why: on the DirectRunner every element costs every Beam operation it passes
(a counter, a stage's DoFn, its tagged outputs) a few microseconds of
bookkeeping, which at ~10 operations per entry was as much as the cleaning
itself. The readers emit lists of up to 256 records and the stages keep them
together, so that cost is paid once per batch. A stage handles both shapes,
and answers in the shape it was given, so a test can still feed single pairs.

Audit and discarded-triple elements follow the same rule (a row or a list of
rows); their writers shard row by row.
"""
from __future__ import annotations

from typing import Any, Iterator


def items_of(element: Any) -> list:
    """The pairs (or rows) of one element."""
    return element if isinstance(element, list) else [element]


def emit(element: Any, items: list) -> Iterator:
    """Yield `items` in the shape `element` had: one list, or one by one."""
    if isinstance(element, list):
        if items:
            yield items
    else:
        yield from items


def count_items(element: Any) -> int:
    return len(element) if isinstance(element, list) else 1


def map_items(element: Any, fn, *args) -> Any:
    """`fn` applied to each pair of an element, in the element's shape (for beam.Map)."""
    if isinstance(element, list):
        return [fn(item, *args) for item in element]
    return fn(element, *args)
