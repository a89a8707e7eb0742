"""The sample site's page data: one hand-editable JSON file per entry in `pages/`.

The pages are data, not code, so they live in `crawlers/sample_site/pages/<key>.json`
(UTF-8, any JSON layout) and `build_pages.py` only renders them. The file name
without `.json` is the page's key: the name `[[...]]` links use and the name of
the generated `<key>.html`. Fields (see pages/README.md for what each page is for):

    title       str, the entry title (the h1)
    subtitle    str, optional: the sense of a polysemous title, e.g. 杜鹃花科杜鹃花属植物
    lemma_id    int, made up for this site, unique
    domain      "HP" | "HS" | "TE" | "NE", the CDTP domain the page was written for
    markup      "legacy" | "current", which of Baidu's two markups renders it
    english     str, optional: the foreign name shown under a legacy title
    encoding    "utf-8" (default) | "gbk", the encoding of the generated HTML
    summary     [paragraph, ...]
    infobox     [[name, value], ...]; names are raw HTML (Baidu pads two-character
                names with `&nbsp;`), values may hold `<br/>` line breaks
    sections    [{"heading": str, "paragraphs": [paragraph, ...]}, ...]
    tags        [str, ...]

Paragraphs and infobox values use a mini markup: `[[key]]` or `[[key|text]]` link
to another page of the site, `{{n}}` is citation mark n. Loading checks every field,
every link target and every leftover bracket, so a typo is a clear `CdtpError`
naming the file, never a broken page.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from pipeline.errors import CdtpError

PAGES_DIR = Path(__file__).resolve().parent / "pages"
DOMAINS = ("HP", "HS", "TE", "NE")
MARKUPS = ("legacy", "current")
ENCODINGS = ("utf-8", "gbk")

LINK = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")
CITE = re.compile(r"\{\{(\d+)\}\}")

_REQUIRED = {"title": str, "lemma_id": int, "domain": str, "markup": str,
             "summary": list, "infobox": list, "sections": list, "tags": list}
_OPTIONAL = {"subtitle": str, "english": str, "encoding": str}


@dataclass(frozen=True)
class Page:
    key: str
    title: str
    lemma_id: int
    domain: str
    markup: str
    summary: tuple[str, ...]
    infobox: tuple[tuple[str, str], ...]
    sections: tuple[tuple[str, tuple[str, ...]], ...]
    tags: tuple[str, ...]
    subtitle: str | None = None
    english: str | None = None
    encoding: str = "utf-8"

    @property
    def filename(self) -> str:
        return f"{self.key}.html"

    def href(self, with_id: bool = True) -> str:
        """The entry's Baike URL path, `/item/<title>/<lemma_id>` or `/item/<title>`."""
        path = "/item/" + quote(self.title, safe="")
        return f"{path}/{self.lemma_id}" if with_id else path

    def texts(self) -> list[str]:
        """Every string that may carry the mini markup."""
        return [*self.summary, *(v for _, v in self.infobox), *(p for _, ps in self.sections for p in ps)]


class Site:
    """All pages, with the lookups rendering needs (link targets, senses of a title)."""

    def __init__(self, pages: list[Page]):
        self.pages = pages
        self.by_key = {p.key: p for p in pages}

    def target(self, key: str) -> Page:
        return self.by_key[key]

    def senses(self, title: str) -> list[Page]:
        """The pages sharing a title, smallest lemma id first (the one `/item/<title>` serves)."""
        return sorted((p for p in self.pages if p.title == title), key=lambda p: p.lemma_id)

    def plain(self, text: str) -> str:
        """Text with the mini markup removed: links become their text (for meta descriptions)."""
        return LINK.sub(lambda m: m.group(2) or self.target(m.group(1)).title, CITE.sub("", text))


def _strings(value: object, where: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(s, str) and s for s in value):
        raise CdtpError(f"{where}: expected a non-empty list of non-empty strings")
    return tuple(value)


def _no_duplicate_fields(pairs: list[tuple[str, object]]) -> dict:
    """json.loads keeps the last of two equal keys; a page edited by hand must not lose one silently."""
    names = [name for name, _ in pairs]
    doubled = sorted({name for name in names if names.count(name) > 1})
    if doubled:
        raise ValueError(f"field(s) given twice: {', '.join(doubled)}")
    return dict(pairs)


