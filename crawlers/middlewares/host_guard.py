"""HostGuardMiddleware: no request leaves for a host:port the crawl does not allow.

The spider filters the links it offers, and OffsiteRedirectMiddleware the
redirects it sees, but any request (a retry, a robots.txt fetch, a request a
future component makes) still passes here first (priority 30, before
robots.txt and the downloader). A refused request fails with an IgnoreRequest
carrying its reason (`offsite`, `private_address`, `bad_scheme`), which the
spider's errback counts under errors/. The decision is
`crawlers.hosts.HostPolicy.refusal`, the same one the spider uses.
"""
from __future__ import annotations

from typing import Any

from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request


class RefusedHost(IgnoreRequest):
    def __init__(self, reason: str, url: str) -> None:
        super().__init__(f"refused ({reason}): {url}")
        self.cdtp_reason = reason


class HostGuardMiddleware:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler

    @classmethod
    def from_crawler(cls, crawler: Any) -> "HostGuardMiddleware":
        return cls(crawler)

    def process_request(self, request: Request, spider: Any = None) -> None:
        policy = getattr(self.crawler.spider, "host_policy", None)
        if policy is None:
            return None
        reason = policy.refusal(request.url)
        if reason is not None:
            self.crawler.stats.inc_value(f"cdtp/refused/{reason}")
            raise RefusedHost(reason, request.url)
        return None
