"""On-disk search cache: a rerun never repeats a query.

sqlite3 keyed by (backend id, k, normalised query). Only successful searches
are stored: a failure (timeout, 429, ...) is retried on the next run instead
of being remembered as "no results". Safe across threads (one lock) and
across processes on one machine (sqlite file locking, WAL, busy timeout), so
Beam's multi-process DirectRunner workers can share one cache directory.
"""
from __future__ import annotations

import json
import os
import sqlite3
import threading
from dataclasses import dataclass

from transforms import safejson
from transforms.search.cooccur import cache_key_query
from transforms.search.types import SearchBackend, SearchResult

CACHE_FILE = "search_cache.sqlite"


@dataclass
class CacheStats:
    hits: int = 0
    misses: int = 0

    @property
    def hit_rate(self) -> float:
        total = self.hits + self.misses
        return self.hits / total if total else 0.0


def _retry_locked(step, seconds: float = 60.0):
    """Run one sqlite step, retrying while another process holds the lock.

    Switching the journal mode (and the first schema write) can fail with
    "database is locked" at once, without waiting out the busy timeout, when
    several workers open the same new cache together (Beam's multi-process
    DirectRunner sets up one search DoFn per worker at the same moment)."""
    import time

    deadline = time.monotonic() + seconds
    delay = 0.01
    while True:
        try:
            return step()
        except sqlite3.OperationalError as exc:
            if ("locked" not in str(exc) and "busy" not in str(exc)) or time.monotonic() > deadline:
                raise
            time.sleep(delay)
            delay = min(delay * 2, 0.5)


class SearchCache:
    def __init__(self, cache_dir: str):
        os.makedirs(cache_dir, exist_ok=True)
        self.path = os.path.join(cache_dir, CACHE_FILE)
        self._lock = threading.Lock()
        self._con = sqlite3.connect(self.path, timeout=60, check_same_thread=False)
        with self._lock:
            _retry_locked(lambda: self._con.execute("PRAGMA journal_mode=WAL"))
            _retry_locked(lambda: self._con.execute(
                "CREATE TABLE IF NOT EXISTS results (backend TEXT, k INTEGER, query TEXT, results TEXT, "
                "PRIMARY KEY (backend, k, query))"
            ))
            self._con.commit()

    def get(self, backend: str, k: int, query: str) -> list[SearchResult] | None:
        with self._lock:
            row = self._con.execute(
                "SELECT results FROM results WHERE backend=? AND k=? AND query=?",
                (backend, k, cache_key_query(query)),
            ).fetchone()
        if row is None:
            return None
        try:
            return [SearchResult.from_dict(d) for d in safejson.loads(row[0])]
        except (ValueError, TypeError, AttributeError):
            return None  # a damaged entry is a miss, and is overwritten by the fresh result

    def put(self, backend: str, k: int, query: str, results: list[SearchResult]) -> None:
        payload = json.dumps([r.to_dict() for r in results], ensure_ascii=False)
        with self._lock:
            self._con.execute(
                "INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?)",
                (backend, k, cache_key_query(query), payload),
            )
            self._con.commit()

    def __len__(self) -> int:
        with self._lock:
            return int(self._con.execute("SELECT count(*) FROM results").fetchone()[0])

    def close(self) -> None:
        with self._lock:
            self._con.close()


class CachedBackend:
    """Wraps any SearchBackend with a SearchCache (failures pass through uncached)."""

    def __init__(self, backend: SearchBackend, cache: SearchCache):
        self.backend = backend
        self.cache = cache
        self.backend_id = backend.backend_id
        self.stats = CacheStats()
        self._lock = threading.Lock()

    def search(self, query: str, k: int) -> list[SearchResult]:
        hit = self.cache.get(self.backend_id, k, query)
        if hit is not None:
            with self._lock:
                self.stats.hits += 1
            return hit
        with self._lock:
            self.stats.misses += 1
        results = self.backend.search(query, k)  # SearchFailure propagates, nothing stored
        self.cache.put(self.backend_id, k, query, results)
        return results

    def close(self) -> None:
        self.backend.close()
        self.cache.close()
