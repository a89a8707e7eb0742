"""Raw entry -> pair: validation, stable ids and multi-value splitting.

A Baike entry becomes one pair (paper §3.1): the entity is the entry title
(its subtitle, the disambiguation note, kept apart), the text is the summary,
and every infobox row (name, value) becomes a triple (entity, name, value).
Infobox values often list several objects in one cell (`主演: A、B、C`);
those are split into one triple per object by a configurable rule, because a
text that names only A supports (x, 主演, A) but not the whole cell.

Ids are hashes of canonical keys, so the same entry gets the same pair_id in
every run, on every worker, at any scale.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any
from urllib.parse import unquote, urlsplit

from schemas.outputs import PAIR_SCHEMA, TRIPLE_STRUCT
from transforms.dedup import parse_fetched_at
from transforms.quantities import _UNITS
from transforms.text import normalise

# Every key of the output schemas, so pairs built here always carry all
# columns (later-stage columns start as None), even when a column is added.
_TRIPLE_KEYS = tuple(TRIPLE_STRUCT.field(i).name for i in range(TRIPLE_STRUCT.num_fields))
_PAIR_KEYS = tuple(PAIR_SCHEMA.names)
_EMPTY_TRIPLE = dict.fromkeys(_TRIPLE_KEYS)

# --------------------------------------------------------------------- validation

MAX_DEPTH = 2**31 - 1  # RawEntry.depth is int32
_STR_FIELDS_OPTIONAL = ("url", "source", "lemma_id", "subtitle", "summary", "seed", "fetched_at")


def _opt_str(obj: dict, key: str, errors: list[str]) -> str | None:
    v = obj.get(key)
    if v is None:
        return None
    if isinstance(v, bool):
        errors.append(f"{key}: expected string, got bool")
        return None
    if isinstance(v, int) and key == "lemma_id":
        return str(v)
    if not isinstance(v, str):
        errors.append(f"{key}: expected string, got {type(v).__name__}")
        return None
    return v


def _links(v: Any, key: str, errors: list[str]) -> list[dict]:
    if v is None:
        return []
    if not isinstance(v, list):
        errors.append(f"{key}: expected list, got {type(v).__name__}")
        return []
    out = []
    for i, link in enumerate(v):
        if not isinstance(link, dict):
            errors.append(f"{key}[{i}]: expected object, got {type(link).__name__}")
            continue
        title, url = link.get("title"), link.get("url")
        if title is not None and not isinstance(title, str) or url is not None and not isinstance(url, str):
            errors.append(f"{key}[{i}]: title/url must be strings")
            continue
        out.append({"title": title or "", "url": url or ""})
    return out


def validate_raw_entry(obj: object) -> tuple[dict | None, str | None]:
    """(normalised RawEntry dict, None) or (None, detail) for a malformed record.

    The caller turns a failure into an audit row with reason `invalid_input`
    and this detail, so bad input is never skipped silently and never crashes
    a worker. Required: a non-empty string title. Optional fields may be
    missing or null and get their RawEntry defaults; present fields must have
    the right type. Numeric infobox values are accepted and turned into
    strings (Parquet sources may type them); anything else wrong is an error.
    """
    if not isinstance(obj, dict):
        return None, f"record is {type(obj).__name__}, expected a JSON object"
    errors: list[str] = []
    title = obj.get("title")
    if not isinstance(title, str) or not title.strip():
        errors.append("title: missing or empty" if title in (None, "") or isinstance(title, str)
                      else f"title: expected string, got {type(title).__name__}")
    out: dict[str, Any] = {}
    for k in _STR_FIELDS_OPTIONAL:
        v = obj.get(k)
        out[k] = v if v is None or v.__class__ is str else _opt_str(obj, k, errors)
    out["title"] = title.strip() if isinstance(title, str) else None
    out["url"] = out["url"] or ""
    out["source"] = out["source"] or "baidu"
    out["summary"] = out["summary"] or ""
    infobox = obj.get("infobox")
    items: list[dict] = []
    if infobox is not None and not isinstance(infobox, list):
        errors.append(f"infobox: expected list, got {type(infobox).__name__}")
    for i, item in enumerate(infobox if isinstance(infobox, list) else []):  # `"infobox": 1` crashed here
        if not isinstance(item, dict):
            errors.append(f"infobox[{i}]: expected object, got {type(item).__name__}")
            continue
        name, value = item.get("name"), item.get("value")
        if not isinstance(name, str) or not name.strip():
            errors.append(f"infobox[{i}].name: missing or not a string")
            continue
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        elif value is None:
            value = ""
        elif not isinstance(value, str):
            errors.append(f"infobox[{i}].value: expected string, got {type(value).__name__}")
            continue
        links = item.get("value_links")
        if links is not None and not (links.__class__ is list and not links):  # most rows have none
            links = _links(links, f"infobox[{i}].value_links", errors)
        items.append({"name": name, "value": value, "value_links": links if links else []})
    out["infobox"] = items
    out["links"] = _links(obj.get("links"), "links", errors)
    tags = obj.get("tags")
    if tags is None:
        out["tags"] = []
    elif not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        errors.append("tags: expected a list of strings")
    else:
        out["tags"] = list(tags)
    depth = obj.get("depth")
    if depth is None:
        out["depth"] = 0
    elif isinstance(depth, bool) or not isinstance(depth, int):
        errors.append(f"depth: expected integer, got {type(depth).__name__}")
    elif not 0 <= depth <= MAX_DEPTH:
        # RawEntry.depth is an int32 crawl depth: 10**30 cannot be written, and is no depth.
        errors.append(f"depth: {'negative' if depth < 0 else 'too large'}, outside 0..{MAX_DEPTH}")
    else:
        out["depth"] = depth
    fetched = out.get("fetched_at")
    if fetched and parse_fetched_at(fetched) is None:
        # It decides which copy of an entry is kept: a time nobody can read cannot compete.
        errors.append(f"fetched_at: {fetched[:40]!r} is not an ISO 8601 time")
    if not errors:
        _check_encodable(out, errors)
    if errors:
        return None, "; ".join(errors[:5]) + (f" (+{len(errors) - 5} more)" if len(errors) > 5 else "")
    return out, None


_ENCODED_FIELDS = ("title", "subtitle", "summary", "url", "lemma_id", "source", "seed", "fetched_at")


def _check_encodable(raw: dict, errors: list[str]) -> None:
    """Lone surrogates (from `\\ud800` escapes in JSON) cannot be written to
    Parquet: reject the entry here, with the field, rather than crash a writer.

    Every string of the entry is encoded at once first: only an entry that
    holds a lone surrogate somewhere is searched field by field."""
    strings = [s for s in map(raw.get, _ENCODED_FIELDS) if s]
    for item in raw["infobox"]:
        strings.append(item["name"])
        strings.append(item["value"])
        for link in item["value_links"]:
            strings.append(link["title"])
            strings.append(link["url"])
    for link in raw["links"]:
        strings.append(link["title"])
        strings.append(link["url"])
    strings.extend(raw["tags"])
    try:
        "".join(strings).encode("utf-8")
        return
    except UnicodeEncodeError:
        pass

    def bad(s: str | None) -> bool:
        if not s:
            return False
        try:
            s.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False

    for key in _ENCODED_FIELDS:
        if bad(raw.get(key)):
            errors.append(f"{key}: not valid Unicode (lone surrogate)")
    for i, item in enumerate(raw["infobox"]):
        if bad(item["name"]) or bad(item["value"]) or any(bad(l["title"]) or bad(l["url"]) for l in item["value_links"]):
            errors.append(f"infobox[{i}]: not valid Unicode (lone surrogate)")
    if any(bad(l["title"]) or bad(l["url"]) for l in raw["links"]) or any(bad(t) for t in raw["tags"]):
        errors.append("links/tags: not valid Unicode (lone surrogate)")


# ---------------------------------------------------------------------------- ids

def _hash(s: str) -> str:
    return hashlib.blake2b(s.encode("utf-8"), digest_size=8).hexdigest()


def entry_key(raw: dict) -> str:
    """Canonical key of an entry: `<source>:lemma:<id>` when the lemma id is
    known, else `<source>:title:<normalised title>|<normalised subtitle>`.
    Two crawls of the same page get the same key."""
    source = raw.get("source") or "baidu"
    lemma = raw.get("lemma_id")
    if lemma not in (None, ""):
        return f"{source}:lemma:{lemma}"
    title = unicodedata.normalize("NFKC", raw.get("title") or "").strip().lower()
    sub = unicodedata.normalize("NFKC", raw.get("subtitle") or "").strip().lower()
    return f"{source}:title:{title}|{sub}"


def make_pair_id(entry_key: str) -> str:
    """Stable 16-hex-digit hash of an entry key."""
    return _hash("pair\x1f" + entry_key)


def make_triple_id(pair_id: str, relation: str, tail: str, ordinal: int = 0) -> str:
    """Stable id of a triple; `ordinal` tells apart repeats of the same
    (relation, tail) in one pair (0 for the first)."""
    return _hash(f"triple\x1f{pair_id}\x1f{relation}\x1f{tail}\x1f{ordinal}")


def triple_ids(pair_id: str, triples: list[dict]) -> list[str]:
    """Ids for a pair's triples, in order; repeats get ordinals 0, 1, ..."""
    seen: dict[tuple[str, str], int] = {}
    out = []
    for t in triples:
        key = (t["relation"], t["tail"])
        n = seen.get(key, 0)
        seen[key] = n + 1
        out.append(make_triple_id(pair_id, t["relation"], t["tail"], n))
    return out


