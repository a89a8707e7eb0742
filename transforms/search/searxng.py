"""Web search through a SearXNG service's JSON API.

GET {base}/search?q=...&format=json -> {"results": [{"url", "title", "content"}, ...]}
(SearXNG must have `json` among `search.formats` in its settings.yml, or it
answers 403.)

Faults are expected at scale and handled here, so the stage above only sees
results or a SearchFailure with a stable reason:
  * in-flight requests are bounded by a semaphore (max_concurrency);
  * timeouts, connection errors, 429 and 5xx are retried with exponential
    back-off (backoff * 2**attempt, capped), a 429's Retry-After is honoured;
  * other 4xx and unparseable bodies fail at once (retrying will not help);
  * each request has an overall deadline (`timeout`, seconds), kept by a
    watchdog that closes the socket, so a server that drips one byte every
    few seconds cannot hold a worker past it (it used to run far past the
    timeout and end in an IncompleteRead traceback);
  * a body over `max_bytes` (Content-Length, or counted while reading) is
    refused as `too_large` without being held in memory (a 1.5 GB reply took
    3 GB of RSS); a broken HTTP reply is `bad_response`.
"""
from __future__ import annotations

import http.client
import socket
import threading
import time
import urllib.parse
from dataclasses import dataclass

from transforms import safejson
from transforms.retry_after import retry_after_seconds
from transforms.search.types import SearchFailure, SearchResult

USER_AGENT = "cdtp-search-validation/0.1 (+https://github.com/; co-occurrence check)"
MAX_BYTES = 8 * 1024 * 1024  # a SearXNG page of results is a few kB
_CHUNK = 64 * 1024


class _Fail(Exception):
    """One request's failure: a FAILURE_REASONS reason and a wait hint (Retry-After)."""

    def __init__(self, reason: str, wait: float | None = None):
        super().__init__(reason)
        self.reason = reason
        self.wait = wait


@dataclass
class ClientStats:
    requests: int = 0
    retries: int = 0
    failures: int = 0


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


