"""Sogou Baike entry pages.

Markup this parser relies on:

* title: `h1#title`; the polysemy subtitle in `.lemma_desc` / `.title_tip` next to it;
* lemma id: the canonical URL `https://baike.sogou.com/v<id>.htm`;
* summary: `#j-shareAbstract` (or `div.abstract`), one `p` per paragraph;
* infobox: `table.abstract_tbl` rows of `th` (name) / `td` (value) pairs, several
  pairs per row;
* tags: `#j-lemma_tags a` / `.lemma_tags a`;
* entry links: `/v<id>.htm` and `/lemma/ShowInnerLink.htm?lemmaId=<id>` anchors in
  the summary, infobox and `.lemma_main_content`.
"""
from __future__ import annotations

from typing import Any

from lxml import etree

from crawlers.parsers.common import (
    class_xpath,
    clean_inline,
    clean_name,
    collect_links,
    infobox_item,
    paragraphs_text,
    item_path_parts,
    raw_text,
    strip_subtitle,
    text_of,
    unique_tags,
)

_SUMMARY = "//div[@id='j-shareAbstract'] | //" + class_xpath("div", "abstract")
_TABLE = "//" + class_xpath("table", "abstract_tbl")
_MAIN = "//" + class_xpath("div", "lemma_main_content")


def title_and_subtitle(tree: etree._Element) -> tuple[str | None, str | None]:
    h1s = tree.xpath("//h1[@id='title']") or tree.xpath("//h1")
    if not h1s:
        return None, None
    title = clean_inline(text_of(h1s[0])) or None
    desc = tree.xpath("//" + class_xpath("*", "lemma_desc") + " | //" + class_xpath("*", "title_tip"))
    return title, strip_subtitle(text_of(desc[0])) if desc else None


def lemma_id(tree: etree._Element) -> str | None:
    for href in tree.xpath("//link[@rel='canonical']/@href | //meta[@property='og:url']/@content"):
        _, lid = item_path_parts(href)
        if lid:
            return lid
    return None


def summary(tree: etree._Element) -> str:
    return paragraphs_text(el for box in tree.xpath(_SUMMARY)[:1] for el in box.xpath("./p") or [box])


def infobox(tree: etree._Element, base_url: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = []
    for table in tree.xpath(_TABLE):
        for th in table.iter("th"):
            name = clean_name(raw_text(th))
            td = th.getnext()
            if not name or td is None or td.tag != "td":
                continue
            item = infobox_item(name, td, base_url)
            if item:
                items.append(item)
    return items


def tags(tree: etree._Element) -> list[str]:
    return unique_tags(tree.xpath("//*[@id='j-lemma_tags']//a | //" + class_xpath("div", "lemma_tags") + "//a"))


def links(tree: etree._Element, base_url: str) -> list[dict[str, str]]:
    roots = tree.xpath(_SUMMARY + " | " + _TABLE + " | " + _MAIN) or [tree]
    return collect_links((a for root in roots for a in root.iter("a")), base_url)


def parse(tree: etree._Element, url: str, text: str | None = None) -> dict[str, Any]:
    title, subtitle = title_and_subtitle(tree)
    return {
        "url": url,
        "source": "sogou",
        "lemma_id": lemma_id(tree),
        "title": title,
        "subtitle": subtitle,
        "summary": summary(tree),
        "infobox": infobox(tree, url),
        "links": links(tree, url),
        "tags": tags(tree),
    }
