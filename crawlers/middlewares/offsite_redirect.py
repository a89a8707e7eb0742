"""OffsiteRedirectMiddleware: a redirect to a host:port the crawl does not allow is an error, counted.

Scrapy filters off-site requests when they are scheduled, and for a redirect
target that filtering is silent (no errback, no drop signal), so a page that
redirects off-site would vanish from the crawl statistics. This middleware
looks at 3xx responses before RedirectMiddleware (priority above 600) and
turns a Location the spider's HostPolicy refuses (another host, another port
of an allowed host, a private or loopback address, a non-http(s) scheme) into
an IgnoreRequest the spider's errback counts as `offsite` or
`private_address`. The target is never fetched.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urljoin

from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response


class OffsiteRedirect(IgnoreRequest):
    def __init__(self, reason: str, target: str) -> None:
        super().__init__(f"offsite redirect ({reason}) to {target}")
        self.cdtp_reason = "private_address" if reason == "private_address" else "offsite"


class OffsiteRedirectMiddleware:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> "OffsiteRedirectMiddleware":
        return cls(crawler)

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Any:
        if response.status not in (301, 302, 303, 307, 308) or "cdtp_key" not in request.meta:
            return response
        location = response.headers.get(b"Location")
        if not location:
            return response
        target = urljoin(request.url, location.decode("latin-1"))
        policy = getattr(self.crawler.spider, "host_policy", None)
        reason = policy.refusal(target) if policy is not None else None
        if reason is None:
            return response
        self.crawler.stats.inc_value("cdtp/offsite_redirects")
        raise OffsiteRedirect(reason, target)