# ---------------------------------------------------------------- multi-value split

@dataclass
class PairConfig:
    """How infobox cells become triples.

    A cell is split on `separators` into one triple per value, except for
    relations in `no_split_relations` (names, addresses, descriptions whose
    punctuation is not a list). Separators inside brackets (《A、B》) and
    ',', '.', '/' between digits never split. A cell with more than
    `max_values` pieces is kept whole: such cells are prose, not lists.
    """

    separators: tuple[str, ...] = ("、", "，", ",", "；", ";", "/", "／", "\n", "|", "｜")
    max_values: int = 30
    no_split_relations: frozenset[str] = field(default_factory=lambda: frozenset({
        "中文名", "外文名", "英文名", "中文名称", "外文名称", "英文名称",
        "地址", "总部地址", "详细地址", "简介", "经营范围", "口号", "校训", "座右铭",
    }))
    # Trailing words that close a list but are not part of the last value.
    strip_suffixes: tuple[str, ...] = ("等等", "等")
    # Citation markers like [1] or [2-3] copied from the page.
    strip_citations: bool = True


def _is_latin(ch: str) -> bool:
    return bool(ch) and ch.isascii() and ch.isalnum()


# Whitespace between two CJK characters in an infobox name is layout
# (Baike renders two-character names as `简    称`), not part of the name.
_CJK_GAP = re.compile(r"(?<=[\u3400-\u9fff])\s+(?=[\u3400-\u9fff])")