def page_from_json(key: str, data: object, where: str) -> Page:
    """One page from its parsed JSON; `where` names the file in every error."""
    if not isinstance(data, dict):
        raise CdtpError(f"{where}: expected a JSON object")
    unknown = sorted(set(data) - set(_REQUIRED) - set(_OPTIONAL))
    if unknown:
        raise CdtpError(f"{where}: unknown field(s) {', '.join(unknown)}")
    for name, kind in (_REQUIRED | _OPTIONAL).items():
        if name not in data:
            if name in _REQUIRED:
                raise CdtpError(f"{where}: missing field {name}")
            continue
        value = data[name]
        if not isinstance(value, kind) or isinstance(value, bool) or (kind is str and not value):
            raise CdtpError(f"{where}: field {name} must be a non-empty {kind.__name__}")
    for name, allowed in (("domain", DOMAINS), ("markup", MARKUPS), ("encoding", ENCODINGS)):
        if name in data and data[name] not in allowed:
            raise CdtpError(f"{where}: {name} {data[name]!r} is not one of {', '.join(allowed)}")
    infobox = data["infobox"]
    if not infobox or not all(isinstance(r, list) and len(r) == 2 and all(isinstance(s, str) and s for s in r) for r in infobox):
        raise CdtpError(f"{where}: infobox must be a non-empty list of [name, value] pairs of non-empty strings")
    sections = []
    for i, section in enumerate(data["sections"], 1):
        if not isinstance(section, dict) or set(section) != {"heading", "paragraphs"} or not (
            isinstance(section["heading"], str) and section["heading"]
        ):
            raise CdtpError(f"{where}: section {i} must be {{\"heading\": str, \"paragraphs\": [str, ...]}}")
        sections.append((section["heading"], _strings(section["paragraphs"], f"{where}: section {i} paragraphs")))
    return Page(
        key=key, title=data["title"], lemma_id=data["lemma_id"], domain=data["domain"], markup=data["markup"],
        summary=_strings(data["summary"], f"{where}: summary"),
        infobox=tuple((n, v) for n, v in infobox),
        sections=tuple(sections),
        tags=_strings(data["tags"], f"{where}: tags"),
        subtitle=data.get("subtitle"), english=data.get("english"), encoding=data.get("encoding", "utf-8"),
    )


def check_site(site: Site) -> None:
    """Rules that span pages: unique ids, subtitled senses, links that resolve, no stray brackets."""
    seen: dict[int, str] = {}
    for page in site.pages:
        if page.lemma_id in seen:
            raise CdtpError(f"{page.key}.json: lemma_id {page.lemma_id} is also used by {seen[page.lemma_id]}.json")
        seen[page.lemma_id] = page.key
        if len(site.senses(page.title)) > 1 and not page.subtitle:
            raise CdtpError(f"{page.key}.json: title {page.title!r} has several senses, so it needs a subtitle")
        for text in page.texts():
            for match in LINK.finditer(text):
                if match.group(1) not in site.by_key:
                    raise CdtpError(f"{page.key}.json: link to unknown page {match.group(1)!r} (no pages/{match.group(1)}.json)")
            rest = CITE.sub("", LINK.sub("", text))
            if any(b in rest for b in ("[[", "]]", "{{", "}}")):
                raise CdtpError(f"{page.key}.json: unbalanced [[link]] or {{{{n}}}} mark in {text[:40]!r}")


def load_site(folder: Path = PAGES_DIR) -> Site:
    """Every `*.json` page in `folder`, checked, in file-name order."""
    files = sorted(Path(folder).glob("*.json"))
    if not files:
        raise CdtpError(f"no page data (*.json) in {folder}")
    pages = []
    for path in files:
        where = path.name
        try:
            data = json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=_no_duplicate_fields)
        except UnicodeDecodeError as err:
            raise CdtpError(f"{where}: not UTF-8 ({err.reason} at byte {err.start})") from None
        except json.JSONDecodeError as err:
            raise CdtpError(f"{where}: bad JSON at line {err.lineno} column {err.colno}: {err.msg}") from None
        except ValueError as err:
            raise CdtpError(f"{where}: {err}") from None
        pages.append(page_from_json(path.stem, data, where))
    site = Site(pages)
    check_site(site)
    return site
