"""Shared helpers for the Baike page parsers: decoding, text cleaning, page identity.

Every parser is a pure function from HTML to a RawEntry-shaped dict, so the
text rules live here once:

* summaries are plain text: anchor texts kept, citation marks such as `[1]` or
  `[2-4]` dropped, whitespace runs collapsed (paragraphs joined by a newline);
* infobox names lose every space and `&nbsp;` (`简&nbsp;&nbsp;称` -> `简称`), so the
  same attribute has one spelling across pages;
* infobox values keep their line structure (`<br/>` -> newline), because a
  multi-valued attribute (three campuses, four awards) is several facts, and
  the triple stage needs to see where one ends.

`detect_source` and the parsers' own `title_and_subtitle`/`lemma_id` let
`crawlers.parsers.page_identity` (the dispatch, which knows every parser) say
which entry a page is without a full parse; this module imports no parser.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterable
from urllib.parse import unquote, urljoin, urlsplit

from lxml import etree

# Citation marks inside text: [1], [12], [3-5], [6,7] (also full-width brackets).
CITATION_RE = re.compile(r"[\[［]\s*\d+(?:\s*[-–,，、]\s*\d+)*\s*[\]］]")
_WS_RE = re.compile(r"[ \t\r\f\v\u00a0\u3000\u200b\ufeff]+")
_NAME_WS_RE = re.compile(r"[\s\u00a0\u3000\u200b\ufeff]+")
_META_CHARSET_RE = re.compile(rb"""<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9_\-]+)""", re.I)
_NEW_LEMMA_ID_RE = re.compile(r"""newLemmaId["']?\s*[:=]\s*["']?(\d+)""")
_JSON_LEMMA_ID_RE = re.compile(r""""lemmaId"\s*:\s*"?(\d+)""")
_ITEM_PATH_RE = re.compile(r"^/item/([^/?#]+)(?:/(\d+))?/?$")
_SOGOU_PATH_RE = re.compile(r"^/v(\d+)\.htm$")
_SOGOU_INNER_RE = re.compile(r"(?:^|[?&])lemmaId=(\d+)")
_SUBTITLE_PARENS = "()（）"

# huge_tree: libxml2 otherwise stops at nesting depth 256 and silently drops the
# rest of the page (the infobox, often); with it the limit is 2048, and a page
# deeper still is refused as HtmlTooDeep rather than half-parsed.
_HTML_PARSER = etree.HTMLParser(no_network=True, remove_comments=True, remove_pis=True, huge_tree=True)


class HtmlTooDeep(ValueError):
    """The page nests elements deeper than libxml2 parses (2048): the rest of it would be lost."""

    cdtp_reason = "html_too_deep"

# Elements whose text is never part of an entry's prose.
SKIP_TAGS = frozenset({"script", "style", "noscript", "sup", "template", "iframe", "svg"})
# Classes of in-text widgets: citation anchors, edit buttons, expand/collapse toggles.
SKIP_CLASSES = ("sup-anchor", "toggle", "edit-icon", "lemma-anchor", "J-edit-link", "supWrap")


def decode_html(body: bytes, declared: str | None = None) -> str:
    """Bytes -> text: declared charset, then a `<meta charset>`, then UTF-8, then GB18030.

    Old Baike mirrors and saved pages are often GBK; GB18030 is its superset,
    so a GBK page never fails to decode.
    """
    candidates: list[str] = []
    if declared:
        candidates.append(declared)
    match = _META_CHARSET_RE.search(body[:4096])
    if match:
        candidates.append(match.group(1).decode("ascii", "ignore"))
    candidates += ["utf-8", "gb18030"]
    for enc in candidates:
        enc = enc.lower()
        if enc in ("gbk", "gb2312", "gb_2312-80", "x-gbk"):
            enc = "gb18030"
        try:
            return body.decode(enc)
        except (LookupError, UnicodeDecodeError):
            continue
    return body.decode("utf-8", "replace")


def to_tree(html: str | bytes | etree._Element) -> etree._Element | None:
    """Parse HTML (str or bytes) into an lxml tree; None when nothing parseable remains."""
    if isinstance(html, etree._Element):
        return html
    if isinstance(html, bytes):
        html = decode_html(html)
    if not html or not html.strip():
        return None
    # lxml refuses str input that carries an XML encoding declaration.
    if html.lstrip().startswith("<?xml"):
        html = html.split("?>", 1)[-1]
    try:
        # A plain parser, not lxml.html: no custom element classes, so walking the
        # tree creates cheaper proxies (a third of the parse-and-extract time).
        tree = etree.fromstring(html, _HTML_PARSER)
    except (etree.ParserError, ValueError):
        return None
    for err in _HTML_PARSER.error_log.filter_from_errors():
        if err.type_name == "ERR_RESOURCE_LIMIT" or "Excessive depth" in err.message:
            raise HtmlTooDeep(f"HTML nested beyond the parser's limit: {err.message.strip()}")
    return tree


def text_of(el: etree._Element) -> str:
    """All text inside `el` (what lxml.html's text_content() gives)."""
    return "".join(el.itertext())


def has_class(el: etree._Element, name: str) -> bool:
    return name in (el.get("class") or "").split()


def class_xpath(tag: str, *classes: str) -> str:
    """XPath step matching `tag` carrying every class in `classes` (as whole tokens)."""
    conds = " and ".join(
        f"contains(concat(' ', normalize-space(@class), ' '), ' {c} ')" for c in classes
    )
    return f"{tag}[{conds}]" if conds else tag


def _skipped(el: etree._Element) -> bool:
    tag = el.tag
    if not isinstance(tag, str):  # comments, processing instructions
        return True
    if tag in SKIP_TAGS:
        return True
    cls = el.get("class")
    if cls:
        tokens = cls.split()
        for skip in SKIP_CLASSES:
            if skip in tokens:
                return True
    return False


def _collect(el: etree._Element, out: list[str], skip_nested: tuple[str, ...]) -> None:
    """Text pieces of `el` in document order; an explicit stack, so deep pages cannot exhaust recursion."""
    stack: list = [el]  # an element to open, or a string to emit
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        if item.text:
            out.append(item.text)
        todo: list = []
        for child in item:
            if not _skipped(child):
                tag = child.tag
                if tag == "br":
                    todo.append("\n")
                elif skip_nested and any(has_class(child, c) for c in skip_nested):
                    pass
                else:
                    block = tag in ("p", "div", "li", "dd", "dt", "tr")
                    if block:
                        todo.append("\n")
                    todo.append(child)
                    if block:
                        todo.append("\n")
            if child.tail:
                todo.append(child.tail)
        stack.extend(reversed(todo))


def raw_text(el: etree._Element, skip_nested: tuple[str, ...] = ()) -> str:
    """Text of `el` with `<br>` and block boundaries as newlines, widgets and citations skipped."""
    out: list[str] = []
    _collect(el, out, skip_nested)
    return "".join(out)


def clean_inline(text: str) -> str:
    """One line of prose: citation marks removed, whitespace runs collapsed."""
    text = CITATION_RE.sub("", text)
    text = _WS_RE.sub(" ", text.replace("\n", " "))
    return _join_cjk_spaces(text.strip())


def clean_lines(text: str) -> str:
    """Multi-line text: each line cleaned, empty lines dropped, newlines kept as separators."""
    text = CITATION_RE.sub("", text)
    lines = (_join_cjk_spaces(_WS_RE.sub(" ", line).strip()) for line in text.split("\n"))
    return "\n".join(line for line in lines if line)


def _is_cjk(ch: str) -> bool:
    o = ord(ch)
    return (
        0x4E00 <= o <= 0x9FFF
        or 0x3400 <= o <= 0x4DBF
        or 0x3000 <= o <= 0x303F  # CJK punctuation
        or 0xFF00 <= o <= 0xFFEF  # full-width forms
        or 0x20000 <= o <= 0x2FFFF
    )


def _join_cjk_spaces(text: str) -> str:
    """Drop a space that only sits between two CJK characters (an artefact of HTML line breaks).

    Spaces between Latin words ("Shanghai University") are real and stay.
    """
    if " " not in text:
        return text
    parts = text.split(" ")
    out = [parts[0]]
    for part in parts[1:]:
        prev = out[-1]
        if prev and part and _is_cjk(prev[-1]) and _is_cjk(part[0]):
            out[-1] = prev + part
        else:
            out.append(part)
    return " ".join(out)


def clean_name(text: str) -> str:
    """Infobox attribute name: every space, `&nbsp;` and full-width space removed."""
    return _NAME_WS_RE.sub("", CITATION_RE.sub("", text)).rstrip("：:")


def strip_subtitle(text: str | None) -> str | None:
    """`（云南省政协副主席）` -> `云南省政协副主席`; empty -> None."""
    if not text:
        return None
    text = clean_inline(text).strip(_SUBTITLE_PARENS).strip()
    return text or None


def first(items: Iterable):
    for item in items:
        return item
    return None


# --- links ---------------------------------------------------------------


def entry_link(href: str | None, base_url: str) -> dict[str, str] | None:
    """An absolute entry URL for an in-page link, or None when it is not an entry link.

    Entry links are Baidu `/item/<name>[/<id>]` and Sogou `/v<id>.htm` or
    `ShowInnerLink.htm?lemmaId=<id>`; anything else (javascript:, mailto:,
    pictures, history pages) is not followed.
    """
    if not href:
        return None
    href = href.strip()
    if not href or href.startswith(("#", "javascript:", "mailto:", "tel:", "data:")):
        return None
    if href.startswith("/item/") and "?" not in href and "#" not in href and "//" not in href:
        # fast path for the common relative entry link (most of a page's anchors)
        if _ITEM_PATH_RE.match(href):
            return {"url": _origin(base_url) + href}
        return None
    if "/item/" not in href and ".htm" not in href:
        return None  # cheap reject before urljoin: not an entry URL shape
    try:
        absolute = urljoin(base_url, href)
        parts = urlsplit(absolute)
    except ValueError:  # e.g. an unbalanced "[" read as an IPv6 host: not a link we can follow
        return None
    if parts.scheme not in ("http", "https"):
        return None
    path = parts.path
    if _ITEM_PATH_RE.match(path) or _SOGOU_PATH_RE.match(path):
        return {"url": parts._replace(query="", fragment="").geturl()}
    if path.endswith("/ShowInnerLink.htm") and _SOGOU_INNER_RE.search(parts.query):
        return {"url": parts._replace(fragment="").geturl()}
    return None


@lru_cache(maxsize=64)
def _origin(base_url: str) -> str:
    parts = urlsplit(base_url)
    return f"{parts.scheme}://{parts.netloc}"


def item_path_parts(url: str) -> tuple[str | None, str | None]:
    """(title, lemma_id) encoded in an entry URL's path, either may be None (both for a malformed URL)."""
    try:
        parts = urlsplit(url)
    except ValueError:  # a mangled href such as "http://[x/item/…": names no entry
        return None, None
    m = _ITEM_PATH_RE.match(parts.path)
    if m:
        return unquote(m.group(1)), m.group(2)
    m = _SOGOU_PATH_RE.match(parts.path)
    if m:
        return None, m.group(1)
    m = _SOGOU_INNER_RE.search(parts.query)
    if m and parts.path.endswith("/ShowInnerLink.htm"):
        return None, m.group(1)
    return None, None


def canonical_entry_url(url: str, lemma_id: str | None) -> str:
    """The URL an entry is recorded under: `/item/<title>` with its lemma id
    appended when the page gave one (`/item/<title>/<id>`), else `url` as is.

    An entry reached by both `/item/唐朝` and `/item/唐朝/6103522` is stored
    once, under whichever link the crawl followed first; recording the id form
    keeps `source_url` (and so every build output) independent of crawl order."""
    if not lemma_id:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    m = _ITEM_PATH_RE.match(parts.path)
    if m is None or m.group(2):
        return url
    return parts._replace(path=f"/item/{m.group(1)}/{lemma_id}", query="", fragment="").geturl()


def collect_links(
    anchors: Iterable[etree._Element], base_url: str, self_url: str | None = None
) -> list[dict[str, str]]:
    """Entry links {title, url} in document order, first occurrence of each URL only."""
    seen: set[str] = set()
    if self_url:
        seen.add(self_url)
    links: list[dict[str, str]] = []
    for a in anchors:
        link = entry_link(a.get("href"), base_url)
        if link is None or link["url"] in seen:
            continue
        title = clean_inline(text_of(a))
        if not title:
            title = item_path_parts(link["url"])[0] or ""
        if not title:
            continue
        seen.add(link["url"])
        links.append({"title": title, "url": link["url"]})
    return links


# --- identity -------------------------------------------------------------


def paragraphs_text(elements: Iterable[etree._Element]) -> str:
    """Summary paragraphs as plain text, one per line, empty ones left out."""
    return "\n".join(line for line in (clean_inline(raw_text(el)) for el in elements) if line)


def infobox_item(name: str, value_el: etree._Element, base_url: str, skip_nested: tuple[str, ...] = ()) -> dict | None:
    """One infobox row {name, value, value_links}, or None when the value is empty.

    Shared by every markup so the value rules (line separators kept, links
    collected from the value cell only) cannot drift apart between parsers."""
    value = clean_lines(raw_text(value_el, skip_nested=skip_nested))
    if not value:
        return None
    return {"name": name, "value": value, "value_links": collect_links(value_el.iter("a"), base_url)}


def unique_tags(elements: Iterable[etree._Element]) -> list[str]:
    """Tag texts in page order, without repeats or empties."""
    out: list[str] = []
    for el in elements:
        tag = clean_inline(text_of(el))
        if tag and tag not in out:
            out.append(tag)
    return out


def detect_source(tree: etree._Element, text_hint: str = "") -> str:
    """"sogou" for Sogou Baike markup, else "baidu"."""
    if tree.xpath("//link[@rel='canonical'][contains(@href, 'baike.sogou.com')]"):
        return "sogou"
    if tree.xpath("//h1[@id='title'] | //div[@id='j-shareAbstract']"):
        return "sogou"
    return "baidu"


def canonical_lemma_id(tree: etree._Element) -> str | None:
    """Lemma id from `<link rel=canonical>` or `og:url` pointing at an entry URL."""
    for href in tree.xpath(
        "//link[@rel='canonical']/@href | //meta[@property='og:url']/@content"
    ):
        _, lemma_id = item_path_parts(href)
        if lemma_id:
            return lemma_id
    return None


def script_lemma_id(tree: etree._Element, text: str | None) -> str | None:
    """Lemma id embedded in page scripts (`newLemmaId: "319190"` or `"lemmaId":319190`)."""
    if text is None:
        text = "\n".join(s for s in tree.xpath("//script/text()"))
    m = _NEW_LEMMA_ID_RE.search(text)
    if m:
        return m.group(1)
    m = _JSON_LEMMA_ID_RE.search(text)
    if m:
        return m.group(1)
    return None
