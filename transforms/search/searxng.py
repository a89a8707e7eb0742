"""Web search through a SearXNG service's JSON API.

GET {base}/search?q=...&format=json -> {"results": [{"url", "title", "content"}, ...]}
(SearXNG must have `json` among `search.formats` in its settings.yml, or it
answers 403.)

Faults are expected at scale and handled here, so the stage above only sees
results or a SearchFailure with a stable reason:
  * in-flight requests are bounded by a semaphore (max_concurrency);
  * timeouts, connection errors, 429 and 5xx are retried with exponential
    back-off (backoff * 2**attempt, capped), a 429's Retry-After is honoured;
  * other 4xx and unparseable bodies fail at once (retrying will not help).
"""
from __future__ import annotations

import email.utils
import socket
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass

from transforms import safejson
from transforms.search.types import SearchFailure, SearchResult

USER_AGENT = "cdtp-search-validation/0.1 (+https://github.com/; co-occurrence check)"


@dataclass
class ClientStats:
    requests: int = 0
    retries: int = 0
    failures: int = 0


def _retry_after(value: str | None, cap: float) -> float | None:
    """Seconds from a Retry-After header (delta-seconds or HTTP date)."""
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


def parse_results(body: bytes, k: int) -> list[SearchResult]:
    """SearXNG JSON -> results; SearchFailure("bad_json") for anything else."""
    try:
        data = safejson.loads(body.decode("utf-8"))
    except ValueError as exc:  # not UTF-8, not JSON, or nested too deeply
        raise SearchFailure("bad_json", f"unparseable body ({exc.__class__.__name__}): {body[:80]!r}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise SearchFailure("bad_json", "no 'results' list in the response")
    out: list[SearchResult] = []
    for item in data["results"]:
        if not isinstance(item, dict) or not isinstance(item.get("url"), str):
            continue  # one odd result does not spoil the others
        out.append(
            SearchResult(
                url=item["url"],
                title=item.get("title") if isinstance(item.get("title"), str) else "",
                snippet=item.get("content") if isinstance(item.get("content"), str) else "",
            )
        )
        if len(out) >= k:
            break
    return out


class SearxngBackend:
    def __init__(
        self,
        base_url: str,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.5,
        max_backoff: float = 30.0,
        max_concurrency: int = 4,
        extra_params: dict[str, str] | None = None,
        sleep=time.sleep,
    ):
        parsed = urllib.parse.urlsplit(base_url)
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"searxng URL must be http(s)://host[:port][/path], got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.extra_params = dict(extra_params or {})
        self.backend_id = f"searxng:{self.base_url}"
        self.stats = ClientStats()
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._lock = threading.Lock()
        self._sleep = sleep

    def _url(self, query: str) -> str:
        params = {"q": query, "format": "json", **self.extra_params}
        return f"{self.base_url}/search?{urllib.parse.urlencode(params)}"

    def _once(self, url: str) -> tuple[bytes | None, str | None, float | None]:
        """One request: (body, None, None) or (None, failure reason, wait hint)."""
        request = urllib.request.Request(url, headers={"User-Agent": USER_AGENT, "Accept": "application/json"})
        with self._slots:
            with self._lock:
                self.stats.requests += 1
            try:
                with urllib.request.urlopen(request, timeout=self.timeout) as resp:
                    return resp.read(), None, None
            except urllib.error.HTTPError as exc:
                retry_after = _retry_after(exc.headers.get("Retry-After") if exc.headers else None, self.max_backoff)
                exc.close()
                if exc.code == 429:
                    return None, "http_429", retry_after
                if exc.code >= 500:
                    return None, "http_5xx", retry_after
                return None, "http_4xx", None
            except (TimeoutError, socket.timeout):
                return None, "timeout", None
            except urllib.error.URLError as exc:
                if isinstance(exc.reason, (TimeoutError, socket.timeout)):
                    return None, "timeout", None
                return None, "connection_error", None
            except (ConnectionError, OSError):
                return None, "connection_error", None

    def search(self, query: str, k: int) -> list[SearchResult]:
        if not query.strip():
            raise SearchFailure("empty_query")
        url = self._url(query)
        reason = "connection_error"
        for attempt in range(self.retries + 1):
            body, reason, wait = self._once(url)
            if body is not None:
                return parse_results(body, k)
            if reason == "http_4xx" or attempt == self.retries:
                break
            with self._lock:
                self.stats.retries += 1
            delay = min(self.backoff * (2**attempt), self.max_backoff)
            self._sleep(max(delay, wait or 0.0))
        with self._lock:
            self.stats.failures += 1
        raise SearchFailure(reason, f"after {attempt + 1} attempt(s): {query[:60]}")

    def close(self) -> None:
        pass
