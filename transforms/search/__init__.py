"""Search co-occurrence validation (paper §3.2): a triple is kept only when its
head and tail co-occur in one of the top-k search results other than its own
source page. Backends: an embedded DuckDB full-text index (default) and a
SearXNG service over HTTP, both behind SearchBackend, with an on-disk cache."""
from transforms.search.cooccur import Decision, build_query, decide, normalise
from transforms.search.types import SearchBackend, SearchConfig, SearchFailure, SearchResult

__all__ = [
    "Decision",
    "SearchBackend",
    "SearchConfig",
    "SearchFailure",
    "SearchResult",
    "build_query",
    "decide",
    "normalise",
]