@lru_cache(maxsize=16384)
def clean_relation_name(name: str) -> str:
    """Infobox name as written, minus layout whitespace: `简\xa0\xa0称` -> `简称`."""
    return _CJK_GAP.sub("", name.strip())


_CITATION = re.compile(r"\[\d+(?:-\d+)?\]")
# 《A》《B》 and 《A》（粤）《B》（国）: a title, with its bracket note, ends a value.
_TITLE_END = re.compile(r"》\s*(?:[（(][^（）()]{1,8}[）)])?\s*$")
_OPEN = "《（(【[「『〈<“‘\""
_CLOSE = "》）)】]」』〉>”’\""


def split_values(value: str, relation: str, cfg: PairConfig) -> list[str]:
    """One string per object named in an infobox cell (at least one)."""
    return list(_split_cell(value, relation, cfg))


def _split_cell(value: str, relation: str, cfg: PairConfig) -> tuple[str, ...]:
    seps, suffixes, no_split = cfg.separators, cfg.strip_suffixes, cfg.no_split_relations
    if seps.__class__ is not tuple or suffixes.__class__ is not tuple or no_split.__class__ is not frozenset:
        seps, suffixes, no_split = tuple(seps), tuple(suffixes), frozenset(no_split)  # hashable for the cache
    return _split_cached(value, relation, seps, cfg.max_values, no_split, suffixes, cfg.strip_citations)


