"""Pure HTML -> RawEntry-dict parsers for Baike entry pages (Baidu old/current markup, Sogou).

`parse_entry(html, url)` picks the parser from the markup; `page_identity(html)`
tells which entry a page is without the caller knowing the markup.
"""
from __future__ import annotations

from typing import Any

from lxml import etree

from crawlers.parsers.common import decode_html, detect_source, page_identity, to_tree

__all__ = ["parse_entry", "page_identity", "markup_of", "decode_html"]


def markup_of(tree: etree._Element) -> str:
    """"sogou", "baidu_current" or "baidu_legacy": which parser understands this page."""
    if detect_source(tree) == "sogou":
        return "sogou"
    from crawlers.parsers import baidu_current

    return "baidu_current" if baidu_current.is_current(tree) else "baidu_legacy"


def parse_entry(html: str | bytes, url: str) -> dict[str, Any] | None:
    """Parse one entry page into RawEntry fields (without depth/seed/fetched_at).

    Returns None when the HTML is empty or unparseable. The caller decides
    whether the result has usable content (see `has_content`).
    """
    text = decode_html(html) if isinstance(html, bytes) else html
    tree = to_tree(text)
    if tree is None:
        return None
    kind = markup_of(tree)
    if kind == "sogou":
        from crawlers.parsers import sogou as mod
    elif kind == "baidu_current":
        from crawlers.parsers import baidu_current as mod
    else:
        from crawlers.parsers import baidu_legacy as mod
    return mod.parse(tree, url, text)


def has_content(entry: dict[str, Any] | None) -> bool:
    """An entry is worth emitting only with a title and a summary or an infobox."""
    return bool(entry and entry.get("title") and (entry.get("summary") or entry.get("infobox")))
