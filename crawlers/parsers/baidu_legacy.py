"""Baidu Baike, older markup (pages saved around 2019).

Markup this parser relies on:

* title: `dd.lemmaWgt-lemmaTitle-title > h1`, the polysemy subtitle in the `h2`
  that follows it (`（革命烈士）`);
* summary: `div.lemma-summary > div.para`;
* infobox: `dl.basicInfo-block > dt.basicInfo-item.name / dd.basicInfo-item.value`.
  A long value is shown collapsed with a 展开 toggle and repeated in full inside
  a nested `div.basicInfo-overlap`; the full (overlap) list is taken once, never
  both, and the toggle words are not text;
* tags: `#open-tag-item span.taglist`;
* lemma id: `newLemmaId` in the page scripts (the id of `/item/<name>/<id>`);
* entry links: `/item/<name>[/<lemma_id>]` anchors in the summary and
  `div.main-content`, except the reference list (site navigation and the
  sidebar are not part of the entry).

Speed matters (the crawl parses every page; the target is 200 pages/s/core),
so the page is parsed from `<body>` up to the sidebar (`side-content`) only,
and the elements of interest are collected in ONE pass over the tree instead
of one XPath scan per field. If the cut loses the entry heading, the full page
is parsed instead.
"""
from __future__ import annotations

from dataclasses import dataclass, field
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
    to_tree,
    unique_tags,
)

MARKERS = ("lemmaWgt-lemmaTitle-title", 'class="lemma-summary"', "basicInfo-item")


def is_legacy_text(text: str) -> bool:
    return any(m in text for m in MARKERS)


def parse_html(text: str, url: str) -> dict[str, Any] | None:
    """Parse the entry part of the page (`<body` .. sidebar); the whole page if that cut fails."""
    start = text.find("<body")
    end = text.find('class="side-content"')
    if start >= 0 and end > start:
        tree = to_tree(text[start:end])
        if tree is not None:
            parts = _Parts.collect(tree)
            if parts.title_dd is not None:
                return _parse(tree, parts, url, text)
    tree = to_tree(text)
    if tree is None:
        return None
    return _parse(tree, _Parts.collect(tree), url, text)


@dataclass
class _Parts:
    title_dd: etree._Element | None = None
    summaries: list[etree._Element] = field(default_factory=list)
    blocks: list[etree._Element] = field(default_factory=list)
    main: list[etree._Element] = field(default_factory=list)
    references: list[etree._Element] = field(default_factory=list)
    tag_box: etree._Element | None = None
    first_h1: etree._Element | None = None

    @classmethod
    def collect(cls, tree: etree._Element) -> "_Parts":
        parts = cls()
        for el in tree.iter("div", "dl", "dd", "h1"):
            tag = el.tag
            if tag == "h1":
                if parts.first_h1 is None:
                    parts.first_h1 = el
                continue
            if tag == "dd" and el.get("id") == "open-tag-item":
                parts.tag_box = el
                continue
            cls_attr = el.get("class")
            if not cls_attr:
                continue
            tokens = cls_attr.split()
            if tag == "div":
                if "lemma-summary" in tokens:
                    parts.summaries.append(el)
                elif "main-content" in tokens:
                    parts.main.append(el)
            elif tag == "dl":
                if "basicInfo-block" in tokens and "overlap" not in tokens:
                    parts.blocks.append(el)
                elif "lemma-reference" in tokens:
                    parts.references.append(el)
            elif tag == "dd" and parts.title_dd is None and "lemmaWgt-lemmaTitle-title" in tokens:
                parts.title_dd = el
        return parts


def _title_and_subtitle(parts: _Parts) -> tuple[str | None, str | None]:
    dd = parts.title_dd
    if dd is not None:
        h1 = next(dd.iter("h1"), None)
        if h1 is not None:
            h2 = next(dd.iter("h2"), None)
            subtitle = strip_subtitle(text_of(h2)) if h2 is not None else None
            return clean_inline(text_of(h1)) or None, subtitle
    if parts.first_h1 is not None:
        return clean_inline(text_of(parts.first_h1)) or None, None
    return None, None


def title_and_subtitle(tree: etree._Element) -> tuple[str | None, str | None]:
    return _title_and_subtitle(_Parts.collect(tree))


def lemma_id(tree: etree._Element, text: str | None = None) -> str | None:
    return script_lemma_id(tree, text) or canonical_lemma_id(tree)


def _summary(parts: _Parts) -> str:
    def paras(box: etree._Element) -> list[etree._Element]:
        return [el for el in box if el.tag == "div" and "para" in (el.get("class") or "").split()] or [box]

    return paragraphs_text(el for box in parts.summaries for el in paras(box))


def _overlap_value(dd: etree._Element) -> etree._Element | None:
    """The `dd` inside a `div.basicInfo-overlap` of an outer value, if the value is collapsed."""
    for div in dd.iter("div"):
        if "basicInfo-overlap" in (div.get("class") or "").split():
            for inner in div.iter("dd"):
                return inner
    return None


def _infobox(parts: _Parts, base_url: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for block in parts.blocks:
        name = None
        for el in block:
            tag = el.tag
            if tag == "dt":
                name = clean_name(raw_text(el)) if "name" in (el.get("class") or "").split() else None
            elif tag == "dd" and name:
                overlap = _overlap_value(el)
                source = overlap if overlap is not None else el
                item = infobox_item(name, source, base_url, skip_nested=("basicInfo-overlap",))
                if item:
                    items.append(item)
                name = None
    return items


def _tags(parts: _Parts) -> list[str]:
    if parts.tag_box is None:
        return []
    return unique_tags(span for span in parts.tag_box.iter("span") if "taglist" in (span.get("class") or "").split())


def _links(parts: _Parts, tree: etree._Element, base_url: str) -> list[dict[str, str]]:
    # The summary sits outside div.main-content on some templates (universities).
    roots = parts.summaries + parts.main or [tree]
    skip = {a for ref in parts.references for a in ref.iter("a")}
    anchors = (a for root in roots for a in root.iter("a") if a not in skip)
    return collect_links(anchors, base_url)


def parse(tree: etree._Element, url: str, text: str | None = None) -> dict[str, Any]:
    return _parse(tree, _Parts.collect(tree), url, text)


def _parse(tree: etree._Element, parts: _Parts, url: str, text: str | None) -> dict[str, Any]:
    title, subtitle = _title_and_subtitle(parts)
    return {
        "url": url,
        "source": "baidu",
        "lemma_id": lemma_id(tree, text),
        "title": title,
        "subtitle": subtitle,
        "summary": _summary(parts),
        "infobox": _infobox(parts, url),
        "links": _links(parts, tree, url),
        "tags": _tags(parts),
    }
