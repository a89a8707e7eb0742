"""OffsiteRedirectMiddleware: a redirect to a host outside the allowed domains is an error, counted.

Scrapy filters off-site requests when they are scheduled, and for a redirect
target that filtering is silent (no errback, no drop signal), so a page that
redirects off-site would vanish from the crawl statistics. This middleware
looks at 3xx responses before RedirectMiddleware (priority above 600) and
turns an off-site or non-http(s) Location into an IgnoreRequest the spider's
errback counts as `offsite`. The target is never fetched.
"""
from __future__ import annotations

from typing import Any
from urllib.parse import urljoin, urlsplit

from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response


class OffsiteRedirect(IgnoreRequest):
    pass


class OffsiteRedirectMiddleware:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> "OffsiteRedirectMiddleware":
        return cls(crawler)

    def _allowed(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False
        domains = getattr(self.crawler.spider, "allowed_domains", None) or []
        host = parts.hostname.lower()
        return not domains or any(host == d or host.endswith("." + d) for d in domains)

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Any:
        if response.status not in (301, 302, 303, 307, 308) or "cdtp_key" not in request.meta:
            return response
        location = response.headers.get(b"Location")
        if not location:
            return response
        target = urljoin(request.url, location.decode("latin-1"))
        if self._allowed(target):
            return response
        self.crawler.stats.inc_value("cdtp/offsite_redirects")
        raise OffsiteRedirect(f"offsite redirect to {target}")
