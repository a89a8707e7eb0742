"""RetryAfterMiddleware: a 429 or 503 is retried only after the wait the server asked for.

Scrapy's RetryMiddleware retries a 429 at once, so a server saying
`Retry-After: 3600` was asked twice more within a second. This middleware
sees 429/503 responses of entry requests first (priority 560, above
RetryMiddleware's 550) and:

* reads Retry-After, in seconds or as an HTTP date (`retry_after_seconds`);
  without one, it waits CDTP_RETRY_BACKOFF * 2**tries seconds;
* if the wait is longer than CDTP_RETRY_AFTER_MAX seconds, gives the request up
  at once, counted as `retry_after_too_long`: the server does not want us
  back within this crawl's patience, and asking again sooner is impolite;
* otherwise waits (without blocking other hosts), slows the host's download
  slot down by the same amount, and retries, up to RETRY_TIMES; then the
  response goes on as an HTTP error (`http_429`, `http_503`), with Scrapy's own
  retry switched off for it.

Counted under `retry_after/`: responses, retried, waited_seconds, too_long.
"""
from __future__ import annotations

import time
from email.utils import parsedate_to_datetime
from typing import Any
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response

RETRY_STATUSES = (429, 503)


class RetryAfterTooLong(IgnoreRequest):
    cdtp_reason = "retry_after_too_long"


def retry_after_seconds(value: str | bytes | None, now: float | None = None) -> float | None:
    """Seconds to wait from a Retry-After value; None when absent or unreadable. Pure."""
    if value is None:
        return None
    if isinstance(value, bytes):
        value = value.decode("latin-1", "replace")
    value = value.strip()
    if not value:
        return None
    if value.isdigit():
        return float(value)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when is None or when.tzinfo is None:
        return None
    return max(0.0, when.timestamp() - (time.time() if now is None else now))


class RetryAfterMiddleware:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        s = crawler.settings
        self.max_wait = s.getfloat("CDTP_RETRY_AFTER_MAX", 120.0)
        self.backoff = s.getfloat("CDTP_RETRY_BACKOFF", 1.0)
        self.retries = s.getint("RETRY_TIMES", 2)

    @classmethod
    def from_crawler(cls, crawler: Any) -> "RetryAfterMiddleware":
        return cls(crawler)

    def _inc(self, key: str, n: float = 1) -> None:
        self.crawler.stats.inc_value(f"cdtp/retry_after/{key}", n)

    def _slow_slot(self, request: Request, wait: float) -> None:
        downloader = getattr(getattr(self.crawler, "engine", None), "downloader", None)
        if downloader is None:
            return
        key = request.meta.get("download_slot") or urlsplit(request.url).hostname
        slot = downloader.slots.get(key)
        if slot is not None:
            slot.delay = max(slot.delay, wait)

    async def process_response(self, request: Request, response: Response, spider: Any = None) -> Any:
        if response.status not in RETRY_STATUSES or "cdtp_key" not in request.meta or request.meta.get("dont_retry"):
            return response
        self._inc("responses")
        tries = request.meta.get("cdtp_retry_after_tries", 0)
        wait = retry_after_seconds(response.headers.get(b"Retry-After"))
        if wait is None:
            wait = self.backoff * 2**tries
        if wait > self.max_wait:
            self._inc("too_long")
            raise RetryAfterTooLong(
                f"HTTP {response.status} asks to wait {wait:.0f} s (more than CDTP_RETRY_AFTER_MAX {self.max_wait:.0f} s): {request.url}"
            )
        if tries >= self.retries:
            request.meta["dont_retry"] = True  # Scrapy's RetryMiddleware must not retry it again at once
            return response
        self._slow_slot(request, wait)
        if wait > 0:
            from twisted.internet import reactor
            from twisted.internet.task import deferLater
            from scrapy.utils.defer import maybe_deferred_to_future

            await maybe_deferred_to_future(deferLater(reactor, wait, lambda: None))
        self._inc("retried")
        self._inc("waited_seconds", round(wait, 3))
        meta = dict(request.meta)
        meta["cdtp_retry_after_tries"] = tries + 1
        return request.replace(meta=meta, dont_filter=True)
