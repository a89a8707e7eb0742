"""The embedded search backend: a DuckDB full-text (BM25) index.

The FTS extension is loaded from the pinned `duckdb-extension-fts` wheel,
never with `INSTALL fts` (that downloads, and fails offline). Documents and
queries are jieba-segmented (see segment.py), because the default FTS
tokenizer drops every CJK character.
"""
from __future__ import annotations

import os
import threading
import time
from dataclasses import dataclass
from typing import Iterable

from transforms.search.documents import Document
from transforms.search.segment import FTS_IGNORE, segment
from transforms.search.types import SearchFailure, SearchResult

INDEX_FORMAT = "1"


class LocalIndexError(Exception):
    """The index cannot be built or opened (message says why)."""


def fts_extension_path() -> str:
    """Path of the fts extension binary shipped by duckdb-extension-fts for
    the installed duckdb version."""
    import duckdb

    try:
        import duckdb_extension_fts
    except ImportError as exc:  # pragma: no cover - it is a pinned dependency
        raise LocalIndexError("duckdb-extension-fts is not installed (pip install duckdb-extension-fts==1.5.5)") from exc
    base = os.path.join(os.path.dirname(duckdb_extension_fts.__file__), "extensions")
    path = os.path.join(base, f"v{duckdb.__version__}", "fts.duckdb_extension")
    if not os.path.isfile(path):
        have = sorted(os.listdir(base)) if os.path.isdir(base) else []
        raise LocalIndexError(
            f"no fts extension for duckdb {duckdb.__version__} in duckdb-extension-fts (it has {have}); "
            "pin matching versions of duckdb and duckdb-extension-fts"
        )
    return path


def connect(path: str = ":memory:", read_only: bool = False):
    """A DuckDB connection with the fts extension loaded from the wheel."""
    import duckdb

    con = duckdb.connect(path, read_only=read_only)
    con.execute(f"LOAD '{fts_extension_path()}'")
    return con


@dataclass
class IndexStats:
    documents: int
    seconds: float
    path: str


def build_index(documents: Iterable[Document], out_path: str, batch: int = 5000) -> IndexStats:
    """Write a fresh index file at `out_path` (replacing any old one)."""
    import pyarrow as pa

    start = time.perf_counter()
    os.makedirs(os.path.dirname(os.path.abspath(out_path)) or ".", exist_ok=True)
    tmp = f"{out_path}.tmp-{os.getpid()}"
    for stale in (tmp, f"{tmp}.wal"):
        if os.path.exists(stale):
            os.remove(stale)
    con = connect(tmp)
    try:
        con.execute(
            "CREATE TABLE docs (doc_id BIGINT PRIMARY KEY, url VARCHAR, title VARCHAR, text VARCHAR, tokens VARCHAR)"
        )
        count = 0
        rows: dict[str, list] = {k: [] for k in ("doc_id", "url", "title", "text", "tokens")}

        def flush() -> None:
            if not rows["doc_id"]:
                return
            chunk = pa.table(rows)  # noqa: F841 - read by DuckDB's replacement scan
            con.execute("INSERT INTO docs SELECT * FROM chunk")
            for v in rows.values():
                v.clear()

        for doc in documents:
            rows["doc_id"].append(count)
            rows["url"].append(doc.url)
            rows["title"].append(doc.title)
            rows["text"].append(doc.text)
            rows["tokens"].append(segment(f"{doc.title}\n{doc.text}"))
            count += 1
            if len(rows["doc_id"]) >= batch:
                flush()
        flush()
        con.execute(
            "PRAGMA create_fts_index('docs', 'doc_id', 'tokens', stemmer='none', stopwords='none', "
            f"ignore='{FTS_IGNORE}', strip_accents=0, lower=0, overwrite=1)"
        )
        con.execute("CREATE TABLE index_meta AS SELECT ? AS format, ? AS documents, 'jieba.cut_for_search' AS segmenter",
                    [INDEX_FORMAT, count])
        con.execute("CHECKPOINT")
    finally:
        con.close()
    os.replace(tmp, out_path)
    return IndexStats(documents=count, seconds=time.perf_counter() - start, path=out_path)


_QUERY = """
SELECT url, title, text FROM (
    SELECT doc_id, url, title, text, fts_main_docs.match_bm25(doc_id, ?) AS score FROM docs
) WHERE score IS NOT NULL ORDER BY score DESC, doc_id LIMIT ?
"""


class LocalIndexBackend:
    """SearchBackend over an index built by build_index. Thread-safe: each
    thread queries through its own cursor of one read-only connection."""

    def __init__(self, path: str):
        if not os.path.isfile(path):
            raise LocalIndexError(f"search index {path} does not exist (build it with `cdtp search index`)")
        self.path = path
        try:
            self._con = connect(path, read_only=True)
            meta = self._con.execute("SELECT format, documents FROM index_meta").fetchone()
        except LocalIndexError:
            raise
        except Exception as exc:  # duckdb raises many types; the message is what matters
            raise LocalIndexError(f"{path} is not a cdtp search index: {exc}") from exc
        if meta[0] != INDEX_FORMAT:
            raise LocalIndexError(f"{path} has index format {meta[0]}, this cdtp reads {INDEX_FORMAT}: rebuild it")
        self.documents = int(meta[1])
        self.backend_id = f"local:{os.path.basename(path)}:{self.documents}"
        self._local = threading.local()
        self._lock = threading.Lock()

    def _cursor(self):
        cur = getattr(self._local, "cursor", None)
        if cur is None:
            with self._lock:
                cur = self._con.cursor()
            self._local.cursor = cur
        return cur

    def search(self, query: str, k: int) -> list[SearchResult]:
        q = segment(query)
        if not q:
            return []
        try:
            rows = self._cursor().execute(_QUERY, [q, int(k)]).fetchall()
        except Exception as exc:
            raise SearchFailure("index_error", str(exc)) from exc
        return [SearchResult(url=u, title=t or "", snippet="", text=x or "") for u, t, x in rows]

    def close(self) -> None:
        try:
            self._con.close()
        except Exception:  # closing twice or after a failed open
            pass