@lru_cache(maxsize=16384)
def _split_cached(value: str, relation: str, separators: tuple[str, ...], max_values: int,
                  no_split: frozenset[str], strip_suffixes: tuple[str, ...], strip_citations: bool) -> tuple[str, ...]:
    """split_values on the config's fields, memoised: cells repeat across
    entries (男, 中国, 汉族) and most hold one value."""
    return tuple(_split(value, relation, frozenset(separators), max_values, no_split, strip_suffixes,
                        strip_citations))


def _split(value: str, relation: str, seps: frozenset[str], max_values: int, no_split: frozenset[str],
           strip_suffixes: tuple[str, ...], strip_citations: bool) -> list[str]:
    if strip_citations and "[" in value:
        value = _CITATION.sub("", value)
    value = value.strip()
    if clean_relation_name(relation) in no_split or not value:
        return [value]
    if "》" not in value and seps.isdisjoint(value):
        # Fast path: most cells hold one value.
        for suf in strip_suffixes:
            if value.endswith(suf) and len(value) > len(suf):
                return [value[: -len(suf)].strip()]
        return [value]
    pieces, buf, depth = [], [], 0
    n = len(value)
    for i, ch in enumerate(value):
        if depth == 0 and ch == "《" and buf and _TITLE_END.search("".join(buf)):
            # 《A》《B》: adjacent titles are a list even without a separator.
            pieces.append("".join(buf))
            buf = [ch]
            depth = 1
            continue
        if ch in _OPEN and not (ch == '"' and depth > 0):
            depth += 1
        elif ch in _CLOSE and depth > 0:
            depth -= 1
        elif depth == 0 and ch in seps:
            prev = value[i - 1] if i else ""
            nxt = value[i + 1] if i + 1 < n else ""
            if ch in ",/，." and prev.isdigit() and nxt.isdigit():
                buf.append(ch)
                continue
            if ch in "/／" and (_is_latin(prev) or _is_latin(nxt)):
                # 31-1718/N, TCP/IP: a code, not a list (演员/歌手 is one).
                buf.append(ch)
                continue
            pieces.append("".join(buf))
            buf = []
            continue
        buf.append(ch)
    pieces.append("".join(buf))
    out = []
    for p in pieces:
        p = p.strip()
        for suf in strip_suffixes:
            if p.endswith(suf) and len(p) > len(suf):
                p = p[: -len(suf)].strip()
                break
        if p:
            out.append(p)
    if not out:
        return [value]
    out = _merge_fragments(out)
    if len(out) > max_values:
        return [value]
    return out


_BRACKET_NOTE = re.compile(r"^[（(【\[][^）)】\]]*[）)】\]]$")


_YEAR_ONLY = re.compile(r"^\d{4}年$")


def _is_fragment(piece: str) -> bool:
    """A unit (`个`, `人`) or a bracket note (`（一级学科）`) cut off by a line
    break: it qualifies the piece before it and is never a value of its own."""
    return piece in _UNITS or bool(_BRACKET_NOTE.match(piece))


def _merge_fragments(pieces: list[str]) -> list[str]:
    """`27（一级学科）个、专业学位6\n个` -> [`27（一级学科）个`, `专业学位6个`]:
    fragments go back onto the piece they qualify (the previous one, or the
    next one for a leading fragment). A bare year before what it dates
    (`2002年，奥斯卡最佳外语片提名`) goes onto the piece after it."""
    if len(pieces) < 2:
        return pieces
    dating = [bool(_YEAR_ONLY.match(p)) and not all(_YEAR_ONLY.match(q) for q in pieces[i + 1:])
              for i, p in enumerate(pieces)]
    if not any(dating) and not any(_is_fragment(p) for p in pieces):
        return pieces
    out: list[str] = []
    pending = ""
    for p, dates_next in zip(pieces, dating):
        if dates_next:
            pending = f"{pending}、{p}" if pending else p
        elif _is_fragment(p):
            if out:
                out[-1] += p
            else:
                pending += p
        else:
            out.append(pending + p if pending and _BRACKET_NOTE.match(pending) is None else p)
            pending = ""
    return out or ["".join(pieces)]


def _link_title(link: dict) -> list[str]:
    """Names a value link gives: its anchor title and the linked page title
    (from /item/<title>/<id> URLs)."""
    return list(_link_names(link.get("title") or "", link.get("url") or ""))


