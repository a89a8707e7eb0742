"""Baidu Baike, current markup (2023 onwards).

Class names carry build hashes (`lemmaTitle_qmNnR`, `itemName_A9AXb`) that
change with every site release, so this parser matches the stable `J-*` hooks
exactly and the hashed classes by prefix only:

* title: `h1.J-lemma-title`; polysemy subtitle in the `lemmaDesc*` element
  beside it (or `"lemmaDesc"` in the page data);
* summary: `div.J-summary`, one `para*` child per paragraph, citations are
  `sup` elements;
* infobox: `dt.basicInfoItem.itemName` / `dd.basicInfoItem.itemValue` pairs;
* body paragraphs: under `div.J-lemma-content` (followed for links);
* tags: `tagItem*` elements inside the `lemmaTagList*`/`J-tag` block.
"""
from __future__ import annotations

import json
import re
from typing import Any

from lxml import etree

from crawlers.parsers.common import (
    canonical_lemma_id,
    clean_inline,
    clean_name,
    collect_links,
    infobox_item,
    paragraphs_text,
    raw_text,
    script_lemma_id,
    strip_subtitle,
    text_of,
    unique_tags,
)

_LEMMA_DESC_RE = re.compile(r'"lemmaDesc"\s*:\s*("(?:[^"\\]|\\.)*")')


def _prefix(tag: str, *prefixes: str) -> str:
    """XPath step: `tag` with, for each prefix, a class token starting with it."""
    conds = " and ".join(f"contains(concat(' ', normalize-space(@class)), ' {p}')" for p in prefixes)
    return f"{tag}[{conds}]"


_TITLE = "//" + _prefix("h1", "J-lemma-title")
_SUMMARY = "//" + _prefix("div", "J-summary")
_CONTENT = "//" + _prefix("div", "J-lemma-content")
_NAME = _prefix("dt", "basicInfoItem", "itemName")
_VALUE = _prefix("dd", "basicInfoItem", "itemValue")


def is_current(tree: etree._Element) -> bool:
    return bool(tree.xpath(_TITLE + " | " + _SUMMARY))


def title_and_subtitle(tree: etree._Element) -> tuple[str | None, str | None]:
    h1s = tree.xpath(_TITLE)
    if not h1s:
        return None, None
    h1 = h1s[0]
    title = clean_inline(text_of(h1)) or None
    subtitle = None
    parent = h1.getparent()
    scope = parent if parent is not None else tree
    desc = scope.xpath(".//" + _prefix("*", "lemmaDesc"))
    if desc:
        subtitle = strip_subtitle(text_of(desc[0]))
    else:
        m = _LEMMA_DESC_RE.search("\n".join(tree.xpath("//script/text()")))
        if m:
            try:
                subtitle = strip_subtitle(json.loads(m.group(1)))
            except ValueError:
                subtitle = None
    return title, subtitle


def lemma_id(tree: etree._Element, text: str | None = None) -> str | None:
    return canonical_lemma_id(tree) or script_lemma_id(tree, text)


def summary(tree: etree._Element) -> str:
    return paragraphs_text(el for box in tree.xpath(_SUMMARY) for el in box.xpath("./" + _prefix("div", "para")) or [box])


def infobox(tree: etree._Element, base_url: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for dt in tree.xpath("//" + _NAME):
        name = clean_name(raw_text(dt))
        dd = dt.getnext()
        while dd is not None and not isinstance(dd.tag, str):
            dd = dd.getnext()
        if not name or dd is None or not dd.xpath("self::" + _VALUE):
            continue
        item = infobox_item(name, dd, base_url)
        if item:
            items.append(item)
    return items


def tags(tree: etree._Element) -> list[str]:
    return unique_tags(tree.xpath("//" + _prefix("*", "tagItem")))


def links(tree: etree._Element, base_url: str) -> list[dict[str, str]]:
    roots = tree.xpath(_SUMMARY + " | //" + _prefix("div", "J-basic-info") + " | " + _CONTENT)
    if not roots:
        roots = [tree]
    anchors = (a for root in roots for a in root.iter("a"))
    return collect_links(anchors, base_url)


def parse(tree: etree._Element, url: str, text: str | None = None) -> dict[str, Any]:
    title, subtitle = title_and_subtitle(tree)
    return {
        "url": url,
        "source": "baidu",
        "lemma_id": lemma_id(tree, text),
        "title": title,
        "subtitle": subtitle,
        "summary": summary(tree),
        "infobox": infobox(tree, url),
        "links": links(tree, url),
        "tags": tags(tree),
    }
