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
from crawlers.hosts import HostPolicy
from crawlers.keys import link_key, norm_title
from crawlers.parsers import decode_html, read_page
from crawlers.parsers.senses import sense_links
from crawlers.seedlist import Seed
from crawlers.store import EntryStore

logger = logging.getLogger(__name__)

STAT = "cdtp/"


def error_reason(failure: Failure) -> str:
    """snake_case reason for a failed request (counted under errors in crawl-stats.json)."""
    exc = failure.value
    own = getattr(exc, "cdtp_reason", None)  # our middlewares and resolver name their reason
    if isinstance(own, str):
        return own
    if isinstance(exc, HttpError):
        return f"http_{exc.response.status}"
    if getattr(exc, "cdtp_blocked", False):
        return "blocked"
    if isinstance(exc, IgnoreRequest):
        msg = str(exc)
        if "exceeded DOWNLOAD_MAXSIZE" in msg or "larger than download max size" in msg:
            return "too_large"  # a compressed body that decompresses past the cap (gzip bomb)
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
    if isinstance(exc, (TimeoutError, TCPTimedOutError)) or "Timeout" in name or "TimedOut" in name:
        return "timeout"
    if "DataLoss" in name:
        return "data_loss"  # the body ended before its announced length
    if isinstance(exc, DNSLookupError) or "Resolve" in name:
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
        # host:port allowances and the private-address rule (crawlers.hosts); Scrapy's
        # own offsite filter sees the host names only.
        self.host_policy = HostPolicy.build(self.base_url, list(allowed_domains))
        self.allowed_domains = self.host_policy.host_names
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
        for key, _reason in self.store.iter_failures():
            self.frontier.mark_dead(key)

    @classmethod
    def from_crawler(cls, crawler: Any, *args: Any, **kwargs: Any) -> "BaikeSpider":
        spider = super().from_crawler(crawler, *args, **kwargs)
        crawler.signals.connect(spider.on_dropped, signal=scrapy.signals.request_dropped)
        return spider

    def on_dropped(self, request: scrapy.Request, spider: Any = None) -> None:
        """The scheduler refused a request: a redirect leading back to a URL already asked for."""
        if "cdtp_key" not in request.meta:
            return
        self.frontier.fail(request.meta["cdtp_key"])  # it will not be answered: no longer pending
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

    def _refusal(self, url: str) -> str | None:
        return self.host_policy.refusal(url)

    def _request(self, offer: Offer, **meta: Any) -> scrapy.Request:
        return scrapy.Request(
            offer.url,
            callback=self.parse,
            errback=self.on_error,
            meta={"cdtp_key": offer.key, "cdtp_depth": offer.depth, "cdtp_seed": offer.seed, **meta},
        )

    def _requests(self, offers: list[Offer], **meta: Any) -> Iterable[scrapy.Request]:
        if self.frontier.dead_skipped:
            self.crawler.stats.set_value(STAT + "known_failures_skipped", self.frontier.dead_skipped)
        for offer in offers:
            reason = self._refusal(offer.url)
            if reason is not None:
                self.frontier.fail(offer.key)
                self._inc("links_offsite_skipped")
                self._inc(f"links_refused/{reason}")
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
            self.frontier.fail(key)
            self._inc("errors/not_html")
            return
        # Decode ourselves: declared charset, then <meta>, then UTF-8, then GB18030, so an
        # undeclared GBK page is read correctly rather than guessed (see parsers.common).
        entry, reason = read_page(response.body, _header_charset(response), response.url)
        if entry is None:
            self.frontier.fail(key)
            self._inc(f"errors/{reason}")
            if reason == "html_too_deep":
                logger.warning("HTML nested too deep to parse whole: %s", response.url)
            return
        want = meta.get("cdtp_want_subtitle")
        if want and norm_title(entry.get("subtitle")) != norm_title(want):
            self.frontier.fail(key)
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
            if status == "conflict":  # its lemma id names another entry: so must not its URL
                entry["url"] = response.url
                self._inc("notes/lemma_id_conflict")
                logger.warning("%s claims a lemma id already held by another entry; stored under its title", response.url)
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
        request = getattr(failure, "request", None)
        if reason == "dns_error" and request is not None:
            from crawlers.hosts import canonical_host
            from crawlers.resolver import REFUSED_NAMES

            if canonical_host(urlsplit(request.url).hostname or "") in REFUSED_NAMES:
                reason = "private_address"  # resolved, but to an address the crawl may not reach
        key = request.meta.get("cdtp_key") if request is not None else None
        if key is not None:
            self.frontier.fail(key)  # no longer pending, whatever the reason
            self.store.add_failure(key, request.url, reason)  # kept only when permanent (404, 410)
        if reason == "blocked":
            return  # counted by the anti-bot middleware
        self._inc(f"errors/{reason}")
        logger.info("request failed (%s): %s", reason, request.url if request is not None else "")
