"""Shared types of search co-occurrence validation (paper §3.2).

Every backend (the embedded DuckDB full-text index, a SearXNG service, ...)
sits behind `SearchBackend`, so the co-occurrence decision, the cache and the
Beam stage never care where results come from.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

# Reasons a search can fail with. They end up in the audit / the triple's
# search_evidence, so they are snake_case and stable.
FAILURE_REASONS = (
    "timeout",
    "http_429",
    "http_5xx",
    "http_4xx",
    "bad_json",
    "connection_error",
    "too_large",
    "bad_response",
    "index_error",
    "empty_query",
    "backend_error",
)


@dataclass(frozen=True)
class SearchResult:
    """One search hit. `text` is the full document when the backend has it
    (the local index); web backends only have title + snippet."""

    url: str
    title: str = ""
    snippet: str = ""
    text: str = ""

    def to_dict(self) -> dict[str, str]:
        return {"url": self.url, "title": self.title, "snippet": self.snippet, "text": self.text}

    @classmethod
    def from_dict(cls, d: dict) -> "SearchResult":
        return cls(
            url=str(d.get("url") or ""),
            title=str(d.get("title") or ""),
            snippet=str(d.get("snippet") or ""),
            text=str(d.get("text") or ""),
        )


class SearchFailure(Exception):
    """A search that could not be answered (after retries). `reason` is one of
    FAILURE_REASONS; the triple then becomes `unverified`, never silently lost."""

    def __init__(self, reason: str, message: str = ""):
        super().__init__(f"{reason}: {message}" if message else reason)
        self.reason = reason
        self.message = message


@runtime_checkable
class SearchBackend(Protocol):
    """search(query, k) returns at most k results, best first, or raises
    SearchFailure. `backend_id` names the backend and its collection so the
    cache never serves one backend's results for another."""

    backend_id: str

    def search(self, query: str, k: int) -> list[SearchResult]: ...

    def close(self) -> None: ...


BACKENDS = ("local", "searxng")
UNVERIFIED_POLICIES = ("keep", "drop")


@dataclass
class SearchConfig:
    """Configuration of the search_validation stage.

    `unverified_policy` decides the fate of triples whose search FAILED (not
    those searched without co-occurrence, which are always dropped): "keep"
    keeps them with search_status="unverified" so a later rerun (served from
    the cache for everything that did succeed) can settle them.
    """

    enabled: bool = False
    backend: str = "local"  # local | searxng
    index_path: str | None = None  # DuckDB file built by `cdtp search index` (any Beam filesystem path)
    searxng_url: str | None = None  # e.g. http://127.0.0.1:8888
    top_k: int = 10
    cache_dir: str | None = None  # local directory; None = no cache
    timeout: float = 10.0  # seconds per HTTP request
    retries: int = 3  # extra attempts after the first one (timeouts, 429, 5xx)
    backoff: float = 0.5  # first back-off in seconds; doubles each retry
    max_backoff: float = 30.0  # cap for back-off and for Retry-After
    max_concurrency: int = 4  # in-flight searches per worker
    batch_size: int = 64  # pairs per Beam batch
    unverified_policy: str = "keep"  # keep | drop
    extra_params: dict[str, str] = field(default_factory=dict)  # e.g. {"language": "zh-CN"} for SearXNG

    def __post_init__(self) -> None:
        # a bad value is refused when the config is read (`cdtp config show` too),
        # not only when a build turns the stage on
        self._check_values()

    def validate(self) -> None:
        """Raise ValueError with a clear message for inconsistent settings."""
        self._check_values()
        if self.enabled and self.backend == "searxng" and not self.searxng_url:
            raise ValueError("the searxng backend needs a URL (--searxng-url http://host:port)")
        if self.enabled and self.backend == "local" and not self.index_path:
            raise ValueError("the local search backend needs an index (--search-index INDEX.duckdb)")

    def _check_values(self) -> None:
        if self.backend not in BACKENDS:
            raise ValueError(f"search backend must be one of {BACKENDS}, got {self.backend!r}")
        if self.unverified_policy not in UNVERIFIED_POLICIES:
            raise ValueError(
                f"unverified policy must be one of {UNVERIFIED_POLICIES}, got {self.unverified_policy!r}"
            )
        if self.top_k < 1:
            raise ValueError("search top_k must be >= 1")
        if self.max_concurrency < 1:
            raise ValueError("search max_concurrency must be >= 1")
        if self.retries < 0:
            raise ValueError("search retries must be >= 0")
