"""BaikeSpider: parses entry pages and asks the frontier what to request next.

The spider only parses. Extraction is the pure parsers in crawlers.parsers;
what to follow and at which depth is crawlers.frontier; writing is the
JsonlStorePipeline; anti-bot detection is a downloader middleware. Depth-first
ORDER comes from the LIFO scheduler queues set in crawlers.settings.

Every request carries `cdtp_key` (its link key), `cdtp_depth` and `cdtp_seed`.
Entry depth is managed here, not by Scrapy's DEPTH_LIMIT, because an entry
reached again through a shorter path is re-expanded from the shorter depth
without a new download (Scrapy's depth would be that of the re-expanding page).
"""
from __future__ import annotations

import logging
from datetime import datetime, timezone
from typing import Any, AsyncIterator, Iterable
from urllib.parse import urlsplit

import scrapy
from scrapy.exceptions import CloseSpider, IgnoreRequest
from scrapy.http import Response, TextResponse
from scrapy.spidermiddlewares.httperror import HttpError
from twisted.internet.error import (
    ConnectionRefusedError,
    DNSLookupError,
    TCPTimedOutError,
    TimeoutError,
)
from twisted.python.failure import Failure

from crawlers.frontier import Frontier, Offer
from crawlers.keys import link_key, norm_title
from crawlers.parsers import decode_html, has_content, parse_entry
from crawlers.parsers.senses import sense_links
from crawlers.seedlist import Seed
from crawlers.store import EntryStore

logger = logging.getLogger(__name__)

STAT = "cdtp/"


def error_reason(failure: Failure) -> str:
    """snake_case reason for a failed request (counted under errors in crawl-stats.json)."""
    exc = failure.value
    if isinstance(exc, HttpError):
        return f"http_{exc.response.status}"
    if getattr(exc, "cdtp_blocked", False):
        return "blocked"
    if isinstance(exc, IgnoreRequest):
        msg = str(exc)
        if "max redirections" in msg:
            return "redirect_loop"
        if "robots.txt" in msg:
            return "robots_disallowed"
        if "offsite" in msg:
            return "offsite"
        if "claimed by another crawler" in msg:
            return "claimed_elsewhere"
        return "ignored"
    name = type(exc).__name__
    if "Cancelled" in name or "larger than download max size" in str(exc):
        return "too_large"
    if isinstance(exc, (TimeoutError, TCPTimedOutError)):
        return "timeout"
    if isinstance(exc, DNSLookupError):
        return "dns_error"
    if isinstance(exc, ConnectionRefusedError):
        return "connection_refused"
    return "download_error_" + "".join("_" + c.lower() if c.isupper() else c for c in name).strip("_")


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def _header_charset(response: Response) -> str | None:
    ctype = response.headers.get(b"Content-Type", b"").decode("latin-1").lower()
    _, _, charset = ctype.partition("charset=")
    return charset.split(";")[0].strip().strip('"') or None


def _notes(entry: dict, response: Response) -> list[str]:
    """Stored, but worth knowing: missing parts, non-UTF-8 charset, HTML cut short."""
    notes = []
    if not entry["summary"]:
        notes.append("no_summary")
    if not entry["infobox"]:
        notes.append("no_infobox")
    charset = (_header_charset(response) or "").replace("-", "")
    if charset and charset not in ("utf8", "ascii"):
        notes.append(f"encoding_{charset}")
    if b"</html>" not in response.body[-4096:].lower():
        notes.append("truncated_html")
    return notes


