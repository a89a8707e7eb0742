"""Retry-After for the project's HTTP clients (the search client and the model backend).

A 429 or 503 may say how long to wait, as delta-seconds or an HTTP date.
Both clients read it the same way, capped by their own patience, so a hostile
or mistaken header cannot stall a build or an evaluation. (The crawler reads
the header more strictly, digits only, in crawlers/middlewares/retry_after.py:
Scrapy's politeness rules are its own.)
"""
from __future__ import annotations

import email.utils
import math
import time


def retry_after_seconds(value: str | None, cap: float = math.inf) -> float | None:
    """Seconds to wait from a Retry-After value, in [0, cap]; None when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    try:
        return min(max(float(value), 0.0), cap)
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when is None:
        return None
    return min(max(when.timestamp() - time.time(), 0.0), cap)
