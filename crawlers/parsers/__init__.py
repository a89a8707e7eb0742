"""Pure HTML -> RawEntry-dict parsers for Baike entry pages (Baidu old/current markup, Sogou).

`parse_entry(html, url)` picks the parser from the markup; `page_identity(html)`
tells which entry a page is without the caller knowing the markup.
"""
from __future__ import annotations

from typing import Any

from lxml import etree

from crawlers.parsers.common import canonical_entry_url, decode_html, detect_source, to_tree

__all__ = ["parse_entry", "page_identity", "markup_of", "decode_html", "read_page"]


def markup_of(text: str) -> str:
    """"sogou", "baidu_legacy" or "baidu_current": which parser understands this page.

    Decided on the raw text (substring tests run at C speed, an XPath scan of a
    400 KB page does not): Sogou by its canonical host or abstract hook, the
    older Baidu markup by its class names, else the current Baidu markup.
    """
    from crawlers.parsers import baidu_legacy

    # Older Baidu first: its markers sit early in the page, so the test stops early.
    if baidu_legacy.is_legacy_text(text):
        return "baidu_legacy"
    if "baike.sogou.com" in text[:20000] or 'id="j-shareAbstract"' in text or '<h1 id="title"' in text:
        return "sogou"
    return "baidu_current"


def page_identity(html: str | bytes | etree._Element) -> tuple[str, str | None, str | None, str | None]:
    """(source, title, subtitle, lemma_id) of a saved or fetched entry page.

    Works for both Baidu markups and Sogou. The lemma id is the one Baidu puts
    in `/item/<title>/<id>` links (`newLemmaId` in the old page scripts, the
    canonical link or `"lemmaId"` page data in the current one), so a site
    server and the crawler's dedup agree on entry identity. Title is None when
    the page has no entry heading (not an entry page).
    """
    if isinstance(html, etree._Element):
        tree, text = html, None
        from crawlers.parsers import baidu_current

        kind = "sogou" if detect_source(tree) == "sogou" else (
            "baidu_current" if baidu_current.is_current(tree) else "baidu_legacy"
        )
    else:
        text = decode_html(html) if isinstance(html, bytes) else html
        kind = markup_of(text) if text else "baidu_legacy"
        tree = to_tree(text)
    if tree is None:
        return ("baidu", None, None, None)
    if kind == "sogou":
        from crawlers.parsers import sogou

        title, subtitle = sogou.title_and_subtitle(tree)
        return "sogou", title, subtitle, sogou.lemma_id(tree)
    if kind == "baidu_current":
        from crawlers.parsers import baidu_current

        title, subtitle = baidu_current.title_and_subtitle(tree)
        return "baidu", title, subtitle, baidu_current.lemma_id(tree, text)
    from crawlers.parsers import baidu_legacy

    title, subtitle = baidu_legacy.title_and_subtitle(tree)
    return "baidu", title, subtitle, baidu_legacy.lemma_id(tree, text)


def parse_entry(html: str | bytes, url: str) -> dict[str, Any] | None:
    """Parse one entry page into RawEntry fields (without depth/seed/fetched_at).

    The entry's `url` is its canonical form (common.canonical_entry_url), so
    the crawl order never decides it. Returns None when the HTML is empty or
    unparseable. The caller decides whether the result has usable content
    (see `has_content`).
    """
    text = decode_html(html) if isinstance(html, bytes) else html
    if not text:
        return None
    kind = markup_of(text)
    if kind == "baidu_legacy":
        from crawlers.parsers import baidu_legacy

        entry = baidu_legacy.parse_html(text, url)
    else:
        if kind == "sogou":
            from crawlers.parsers import sogou as mod
        else:
            from crawlers.parsers import baidu_current as mod
        tree = to_tree(text)
        entry = None if tree is None else mod.parse(tree, url, text)
    if entry:
        entry["url"] = canonical_entry_url(entry["url"], entry.get("lemma_id"))
    return entry


def has_content(entry: dict[str, Any] | None) -> bool:
    """An entry is worth emitting only with a title and a summary or an infobox."""
    return bool(entry and entry.get("title") and (entry.get("summary") or entry.get("infobox")))


def read_page(body: bytes, declared_charset: str | None, url: str) -> tuple[dict[str, Any] | None, str | None]:
    """A fetched page -> (entry, None), or (None, reason) saying why it yields no entry.

    The one decision the spider makes about a page body, kept pure so hostile
    input (fuzzed, truncated, mislabelled, deeply nested, not Baike at all) can
    be thrown at it directly. Reasons: `html_too_deep` (nested past what the
    parser keeps whole: refused rather than stored without its infobox),
    `parser_exception` (a parser bug: costs this page only), `unparseable`,
    `no_content` (no title, or neither summary nor infobox).
    """
    import logging

    from crawlers.parsers.common import HtmlTooDeep

    try:
        entry = parse_entry(decode_html(body, declared_charset), url)
    except HtmlTooDeep:
        return None, "html_too_deep"
    except Exception:  # noqa: BLE001 - a parser bug must cost one page, never the crawl
        logging.getLogger(__name__).exception("parser failed on %s", url)
        return None, "parser_exception"
    if entry is None:
        return None, "unparseable"
    if not has_content(entry):
        return None, "no_content"
    return entry, None
