"""`cdtp search index|query`: the embedded full-text index used by the
search co-occurrence validation stage (paper §3.2)."""
from __future__ import annotations

import argparse
import json
import os
import sys

from pipeline.errors import CdtpError


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "search",
        help="build/query the local search index for co-occurrence validation",
        description="Local full-text (DuckDB FTS + jieba) index over crawled pages or any {url,title,text} corpus.",
    )
    sub = parser.add_subparsers(dest="search_command", metavar="SUBCOMMAND")

    idx = sub.add_parser("index", help="build an index from raw-entry JSONL/Parquet or a {url,title,text} JSONL corpus")
    idx.add_argument("--input", action="append", required=True, metavar="GLOB",
                     help="input files (repeatable); .jsonl, .jsonl.gz, .parquet; gs:// works")
    idx.add_argument("--out", required=True, metavar="INDEX.duckdb", help="index file to write (replaced if present)")
    idx.add_argument("--passage-chars", type=int, default=300, metavar="N",
                     help="index passages of at most N characters, like search snippets (0 = whole pages)")
    idx.add_argument("--workers", type=int, default=1, metavar="N",
                     help="processes for jieba segmentation, the costly part (default 1)")
    idx.set_defaults(handler=_index)

    q = sub.add_parser("query", help="run one query; with --head/--tail also show the co-occurrence decision")
    q.add_argument("index", metavar="INDEX.duckdb")
    q.add_argument("query", nargs="?", help='e.g. "上海大学学报 上海大学" (default: HEAD TAIL)')
    q.add_argument("-k", "--top-k", type=int, default=10)
    q.add_argument("--head", help="triple head, to decide co-occurrence")
    q.add_argument("--tail", help="triple tail, to decide co-occurrence")
    q.add_argument("--source-url", help="the triple's own page, which does not count")
    q.add_argument("--json", action="store_true", help="print JSON instead of a table")
    q.set_defaults(handler=_query)
    w = sub.add_parser("web", help="the same against a SearXNG service (checks its JSON API answers)")
    w.add_argument("query", nargs="?", help='e.g. "上海大学学报 上海大学" (default: HEAD TAIL)')
    w.add_argument("--url", required=True, help="SearXNG base URL, e.g. http://127.0.0.1:8888")
    w.add_argument("-k", "--top-k", type=int, default=10)
    w.add_argument("--timeout", type=float, default=10.0)
    w.add_argument("--head")
    w.add_argument("--tail")
    w.add_argument("--source-url")
    w.add_argument("--json", action="store_true")
    w.set_defaults(handler=_query)
    parser.set_defaults(handler=lambda args: parser.print_help() or 2)


def _index(args: argparse.Namespace) -> int:
    from transforms.search.documents import expand
    from transforms.search.local_index import LocalIndexError, build_index_from_patterns

    missing = [p for p in args.input if not expand(p)]
    if missing:
        raise CdtpError(f"no input file matches {missing}")
    cores = os.cpu_count() or 1
    if not 1 <= args.workers <= 4 * cores:  # 100000 processes once ran the machine into the ground
        raise CdtpError(f"--workers must be between 1 and {4 * cores} (4 per core), not {args.workers}")
    if args.passage_chars < 0:
        raise CdtpError(f"--passage-chars must be >= 0 (0 = whole pages), not {args.passage_chars}")
    try:
        stats, read = build_index_from_patterns(args.input, args.out, args.passage_chars, args.workers)
    except LocalIndexError as exc:
        raise CdtpError(str(exc)) from exc
    except OSError as exc:
        raise CdtpError(f"cannot build index {args.out}: {exc}") from exc
    print(f"indexed {stats.documents} documents ({stats.passages} passages) from {read.files} file(s) into {stats.path} in {stats.seconds:.1f}s"
          f" ({read.duplicates} duplicate URLs, {read.invalid} invalid records skipped)")
    for example in read.examples:
        print(f"  skipped: {example}", file=sys.stderr)
    if stats.documents == 0:
        # a build with it would drop every triple as no_cooccurrence (and refuses it)
        raise CdtpError(f"no document with text in {', '.join(args.input)}: the index is empty")
    return 0


def _query(args: argparse.Namespace) -> int:
    from transforms.search.cooccur import build_query, decide
    from transforms.search.local_index import LocalIndexBackend, LocalIndexError
    from transforms.search.searxng import SearxngBackend
    from transforms.search.types import SearchFailure

    query = args.query or build_query(args.head, args.tail)
    if not query.strip():
        raise CdtpError("give a QUERY, or --head and --tail")
    if args.top_k < 1:
        raise CdtpError("--top-k must be >= 1")
    try:
        if getattr(args, "url", None):
            backend = SearxngBackend(args.url, timeout=args.timeout, retries=1)
        else:
            backend = LocalIndexBackend(args.index)
    except (LocalIndexError, ValueError) as exc:
        raise CdtpError(str(exc)) from exc
    try:
        results = backend.search(query, args.top_k)
    except SearchFailure as exc:
        raise CdtpError(f"search failed: {exc}") from exc
    finally:
        backend.close()
    decision = decide(args.head, args.tail, results, args.source_url) if args.head and args.tail else None
    if args.json:
        print(json.dumps({
            "query": query,
            "results": [{"url": r.url, "title": r.title, "snippet": r.snippet} for r in results],
            "decision": decision.__dict__ if decision else None,
        }, ensure_ascii=False))
        return 0
    print(f"query: {query}  ({len(results)} result(s))")
    for rank, r in enumerate(results, 1):
        snippet = r.snippet if len(r.snippet) <= 60 else r.snippet[:60] + "…"
        print(f"{rank:>3}. {r.title}  {r.url}\n     {snippet}")
    if decision:
        print(f"decision: {decision.status} ({decision.reason}); evidence: {decision.evidence_url or '-'}; "
              f"results checked: {decision.checked}")
    return 0
