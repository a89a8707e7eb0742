"""Other senses of a polysemous name, for resolving a seed `title<TAB>subtitle` to one sense.

`/item/<title>` serves the name's default sense; a seed that asks for another
sense (`杜鹃<TAB>杜鹃科杜鹃属鸟类`) must be resolved to `/item/<title>/<id>` of
that sense. Both Baidu markups list the senses as anchors to
`/item/<same title>/<id>` labelled with the sense's subtitle (older markup:
`ul.polysemantList-wrapper li a[title]`), so one generic rule covers them:
every anchor whose path is `/item/<title>/<id>` for the page's own title.
Only called when a seed's subtitle does not match the page fetched.
"""
from __future__ import annotations

from crawlers.keys import norm_title
from crawlers.parsers.common import clean_inline, entry_link, item_path_parts, text_of, to_tree


def sense_links(text: str, title: str, base_url: str) -> list[dict[str, str]]:
    """[{subtitle, url}] of the senses of `title` linked from this page, in page order."""
    tree = to_tree(text)
    if tree is None:
        return []
    want = norm_title(title)
    out: list[dict[str, str]] = []
    seen: set[str] = set()
    for a in tree.iter("a"):
        link = entry_link(a.get("href"), base_url)
        if link is None:
            continue
        link_title, lemma_id = item_path_parts(link["url"])
        if not lemma_id or norm_title(link_title) != want or link["url"] in seen:
            continue
        label = clean_inline(a.get("title") or text_of(a)).strip("（）()")
        if label:
            seen.add(link["url"])
            out.append({"subtitle": label, "url": link["url"]})
    return out
