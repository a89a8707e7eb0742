"""AntiBotMiddleware: verification pages are counted as blocked, backed off, never parsed.

Baidu answers an over-eager client with a "百度安全验证" page (HTTP 200) or a
redirect to a captcha host (wappass.baidu.com/static/captcha/...); Sogou with
an "antispider" page. Parsing such a page would emit an empty or bogus entry,
so this middleware:

* sees verification pages (AntiBotMiddleware, priority 40: its
  process_response runs after decompression and redirects) and redirects to
  captcha URLs (CaptchaRedirectMiddleware, priority 660: it sees the 3xx before
  RedirectMiddleware and the off-site checks, since a captcha host such as
  wappass.baidu.com is usually not an allowed domain);
* counts them under `cdtp/blocked`;
* backs off: the download slot's delay is doubled (at least
  CDTP_BLOCK_BACKOFF seconds, at most CDTP_BLOCK_BACKOFF_MAX);
* retries the original request up to CDTP_BLOCK_RETRIES times, then drops it
  with an IgnoreRequest the spider's errback recognises as already counted.
"""
from __future__ import annotations

import logging
import re
from typing import Any
from urllib.parse import urlsplit

from scrapy.exceptions import IgnoreRequest
from scrapy.http import Request, Response

logger = logging.getLogger(__name__)

_CAPTCHA_URL_RE = re.compile(r"captcha|wappass\.baidu\.com|antispider|/verify\b|seccode", re.I)
_TITLE_RE = re.compile(r"<title[^>]*>([^<]*)</title>", re.I)
_BLOCK_WORDS_RE = re.compile(r"安全验证|验证码|访问异常|captcha|antispider", re.I)


class BlockedPage(IgnoreRequest):
    cdtp_blocked = True


def block_reason(url: str, status: int, body_head: str) -> str | None:
    """Why a response is a verification page, or None. Pure, for unit tests."""
    if _CAPTCHA_URL_RE.search(url):
        return "captcha_url"
    if status in (301, 302, 303, 307, 308):
        return None
    m = _TITLE_RE.search(body_head)
    title = m.group(1) if m else ""
    if "百科" in title:
        return None  # an entry page ("验证码_百度百科" is an entry about captchas)
    if _BLOCK_WORDS_RE.search(title):
        return "verification_page"
    if "百度安全验证" in body_head and len(body_head) < 20000:
        return "verification_page"
    return None


class AntiBotMiddleware:
    def __init__(self, crawler: Any) -> None:
        self.crawler = crawler
        s = crawler.settings
        self.backoff = s.getfloat("CDTP_BLOCK_BACKOFF", 30.0)
        self.backoff_max = s.getfloat("CDTP_BLOCK_BACKOFF_MAX", 600.0)
        self.retries = s.getint("CDTP_BLOCK_RETRIES", 2)

    @classmethod
    def from_crawler(cls, crawler: Any) -> "AntiBotMiddleware":
        return cls(crawler)

    def _blocked(self, request: Request, reason: str) -> Request:
        stats = self.crawler.stats
        stats.inc_value("cdtp/blocked")
        stats.inc_value(f"cdtp/blocked_by/{reason}")
        self._back_off(request)
        original = request.meta.get("redirect_urls", [request.url])[0]
        tries = request.meta.get("cdtp_block_tries", 0)
        logger.warning("blocked (%s) at %s; backing off", reason, request.url)
        if tries < self.retries and "cdtp_key" in request.meta:
            meta = {k: v for k, v in request.meta.items() if k.startswith("cdtp_")}
            meta["cdtp_block_tries"] = tries + 1
            return request.replace(url=original, meta=meta, dont_filter=True)
        raise BlockedPage(f"blocked by verification page ({reason}): {original}")

    def _back_off(self, request: Request) -> None:
        engine = getattr(self.crawler, "engine", None)
        downloader = getattr(engine, "downloader", None)
        if downloader is None:
            return
        key = request.meta.get("download_slot") or urlsplit(request.url).hostname
        slot = downloader.slots.get(key)
        if slot is not None:
            slot.delay = min(max(slot.delay * 2, self.backoff), self.backoff_max)
            self.crawler.stats.set_value("cdtp/backoff_delay", slot.delay)

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Any:
        if "cdtp_key" not in request.meta:
            return response  # robots.txt and other non-entry downloads
        head = response.body[:65536].decode(getattr(response, "encoding", None) or "utf-8", "replace")
        reason = block_reason(response.url, response.status, head)
        if reason:
            return self._blocked(request, reason)
        return response


class CaptchaRedirectMiddleware(AntiBotMiddleware):
    """The 3xx half of anti-bot detection: a redirect whose Location is a captcha page."""

    def process_response(self, request: Request, response: Response, spider: Any = None) -> Any:
        if response.status not in (301, 302, 303, 307, 308) or "cdtp_key" not in request.meta:
            return response
        location = response.headers.get(b"Location", b"").decode("latin-1")
        if location and _CAPTCHA_URL_RE.search(location):
            return self._blocked(request, "captcha_redirect")
        return response