@lru_cache(maxsize=16384)
def _link_names(title: str, url: str) -> tuple[str, ...]:
    """_link_title, memoised: the same pages are linked from many entries."""
    names = []
    if title:
        names.append(title)
    if url:
        path = urlsplit(url).path
        parts = [p for p in path.split("/") if p]
        if len(parts) >= 2 and parts[0] in ("item", "v", "lemma"):
            t = unquote(parts[1])
            if t and not t.isdigit():
                names.append(t)
    return tuple(names)


@lru_cache(maxsize=16384)
def _url_key(url: str) -> str:
    """A link target without scheme, query, fragment or trailing slash."""
    parts = urlsplit(url)
    return unquote(parts.netloc + parts.path).rstrip("/")


def anchor_index(raw: dict) -> dict[str, list[str]]:
    """Link target -> anchor texts of the entry's links (page-level links)."""
    index: dict[str, list[str]] = {}
    for link in raw.get("links") or []:
        if link.get("url") and link.get("title"):
            index.setdefault(_url_key(link["url"]), []).append(link["title"])
    return index


def triple_aliases(raw_item: dict, piece: str, n_pieces: int,
                   anchors: dict[str, list[str]] | None = None) -> tuple[str, ...]:
    """Other names of one value, from the infobox row's value_links: the
    link's anchor title, the linked page's title (/item/<title>/<id>), and
    the anchor texts of the entry's other links to the same page (the
    summary may link 华仔 to the page the infobox links as 刘德华).

    For a split cell, a link is an alias of the piece it names (its anchor
    equals the piece); for an unsplit cell every link of the row counts.
    """
    links = raw_item.get("value_links")
    if not links:
        return ()
    out: list[str] = []
    npiece = normalise(piece)
    for link in links:
        names = _link_title(link)
        if not names:
            continue
        if n_pieces > 1 and not any(normalise(x) == npiece for x in names):
            continue
        if anchors and link.get("url"):
            names = names + anchors.get(_url_key(link["url"]), [])
        for x in names:
            if x != piece and x not in out:
                out.append(x)
    return tuple(out)


def pair_with_aliases(raw: dict, cfg: PairConfig) -> tuple[dict, list[tuple[str, ...]]]:
    """The pair and, parallel to its triples, each triple's aliases."""
    entity = raw.get("title") or ""
    text = raw.get("summary") or ""
    triples: list[dict] = []
    aliases: list[tuple[str, ...]] = []
    anchors = anchor_index(raw) if raw.get("links") else None
    for item in raw.get("infobox") or []:
        relation = clean_relation_name(item.get("name") or "")
        pieces = _split_cell(item.get("value") or "", relation, cfg)
        for piece in pieces:
            triples.append({**_EMPTY_TRIPLE, "head": entity, "relation": relation, "tail": piece})
            aliases.append(triple_aliases(item, piece, len(pieces), anchors))
    pair = dict.fromkeys(_PAIR_KEYS)
    pair.update(
        pair_id=make_pair_id(entry_key(raw)),
        entity=entity,
        subtitle=raw.get("subtitle"),
        text=text,
        triples=triples,
        source_url=raw.get("url") or "",
        num_triples=len(triples),
        text_length=len(text),
        tags=list(raw.get("tags") or []),
    )
    return pair, aliases


def entry_to_pair(raw: dict, cfg: PairConfig | None = None) -> dict:
    """A (validated) raw entry as a pair dict shaped like PAIR_SCHEMA, before
    alignment: triple spans, match and position_index are None."""
    return pair_with_aliases(raw, cfg or PairConfig())[0]


# Infobox names whose values are other names of the entity itself.
ENTITY_NAME_RELATIONS = frozenset({"中文名", "外文名", "英文名", "别名", "简称", "本名", "原名", "又名",
                                   "中文名称", "外文名称", "英文名称", "全称", "昵称"})


def entity_names(raw: dict) -> tuple[str, ...]:
    """The entity's own names: title plus 中文名/外文名/简称/别名... values."""
    names = [raw.get("title") or ""]
    for item in raw.get("infobox") or []:
        if clean_relation_name(item.get("name") or "") in ENTITY_NAME_RELATIONS:
            for v in re.split(r"[、,，;；/]", item.get("value") or ""):
                v = v.strip()
                if v and v not in names:
                    names.append(v)
    return tuple(n for n in names if n)
