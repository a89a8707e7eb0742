"""Claim a link in the shared frontier when it is about to be fetched (crawlers/shared_frontier.py).

Why at fetch time and not when the link is found: every crawler of a shared
frontier starts from the same seeds and meets many of the same links; claiming
on discovery would let the first crawler to start claim every seed and leave
the others idle. Claiming here, as each crawler's depth-first queue hands out
its next request, splits the work between whoever is free, and a link is still
fetched by one crawler only. A request another crawler owns is ignored
(`errors/claimed_elsewhere` in crawl-stats.json). No-op for a crawler alone.
"""
from __future__ import annotations

from typing import Any

from scrapy.exceptions import IgnoreRequest


class SharedClaimsMiddleware:
    def process_request(self, request: Any, spider: Any = None) -> None:
        frontier = getattr(spider, "frontier", None)
        claims = getattr(frontier, "claims", None)
        key = request.meta.get("cdtp_key")
        if claims is None or key is None:
            return None
        if not claims.claim_link(key):
            raise IgnoreRequest(f"claimed by another crawler: {request.url}")
        return None
