"""Canonical entry keys: how the crawler knows two URLs or two pages are the same entry.

An entry is identified by its lemma id when the site gives one (Baidu
`/item/<name>/<id>`, Sogou `/v<id>.htm`), else by its normalised title (plus
the polysemy subtitle, so two senses of one name stay apart). A link is keyed
the same way before it is fetched: `/item/<name>/<id>` by its id, a bare
`/item/<name>` by its title, which only matches an entry without a subtitle
(the unambiguous sense) or an entry already fetched through that very URL.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Any
from urllib.parse import unquote, urlsplit

from crawlers.parsers.common import item_path_parts

_SPACE_RE = re.compile(r"\s+")


def norm_title(title: str | None) -> str:
    """NFKC, spaces removed, lower case: `上海 大学`, `上海大学 ` and full-width forms collide."""
    if not title:
        return ""
    return _SPACE_RE.sub("", unicodedata.normalize("NFKC", title)).lower()


def _namespace(url: str) -> str:
    path = urlsplit(url).path
    return "item" if path.startswith("/item/") else "sogou"


def link_key(url: str) -> str:
    """Key of an entry link before it is fetched (lemma id, else title, else the URL path)."""
    title, lemma_id = item_path_parts(url)
    if lemma_id:
        return f"id:{_namespace(url)}:{lemma_id}"
    if title:
        return f"title:{norm_title(title)}"
    parts = urlsplit(url)
    return f"url:{parts.hostname}{unquote(parts.path)}?{parts.query}"


def link_title(url: str) -> str:
    """Normalised title part of an entry link (`/item/<title>[/<id>]`), or ""."""
    title, _ = item_path_parts(url)
    return norm_title(title) if title else ""


def entry_ident(entry: dict[str, Any]) -> str:
    """`title|subtitle`, normalised: what a lemma id must keep naming to be the same entry."""
    return f"{norm_title(entry.get('title'))}|{norm_title(entry.get('subtitle'))}"


def seed_key(title: str, subtitle: str | None) -> str:
    if subtitle:
        return f"title:{norm_title(title)}|{norm_title(subtitle)}"
    return f"title:{norm_title(title)}"


def entry_keys(entry: dict[str, Any]) -> list[str]:
    """Keys of a parsed entry; the first is its canonical key.

    Besides the canonical key, an entry answers to `title:<t>|<subtitle>` and,
    when it has no subtitle, to the bare `title:<t>` that `/item/<t>` links use.
    """
    ns = "sogou" if entry.get("source") == "sogou" else "item"
    title = norm_title(entry.get("title"))
    subtitle = norm_title(entry.get("subtitle"))
    keys: list[str] = []
    if entry.get("lemma_id"):
        keys.append(f"id:{ns}:{entry['lemma_id']}")
    if subtitle:
        keys.append(f"title:{title}|{subtitle}")
    else:
        keys.append(f"title:{title}")
    return keys
