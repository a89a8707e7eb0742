"""The embedded search backend: a DuckDB full-text (BM25) index.

The FTS extension is loaded from the pinned `duckdb-extension-fts` wheel,
never with `INSTALL fts` (that downloads, and fails offline). Documents and
queries are jieba-segmented (see segment.py), because the default FTS
tokenizer drops every CJK character.
"""
from __future__ import annotations

import hashlib
import os
import threading
import time
from dataclasses import dataclass
from typing import Iterable

from transforms.search.documents import Document
from transforms.search.passages import DEFAULT_PASSAGE_CHARS, passages
from transforms.search.segment import FTS_IGNORE, segment
from transforms.search.types import SearchFailure, SearchResult

INDEX_FORMAT = "3"  # 2: passage-level documents with their page; 3: content fingerprint
PER_PAGE = 2  # results per page in one answer


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
    passages: int
    seconds: float
    path: str


def _segment_document(args: tuple[Document, int]) -> tuple[Document, list[tuple[str, str]]]:
    """(document, [(passage, tokens)]): the CPU-heavy part, run in worker processes."""
    doc, passage_chars = args
    return doc, [(p, segment(f"{doc.title}\n{p}")) for p in (passages(doc.text, passage_chars) or [""])]


def refuse_other_file(out_path: str) -> None:
    """An index replaces only an index: `--out notes.md` or a crawl shard given by
    mistake would otherwise be overwritten with a database, and lost."""
    if os.path.isdir(out_path):
        raise LocalIndexError(f"--out {out_path} is a folder; give the index file's path")
    if not os.path.exists(out_path):
        return
    try:
        con = connect(out_path, read_only=True)
        try:
            con.execute("SELECT format FROM index_meta").fetchone()
        finally:
            con.close()
    except Exception:  # noqa: BLE001 - not a DuckDB file, or one without the index's table
        raise LocalIndexError(f"--out {out_path} exists and is not a search index: it is left as it is; "
                              "remove it or give another path") from None


def build_index(
    documents: Iterable[Document],
    out_path: str,
    passage_chars: int = DEFAULT_PASSAGE_CHARS,
    batch: int = 5000,
    workers: int = 1,
) -> IndexStats:
    """Write a fresh index file at `out_path` (replacing any old one). Each
    document is indexed as passages (see passages.py); a passage's URL is the
    page URL plus `#p<n>`, so the source-page rule still recognises the page.
    jieba segmentation dominates the cost; `workers` > 1 runs it in that many
    processes (document order, hence doc ids, stay the same)."""
    import pyarrow as pa

    start = time.perf_counter()
    refuse_other_file(out_path)
    os.makedirs(os.path.dirname(os.path.abspath(out_path)) or ".", exist_ok=True)
    tmp = f"{out_path}.tmp-{os.getpid()}"
    for stale in (tmp, f"{tmp}.wal"):
        if os.path.exists(stale):
            os.remove(stale)
    con = connect(tmp)
    try:
        con.execute(
            "CREATE TABLE docs (doc_id BIGINT PRIMARY KEY, page VARCHAR, url VARCHAR, title VARCHAR, text VARCHAR, tokens VARCHAR)"
        )
        count = 0
        n_passages = 0
        # Content fingerprint: the search cache keys on it, so a rebuilt index
        # with other documents never serves results cached from the old one.
        fingerprint = hashlib.blake2b(digest_size=12)
        rows: dict[str, list] = {k: [] for k in ("doc_id", "page", "url", "title", "text", "tokens")}

        def flush() -> None:
            if not rows["doc_id"]:
                return
            chunk = pa.table(rows)  # noqa: F841 - read by DuckDB's replacement scan
            con.execute("INSERT INTO docs SELECT * FROM chunk")
            for v in rows.values():
                v.clear()

        jobs = ((doc, passage_chars) for doc in documents)
        pool = None
        if workers > 1:
            import multiprocessing

            pool = multiprocessing.get_context("spawn").Pool(workers)
            segmented = pool.imap(_segment_document, jobs, chunksize=32)
        else:
            segmented = map(_segment_document, jobs)
        try:
            for doc, parts in segmented:
                count += 1
                fingerprint.update(f"{doc.url}\x1f{doc.title}\x1f{doc.text}\x1e".encode("utf-8", "surrogatepass"))
                for i, (passage, tokens) in enumerate(parts):
                    rows["doc_id"].append(n_passages)
                    rows["page"].append(doc.url)
                    rows["url"].append(doc.url if i == 0 else f"{doc.url}#p{i}")
                    rows["title"].append(doc.title)
                    rows["text"].append(passage)
                    rows["tokens"].append(tokens)
                    n_passages += 1
                if len(rows["doc_id"]) >= batch:
                    flush()
        finally:
            if pool is not None:
                pool.terminate()
        flush()
        con.execute(
            "PRAGMA create_fts_index('docs', 'doc_id', 'tokens', stemmer='none', stopwords='none', "
            f"ignore='{FTS_IGNORE}', strip_accents=0, lower=0, overwrite=1)"
        )
        con.execute(
            "CREATE TABLE index_meta AS SELECT ? AS format, ? AS documents, ? AS passages, ? AS passage_chars, "
            "'jieba.cut_for_search' AS segmenter, ? AS fingerprint",
            [INDEX_FORMAT, count, n_passages, passage_chars, fingerprint.hexdigest()],
        )
        con.execute("CHECKPOINT")
    finally:
        con.close()
    os.replace(tmp, out_path)
    return IndexStats(documents=count, passages=n_passages, seconds=time.perf_counter() - start, path=out_path)


