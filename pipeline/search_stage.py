"""Beam wrapper of search co-occurrence validation (paper §3.2).

`ValidateBySearch(cfg)` takes pairs (or lists of them, pipeline/batch.py) and
returns {"pairs", "audit"} as lists. Pairs are rebatched to cfg.batch_size so each batch's distinct queries run concurrently
through one client, built once per DoFn instance in setup(): a DuckDB
connection or an HTTP client is too costly per element and cannot be pickled.
All decisions are in transforms/search/validate.py.
"""
from __future__ import annotations

import dataclasses
import os
import shutil
import tempfile
import threading
from typing import Any

import apache_beam as beam
from apache_beam.metrics import Metrics

from pipeline import audit
from pipeline.batch import items_of
from pipeline.funnel import NAMESPACE
from transforms.search.types import SearchConfig
from transforms.search.validate import STAGE, PairDrops, make_backend, validate_pairs

INDEX_FILE = "search_index.duckdb"
CACHE_DIR = "search_cache"

_local_copies: dict[str, str] = {}
_copy_lock = threading.Lock()


def _is_remote(path: str) -> bool:
    return "://" in path and not path.startswith("file://")


def localise_index(path: str) -> str:
    """A local path for the index: remote files (gs://...) are copied once per
    worker process through Beam FileSystems, since DuckDB opens local files only."""
    if not _is_remote(path):
        return path[len("file://"):] if path.startswith("file://") else path
    with _copy_lock:
        if path not in _local_copies:
            from apache_beam.io.filesystems import FileSystems

            local = os.path.join(tempfile.mkdtemp(prefix="cdtp-search-index-"), INDEX_FILE)
            with FileSystems.open(path) as src, open(local, "wb") as dst:
                shutil.copyfileobj(src, dst, length=16 << 20)
            _local_copies[path] = local
        return _local_copies[path]


def audit_rows(drops: PairDrops) -> list[dict[str, Any]]:
    """Dropped rows: one per removed triple (its own reason), then the entry
    row when the pair is left without triples (its triples already have rows)."""
    rows = audit.dropped_triples(drops.pair, STAGE, drops.triples)
    if drops.pair_reason:
        rows.append(audit.entry_row(drops.pair, audit.DROPPED, STAGE, drops.pair_reason, drops.pair_detail))
    return rows


class _ValidateBatchFn(beam.DoFn):
    def __init__(self, cfg: SearchConfig):
        self.cfg = cfg
        self._backend = None
        self._counters: dict[str, Any] = {}

    def setup(self):
        index = localise_index(self.cfg.index_path) if self.cfg.backend == "local" and self.cfg.index_path else None
        self._backend = make_backend(self.cfg, index)

    def _count(self, name: str, n: int) -> None:
        counter = self._counters.get(name)
        if counter is None:
            # Namespace cdtp, "search|<name>": stats.json lists them under "search".
            counter = self._counters[name] = Metrics.counter(NAMESPACE, f"search|{name}")
        counter.inc(n)

    def process(self, batch: list[dict[str, Any]]):
        stats = getattr(self._backend, "stats", None)  # CachedBackend: hits/misses
        before = (stats.hits, stats.misses) if stats is not None and hasattr(stats, "hits") else None
        out = validate_pairs(list(batch), self._backend, self.cfg)
        self._count("pairs_in", len(batch))
        for name, n in out.counts.items():
            self._count(name, n)
        if before is not None:
            self._count("cache_hits", stats.hits - before[0])
            self._count("cache_misses", stats.misses - before[1])
        rows = [row for drops in out.drops for row in audit_rows(drops)]
        if rows:
            yield beam.pvalue.TaggedOutput("audit", rows)
        if out.pairs:
            yield list(out.pairs)

    def teardown(self):
        if self._backend is not None:
            self._backend.close()
            self._backend = None


class ValidateBySearch(beam.PTransform):
    """pairs -> {"pairs": pairs whose triples co-occur in search results,
    "audit": dropped triples/pairs}. A disabled config passes pairs through."""

    def __init__(self, cfg: SearchConfig, label: str = "SearchValidation"):
        super().__init__(label)
        cfg.validate()
        self.cfg = cfg

    def expand(self, pairs):
        if not self.cfg.enabled:
            return {"pairs": pairs, "audit": pairs.pipeline | "NoSearchAudit" >> beam.Create([])}
        results = (
            pairs
            | "Unbatch" >> beam.FlatMap(items_of)
            | "BatchForSearch" >> beam.BatchElements(min_batch_size=1, max_batch_size=self.cfg.batch_size)
            | "SearchCooccurrence" >> beam.ParDo(_ValidateBatchFn(self.cfg)).with_outputs("audit", main="pairs")
        )
        return {"pairs": results.pairs, "audit": results.audit}


def prepare_search(cfg: SearchConfig | None, input_patterns: list[str], out_dir: str) -> SearchConfig | None:
    """Make a search config runnable before the pipeline starts (called by `cdtp build`):
    * backend local without an index: index the build's own input into
      OUT/search_index.duckdb (built locally, copied when OUT is remote);
    * no cache dir and a local OUT: cache in OUT/search_cache, so a rerun into
      the same OUT repeats no query.
    Returns the updated config (or the input when search is off)."""
    if cfg is None or not cfg.enabled:
        return cfg
    from pipeline.errors import CdtpError
    from transforms.search.local_index import LocalIndexError

    try:
        return _prepare(cfg, input_patterns, out_dir)
    except (ValueError, LocalIndexError) as exc:
        raise CdtpError(f"search validation: {exc}") from exc


def _prepare(cfg: SearchConfig, input_patterns: list[str], out_dir: str) -> SearchConfig:
    from transforms.search.local_index import LocalIndexBackend, LocalIndexError, build_index_from_patterns

    updates: dict[str, Any] = {}
    if cfg.backend == "local" and not cfg.index_path:
        target = os.path.join(out_dir, INDEX_FILE) if not _is_remote(out_dir) else out_dir.rstrip("/") + "/" + INDEX_FILE
        local = target if not _is_remote(target) else os.path.join(tempfile.mkdtemp(prefix="cdtp-index-"), INDEX_FILE)
        stats, read = build_index_from_patterns(input_patterns, local)
        if stats.documents == 0:
            raise LocalIndexError(f"no document to index in the build's input ({read.invalid} invalid records): "
                                  "search validation would drop every triple")
        if local != target:
            from apache_beam.io.filesystems import FileSystems

            with open(local, "rb") as src, FileSystems.create(target) as dst:
                shutil.copyfileobj(src, dst, length=16 << 20)
        print(f"search: indexed {stats.documents} documents into {target} ({stats.seconds:.1f}s, "
              f"{read.invalid} invalid records skipped)")
        updates["index_path"] = target
    elif cfg.backend == "local" and not _is_remote(cfg.index_path):
        # Open it here, once: a missing or foreign file found by a worker is
        # a worker's traceback in Beam's log before the error.
        index = LocalIndexBackend(cfg.index_path)
        index.close()
        if index.documents == 0:
            # every triple would then be dropped as no_cooccurrence, and the build "succeed" empty
            raise LocalIndexError(f"search index {cfg.index_path} holds no documents: no triple could co-occur "
                                  "in it; rebuild it from pages with text (`cdtp search index`)")
    if cfg.cache_dir is None and not _is_remote(out_dir):
        updates["cache_dir"] = os.path.join(out_dir, CACHE_DIR)
    new = dataclasses.replace(cfg, **updates)
    new.validate()
    return new