class BaikeSpider(scrapy.Spider):
    name = "baike"

    def __init__(
        self,
        seeds: list[Seed],
        out_dir: str,
        base_url: str = "https://baike.baidu.com",
        allowed_domains: Iterable[str] = (),
        depth_limit: int | None = None,
        max_pages: int | None = None,
        claims: Any = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(**kwargs)
        self.seeds = list(seeds)
        self.base_url = base_url.rstrip("/")
        host = urlsplit(self.base_url).hostname or ""
        self.allowed_domains = sorted({host, *allowed_domains} - {""})
        self.frontier = Frontier(depth_limit=depth_limit, max_pages=max_pages, claims=claims)
        self.store = EntryStore(out_dir)
        # Seal shards a killed run left open before anything reads or appends.
        self.recovery = self.store.recover()
        self.restored = 0
        self.dup_on_disk = 0
        self._cap_hit = False
        self._restore()

    def _restore(self) -> None:
        """Rebuild the seen set from the stored entries (the output is the crawl state)."""
        for entry in self.store.iter_entries():
            self._rebase(entry)
            if self.frontier.restore(entry):
                self.restored += 1
            else:
                self.dup_on_disk += 1
        for key, canon in self.store.iter_aliases():
            self.frontier.add_alias(key, canon)

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> "BaikeSpider":
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.on_dropped, signal=scrapy.signals.request_dropped)
        return spider

    def on_dropped(self, request: scrapy.Request, spider: Any = None) -> None:
        """The scheduler refused a request: a redirect leading back to a URL already asked for."""
        if "cdtp_key" not in request.meta:
            return
        if request.meta.get("redirect_urls"):
            self._inc("errors/redirect_loop")
        else:
            self._inc("errors/dropped_duplicate_request")

    def _rebase(self, entry: dict) -> None:
        """Point a stored entry's same-site links at the current --base-url.

        Links are stored absolute; if the site moved (a local site restarted on
        another port, a mirror), resuming must still follow them.
        """
        old = _origin(entry.get("url") or "")
        new = _origin(self.base_url)
        if not old or old == new:
            return
        for link in entry.get("links") or []:
            url = link.get("url") or ""
            if url.startswith(old + "/"):
                link["url"] = new + url[len(old):]

    # -- helpers -----------------------------------------------------------------
    def _inc(self, key: str, n: int = 1) -> None:
        self.crawler.stats.inc_value(STAT + key, n)

    def _allowed(self, url: str) -> bool:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            return False
        host = parts.hostname.lower()
        return any(host == d or host.endswith("." + d) for d in self.allowed_domains)

    def _request(self, offer: Offer, **meta: Any) -> scrapy.Request:
        return scrapy.Request(
            offer.url,
            callback=self.parse,
            errback=self.on_error,
            meta={"cdtp_key": offer.key, "cdtp_depth": offer.depth, "cdtp_seed": offer.seed, **meta},
        )

    def _requests(self, offers: list[Offer], **meta: Any) -> Iterable[scrapy.Request]:
        for offer in offers:
            if not self._allowed(offer.url):
                self._inc("links_offsite_skipped")
                continue
            yield self._request(offer, **meta)

    # -- start ---------------------------------------------------------------------
    async def start(self) -> AsyncIterator[Any]:
        self.crawler.stats.set_value(STAT + "restored_entries", self.restored)
        if self.recovery.truncated_lines_dropped:
            self._inc("truncated_lines_dropped", self.recovery.truncated_lines_dropped)
        if self.dup_on_disk:
            self._inc("duplicates_on_disk", self.dup_on_disk)
        if self.restored:
            logger.info("resuming: %d entries already stored in %s", self.restored, self.store.out_dir)
        if self.frontier.max_pages is not None and self.restored >= self.frontier.max_pages:
            logger.info("max-pages (%d) already reached by stored entries", self.frontier.max_pages)
            return
        for seed in self.seeds:
            offers = self.frontier.offer(seed.url(self.base_url), 0, seed.label, key=seed.key)
            for request in self._requests(offers, cdtp_want_subtitle=seed.subtitle):
                yield request

    # -- parse -----------------------------------------------------------------------
    def parse(self, response: Response, **kwargs: Any) -> Iterable[Any]:
        meta = response.meta
        key, depth, seed = meta["cdtp_key"], meta["cdtp_depth"], meta.get("cdtp_seed")
        if not isinstance(response, TextResponse):
            self._inc("errors/not_html")
            return
        # Decode ourselves: declared charset, then <meta>, then UTF-8, then GB18030, so an
        # undeclared GBK page is read correctly rather than guessed (see parsers.common).
        try:
            entry = parse_entry(decode_html(response.body, _header_charset(response)), response.url)
        except Exception:  # a parser bug must cost one page, never the crawl
            logger.exception("parser failed on %s", response.url)
            self._inc("errors/parser_exception")
            return
        if entry is None:
            self._inc("errors/unparseable")
            return
        if not has_content(entry):
            self._inc("errors/no_content")
            return
        want = meta.get("cdtp_want_subtitle")
        if want and norm_title(entry.get("subtitle")) != norm_title(want):
            yield from self._resolve_sense(response, entry, want, depth, seed)
            return
        urls = [response.url, *meta.get("redirect_urls", [])]
        entry["seed"] = seed
        status, depth, offers = self.frontier.accept(entry, key, depth, urls)
        if status == "cap":
            self._inc("max_pages_dropped")
            if not self._cap_hit:
                self._cap_hit = True
                raise CloseSpider("max_pages")
            return
        if status == "elsewhere":
            self._inc("duplicates_elsewhere")
            return
        canon = self.frontier.aliases.get(key)
        for k in sorted({key, *map(link_key, urls)}):
            if canon and k != canon:
                self.store.add_alias(k, canon)
        if status == "duplicate":
            self._inc("duplicates_skipped")
        else:
            self._inc("parsed")
            for note in _notes(entry, response):
                self._inc(f"notes/{note}")
            entry["depth"] = depth
            entry["fetched_at"] = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
            yield entry
            if self.frontier.max_pages is not None and self.frontier.stored_count >= self.frontier.max_pages:
                self._cap_hit = True
                raise CloseSpider("max_pages")
        yield from self._requests(offers)

    def _resolve_sense(self, response: Response, entry: dict, want: str, depth: int, seed: str | None) -> Iterable[Any]:
        """A seed asked for one sense of a polysemous name and got another: follow the right one."""
        text = decode_html(response.body, _header_charset(response))
        senses = [s for s in sense_links(text, entry["title"], response.url) if norm_title(s["subtitle"]) == norm_title(want)]
        if not senses:
            self._inc("errors/seed_sense_not_found")
            logger.warning("seed %s（%s）: no such sense linked from %s", entry["title"], want, response.url)
            return
        self._inc("notes/seed_sense_redirected")
        yield from self._requests(self.frontier.offer(senses[0]["url"], depth, seed))

    def on_error(self, failure: Failure) -> None:
        reason = error_reason(failure)
        if reason == "blocked":
            return  # counted by the anti-bot middleware
        self._inc(f"errors/{reason}")
        logger.info("request failed (%s): %s", reason, failure.request.url if hasattr(failure, "request") else "")
