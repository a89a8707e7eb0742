"""Claims in Redis that let several crawler processes share one frontier and one seen set.

Why claims and not scrapy-redis's shared request queue: its scheduler pops a
request from Redis before the download, so a crawler killed with -9 takes the
requests it held with it, and its dupe filter, keyed by request fingerprints,
knows nothing of our entry keys (lemma id, else normalised title). Here each
crawler keeps its depth-first queue and its kill-safe store (crawlers/store.py);
Redis only says who owns what, atomically (HSETNX), under the crawl's name:

* `<name>:links`   link key -> owner: the one crawler that fetches that link, claimed as
  its request is about to be downloaded (crawlers/middlewares/shared_claims.py), so
  crawlers that meet the same links split them between them;
* `<name>:entries` entry key -> owner: the one crawler that stores that entry.

The owner is the crawler's output directory. A crawler killed and restarted
on the same --out rebuilds its seen set and frontier from its own store as
before; the links and entries it had claimed but not stored are still its
own, so it requests them again, and no other crawler ever does. So every
reachable page is stored exactly once over all crawlers, whatever is killed.

The connection comes from scrapy-redis (`scrapy_redis.connection.get_redis`,
the redis-py client it configures for Scrapy).
"""
from __future__ import annotations

from pipeline.errors import CdtpError


class SharedClaims:
    def __init__(self, url: str, name: str, owner: str, client=None):
        self.links = f"{name}:links"
        self.entries = f"{name}:entries"
        self.owner = owner
        if client is None:
            try:
                from scrapy_redis.connection import get_redis
            except ImportError as exc:  # pragma: no cover - pinned dependency
                raise CdtpError(f"--redis needs scrapy-redis ({exc})") from None
            try:
                client = get_redis(url=url, decode_responses=True)
            except ValueError as exc:  # not a redis:// URL, a port that is no number
                raise CdtpError(f"--redis {url}: {exc}") from None
        self.r = client
        try:
            self.r.ping()
        except Exception as exc:  # noqa: BLE001 - any connection failure
            raise CdtpError(f"cannot reach Redis at {url}: {exc}") from None

    def _claim(self, table: str, key: str) -> bool:
        """True when `key` is (now, or already) this crawler's."""
        if self.r.hsetnx(table, key, self.owner):
            return True
        return self.r.hget(table, key) == self.owner

    def claim_link(self, key: str) -> bool:
        return self._claim(self.links, key)

    def claim_entry(self, key: str) -> bool:
        return self._claim(self.entries, key)