# Queries in a row that fail to reach the service (connection refused or
# timed out, after their retries) before the backend stops asking it.
UNREACHABLE_AFTER = 8


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
        max_bytes: int = MAX_BYTES,
        unreachable_after: int = UNREACHABLE_AFTER,
    ):
        parsed = urllib.parse.urlsplit(base_url)
        try:
            parsed.port  # noqa: B018 - raises for a port out of 0-65535 or not a number
        except ValueError:
            parsed = parsed._replace(netloc="")
        if parsed.scheme not in ("http", "https") or not parsed.netloc:
            raise ValueError(f"searxng URL must be http(s)://host[:port][/path], got {base_url!r}")
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_bytes = max_bytes
        self.retries = retries
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.extra_params = dict(extra_params or {})
        self.backend_id = f"searxng:{self.base_url}"
        self.stats = ClientStats()
        self._slots = threading.BoundedSemaphore(max_concurrency)
        self._lock = threading.Lock()
        self._sleep = sleep
        self.unreachable_after = unreachable_after
        self._unreachable_in_row = 0  # queries in a row that could not reach the service
        self._not_asked = 0  # queries since, failed without asking it

    def _url(self, query: str) -> str:
        params = {"q": query, "format": "json", **self.extra_params}
        return f"{self.base_url}/search?{urllib.parse.urlencode(params)}"

    def _once(self, url: str) -> tuple[bytes | None, str | None, float | None]:
        """One request: (body, None, None) or (None, failure reason, wait hint)."""
        with self._slots:
            with self._lock:
                self.stats.requests += 1
            try:
                return self._fetch(url), None, None
            except _Fail as fail:
                return None, fail.reason, fail.wait

    def _fetch(self, url: str) -> bytes:
        """GET `url` within self.timeout seconds overall and at most self.max_bytes of body."""
        parts = urllib.parse.urlsplit(url)
        deadline = time.monotonic() + self.timeout
        conn_cls = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
        conn = conn_cls(parts.hostname, parts.port, timeout=self.timeout)
        expired = threading.Event()

        def expire():  # the overall deadline: unblock whatever read is waiting
            expired.set()
            sock = conn.sock
            if sock is not None:
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass

        watchdog = threading.Timer(self.timeout, expire)
        watchdog.daemon = True
        watchdog.start()
        try:
            path = parts.path or "/"
            conn.request("GET", path + (f"?{parts.query}" if parts.query else ""),
                         headers={"User-Agent": USER_AGENT, "Accept": "application/json"})
            resp = conn.getresponse()
            if resp.status == 429 or resp.status >= 500:
                wait = retry_after_seconds(resp.getheader("Retry-After"), self.max_backoff)
                raise _Fail("http_429" if resp.status == 429 else "http_5xx", wait)
            if resp.status >= 300:
                raise _Fail("http_4xx")  # redirects are not followed: a search API does not move
            length = resp.getheader("Content-Length")
            if length and length.strip().isdigit() and int(length) > self.max_bytes:
                raise _Fail("too_large")
            chunks: list[bytes] = []
            size = 0
            while True:
                if time.monotonic() >= deadline:
                    raise _Fail("timeout")
                if conn.sock is not None:
                    conn.sock.settimeout(max(0.01, deadline - time.monotonic()))
                chunk = resp.read1(_CHUNK) if hasattr(resp, "read1") else resp.read(_CHUNK)
                if not chunk:
                    break
                size += len(chunk)
                if size > self.max_bytes:
                    raise _Fail("too_large")
                chunks.append(chunk)
            if expired.is_set():
                raise _Fail("timeout")
            if length and length.strip().isdigit() and size < int(length):
                raise _Fail("bad_response")  # the body was cut off before its Content-Length
            return b"".join(chunks)
        except _Fail:
            raise
        except (TimeoutError, socket.timeout):
            raise _Fail("timeout") from None
        except (http.client.IncompleteRead, http.client.BadStatusLine, http.client.LineTooLong,
                http.client.HTTPException) as exc:
            if expired.is_set():
                raise _Fail("timeout") from None
            if isinstance(exc, http.client.RemoteDisconnected):
                raise _Fail("connection_error") from None
            raise _Fail("bad_response") from None
        except (ConnectionError, OSError, ValueError):
            # ValueError: a reply http.client cannot parse (e.g. a bad chunk size)
            raise _Fail("timeout" if expired.is_set() else "connection_error") from None
        finally:
            watchdog.cancel()
            conn.close()

    def search(self, query: str, k: int) -> list[SearchResult]:
        if not query.strip():
            raise SearchFailure("empty_query")
        with self._lock:
            gone = self._unreachable_in_row >= self.unreachable_after
            if gone:
                # one query in every `unreachable_after` still asks it: a service back up is used again
                self._not_asked += 1
                gone = self._not_asked % self.unreachable_after != 0
            if gone:
                self.stats.failures += 1
        if gone:
            # a service that is down answers no later query either: each would
            # wait out its timeouts and retries (minutes for a build) to fail the same way
            raise SearchFailure("connection_error", f"not asked: {self.unreachable_after} queries in a row "
                                                    f"could not reach {self.base_url}")
        url = self._url(query)
        reason = "connection_error"
        for attempt in range(self.retries + 1):
            body, reason, wait = self._once(url)
            if body is not None:
                with self._lock:
                    self._unreachable_in_row = self._not_asked = 0
                return parse_results(body, k)
            if reason in ("http_4xx", "too_large") or attempt == self.retries:
                break
            with self._lock:
                self.stats.retries += 1
            delay = min(self.backoff * (2**attempt), self.max_backoff)
            self._sleep(max(delay, wait or 0.0))
        with self._lock:
            self.stats.failures += 1
            if reason in ("connection_error", "timeout"):
                self._unreachable_in_row += 1
            else:  # it answered, if badly: it is reachable
                self._unreachable_in_row = self._not_asked = 0
        raise SearchFailure(reason, f"after {attempt + 1} attempt(s): {query[:60]}")

    def close(self) -> None:
        pass