# Okapi BM25 (k1=1.2, b=0.75) straight over the tables create_fts_index
# wrote: 2.6x faster here than calling the match_bm25 macro once per row, and
# the query tokens are already segmented. Then the best passages, at most
# PER_PAGE per page (a web engine groups a site's hits too).
_QUERY = """
WITH qt AS (SELECT DISTINCT unnest(string_split(?, ' ')) AS term),
q AS (SELECT d.termid, d.df FROM fts_main_docs.dict d JOIN qt USING (term)),
st AS (SELECT num_docs AS n, avgdl FROM fts_main_docs.stats),
tf AS (SELECT t.docid, t.termid, count(*) AS tf FROM fts_main_docs.terms t JOIN q USING (termid) GROUP BY ALL),
sc AS (
    SELECT tf.docid, sum(ln((st.n - q.df + 0.5) / (q.df + 0.5) + 1) * tf.tf * 2.2
                         / (tf.tf + 1.2 * (0.25 + 0.75 * dd.len / st.avgdl))) AS score
    FROM tf JOIN q USING (termid) JOIN fts_main_docs.docs dd ON dd.docid = tf.docid, st
    GROUP BY tf.docid
),
ranked AS (
    SELECT d.doc_id, d.url, d.title, d.text, sc.score,
           row_number() OVER (PARTITION BY d.page ORDER BY sc.score DESC, d.doc_id) AS rank_in_page
    FROM sc JOIN fts_main_docs.docs dd ON dd.docid = sc.docid JOIN docs d ON d.doc_id = dd.name
)
SELECT url, title, text FROM ranked WHERE rank_in_page <= ? ORDER BY score DESC, doc_id LIMIT ?
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
            # One thread per query: parallelism comes from our own thread pool
            # and Beam workers; DuckDB's per-query fan-out only adds contention
            # (measured 2x lower latency on a loaded 2-core machine).
            self._con.execute("SET threads = 1")
            cur = self._con.execute("SELECT * FROM index_meta")
            meta = dict(zip([d[0] for d in cur.description], cur.fetchone()))
        except LocalIndexError:
            raise
        except Exception as exc:  # duckdb raises many types; the message is what matters
            raise LocalIndexError(f"{path} is not a cdtp search index: {exc}") from exc
        if meta.get("format") != INDEX_FORMAT or "fingerprint" not in meta:
            raise LocalIndexError(
                f"{path} has index format {meta.get('format')}, this cdtp reads {INDEX_FORMAT}: rebuild it"
            )
        self.documents = int(meta["documents"])
        self.passages = int(meta["passages"])
        # Keyed on content, not on the file name: see build_index.
        self.backend_id = f"local:{meta['fingerprint']}:{meta['passage_chars']}"
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
        """Best passages for `query`, at most PER_PAGE per page (as a web
        engine groups results), as results with title + snippet."""
        q = segment(query)
        if not q:
            return []
        try:
            rows = self._cursor().execute(_QUERY, [q, PER_PAGE, int(k)]).fetchall()
        except Exception as exc:
            raise SearchFailure("index_error", str(exc)) from exc
        return [SearchResult(url=url, title=title or "", snippet=text or "") for url, title, text in rows]

    def close(self) -> None:
        try:
            self._con.close()
        except Exception:  # closing twice or after a failed open
            pass


def build_index_from_patterns(
    patterns: list[str], out_path: str, passage_chars: int = DEFAULT_PASSAGE_CHARS, workers: int = 1
):
    """Index every document matching the patterns (raw entries or {url,title,text}).
    Returns (IndexStats, ReadStats)."""
    from transforms.search.documents import ReadStats, read_documents

    read_stats = ReadStats()

    def docs():
        for pattern in patterns:
            yield from read_documents(pattern, read_stats)

    return build_index(docs(), out_path, passage_chars, workers=workers), read_stats
