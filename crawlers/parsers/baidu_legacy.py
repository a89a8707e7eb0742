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
* entry links: `/item/<name>[/<lemma_id>]` anchors inside `div.main-content`
  (site navigation outside it is not part of the entry).
"""
from __future__ import annotations

from typing import Any

from lxml import etree

from crawlers.parsers.common import (
    canonical_lemma_id,
    class_xpath,
    clean_inline,
    clean_lines,
    clean_name,
    collect_links,
    has_class,
    raw_text,
    script_lemma_id,
    strip_subtitle,
)

_TITLE_DD = "//" + class_xpath("dd", "lemmaWgt-lemmaTitle-title")
_SUMMARY = "//" + class_xpath("div", "lemma-summary")
_BASIC_INFO_BLOCKS = "//" + class_xpath("dl", "basicInfo-block")
_MAIN = "//" + class_xpath("div", "main-content")


def is_legacy(tree: etree._Element) -> bool:
    return bool(tree.xpath(_TITLE_DD + " | " + _SUMMARY + " | " + _BASIC_INFO_BLOCKS))


def title_and_subtitle(tree: etree._Element) -> tuple[str | None, str | None]:
    for dd in tree.xpath(_TITLE_DD):
        h1 = dd.find(".//h1")
        if h1 is None:
            continue
        title = clean_inline(h1.text_content()) or None
        h2 = dd.find(".//h2")
        subtitle = strip_subtitle(h2.text_content()) if h2 is not None else None
        return title, subtitle
    h1 = tree.find(".//h1")
    if h1 is not None:
        return clean_inline(h1.text_content()) or None, None
    return None, None


def lemma_id(tree: etree._Element, text: str | None = None) -> str | None:
    return script_lemma_id(tree, text) or canonical_lemma_id(tree)


def summary(tree: etree._Element) -> str:
    paras: list[str] = []
    for box in tree.xpath(_SUMMARY):
        found = box.xpath("./div[contains(concat(' ', @class, ' '), ' para ')]")
        for el in found or [box]:
            line = clean_inline(raw_text(el))
            if line:
                paras.append(line)
    return "\n".join(paras)


def _value_links(dd: etree._Element, base_url: str) -> list[dict[str, str]]:
    return collect_links(dd.iter("a"), base_url)


def infobox(tree: etree._Element, base_url: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for block in tree.xpath(_BASIC_INFO_BLOCKS):
        if has_class(block, "overlap"):
            continue  # reached through its outer value, below
        name = None
        for el in block:
            if el.tag == "dt" and has_class(el, "name"):
                name = clean_name(raw_text(el))
            elif el.tag == "dd" and has_class(el, "value") and name:
                overlap = el.xpath(".//" + class_xpath("dl", "overlap") + "/dd")
                source = overlap[0] if overlap else el
                value = clean_lines(raw_text(source, skip_nested=("basicInfo-overlap",)))
                if value:
                    items.append(
                        {"name": name, "value": value, "value_links": _value_links(source, base_url)}
                    )
                name = None
    return items


def tags(tree: etree._Element) -> list[str]:
    out: list[str] = []
    for span in tree.xpath("//*[@id='open-tag-item']//" + class_xpath("span", "taglist")):
        tag = clean_inline(span.text_content())
        if tag and tag not in out:
            out.append(tag)
    return out


def links(tree: etree._Element, base_url: str) -> list[dict[str, str]]:
    # The summary sits outside div.main-content on some templates (universities).
    roots = tree.xpath(_SUMMARY + " | " + _MAIN) or [tree]
    anchors = (
        a
        for root in roots
        for a in root.iter("a")
        if not a.xpath("ancestor::*[contains(concat(' ', @class, ' '), ' lemma-reference ')]")
    )
    return collect_links(anchors, base_url, self_url=None)


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
