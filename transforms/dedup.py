"""Which copy of an entry to keep when the input gives it more than once.

Two crawls fed to one build, or a re-crawl, give the same entry (same entry
key: lemma id, or title + subtitle) at several input locations. The build
keeps one copy: the newest `fetched_at`, then the smallest hash of its
content, then of its location (a fixed, arbitrary order, so every run and
every worker agrees). Content comes before location so that the copy kept
does not depend on where the input lies: the same files under another
folder give the same pairs (a location ranks only copies of one content).

Every input record is a *copy* here: four 64-bit integers (entry key hash,
fetched_at in seconds, content hash, location hash) in a numpy record, 32
bytes, so the table of all copies stays small even where a runner holds it
in memory (100k entries: 3.2 MB). Only the keys given more than once come
out, as {key hash: location hash of the copy to keep}. Two different keys share a
64-bit hash with probability about n²/2⁶⁵ (2·10⁻⁵ for 27M entries); such a
pair would be treated as one entry given twice.
"""
from __future__ import annotations

import hashlib
import json
from datetime import datetime, timezone

import numpy as np

COPY = np.dtype([("key", "<u8"), ("fetched", "<i8"), ("content", "<u8"), ("location", "<u8")])
UNKNOWN_TIME = -(2**62)  # no or unreadable fetched_at: older than any copy that has one


def hash64(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode("utf-8"), digest_size=8).digest(), "little")


def content_hash(payload: object) -> int:
    """hash64 of an input record as read: the bytes of a JSON Lines line, or
    a Parquet row's fields as sorted JSON."""
    if isinstance(payload, str):
        payload = payload.encode("utf-8", "surrogatepass")
    if not isinstance(payload, bytes):
        payload = json.dumps(payload, sort_keys=True, default=str).encode("ascii")
    return int.from_bytes(hashlib.blake2b(payload.strip(), digest_size=8).digest(), "little")


def parse_fetched_at(value: str) -> int | None:
    """`fetched_at` (ISO 8601, as the crawler writes it) in seconds since the
    epoch; None when it is no ISO 8601 time (`"yesterday"`). A time without
    an offset is UTC, so every machine reads it the same."""
    try:
        when = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        if when.tzinfo is None:
            when = when.replace(tzinfo=timezone.utc)
        return int(when.timestamp())
    except (ValueError, OverflowError, OSError):
        return None


def fetched_seconds(value: object) -> int:
    """`fetched_at` in seconds; UNKNOWN_TIME if absent or unreadable."""
    if not isinstance(value, str) or not value:
        return UNKNOWN_TIME
    seconds = parse_fetched_at(value)
    return UNKNOWN_TIME if seconds is None else seconds


def copies(rows: list[tuple[int, int, int, int]]) -> np.ndarray:
    """(key hash, fetched seconds, content hash, location hash) rows as a COPY array."""
    return np.array(rows, dtype=COPY)


def winners(table: np.ndarray) -> dict[int, int]:
    """{key hash: location hash of the copy to keep} for keys with more than one copy."""
    if len(table) < 2:
        return {}
    keys, counts = np.unique(table["key"], return_counts=True)
    repeated = table[np.isin(table["key"], keys[counts > 1])]
    if not len(repeated):
        return {}
    # Sort by key, then newest first, then smallest content hash, then location
    # hash; the first row of each key wins.
    order = np.lexsort((repeated["location"], repeated["content"], -repeated["fetched"], repeated["key"]))
    ranked = repeated[order]
    first = np.ones(len(ranked), dtype=bool)
    first[1:] = ranked["key"][1:] != ranked["key"][:-1]
    return {int(k): int(loc) for k, loc in zip(ranked["key"][first], ranked["location"][first])}
