"""Raw entry -> pair: validation, stable ids and multi-value splitting.

A Baike entry becomes one pair (paper §3.1): the entity is the entry title
(its subtitle, the disambiguation note, kept apart), the text is the summary,
and every infobox row (name, value) becomes a triple (entity, name, value).
Infobox values often list several objects in one cell (`主演: A、B、C`);
those are split into one triple per object (transforms/cells.py), because a
text that names only A supports (x, 主演, A) but not the whole cell.

Ids are hashes of canonical keys, so the same entry gets the same pair_id in
every run, on every worker, at any scale.
"""
from __future__ import annotations

import hashlib
import re
import unicodedata
from functools import lru_cache
from typing import Any, Iterable
from urllib.parse import unquote, urlsplit

from schemas.outputs import PAIR_SCHEMA, TRIPLE_STRUCT
from transforms.cells import PairConfig, clean_relation_name, split_cell
from transforms.dedup import parse_fetched_at
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


def validate_raw_entry(obj: object, unicode_vouched: bool = False) -> tuple[dict | None, str | None]:
    """(normalised RawEntry dict, None) or (None, detail) for a malformed record.

    The caller turns a failure into an audit row with reason `invalid_input`
    and this detail, so bad input is never skipped silently and never crashes
    a worker. Required: a non-empty string title. Optional fields may be
    missing or null and get their RawEntry defaults; present fields must have
    the right type. Numeric infobox values are accepted and turned into
    strings (Parquet sources may type them); anything else wrong is an error.
    A lone surrogate is an error too (Parquet cannot encode it), looked for
    unless `unicode_vouched`: the JSON decoder already rejected them
    (transforms/safejson.py, loads_and_vouch).
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
    if not errors and not unicode_vouched:
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
        pieces = split_cell(item.get("value") or "", relation, cfg, text)
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


# The spans of triples the text states but a stage after the alignment
# dropped (a rare relation, a rejected one, one the search did not
# corroborate). Not an output column: T2KG reads it, so that no sentence is a
# test case whose gold lacks a fact the sentence states (transforms/items/t2kg.py).
DROPPED_MENTIONS = "dropped_mentions"


def with_dropped_mentions(pair: dict, dropped: Iterable[dict]) -> dict:
    """The pair with the support spans of `dropped` (triples) added to DROPPED_MENTIONS."""
    spans = [[t["start"], t["end"]] for t in dropped if t.get("start") is not None and t.get("end") is not None]
    if not spans:
        return pair
    return {**pair, DROPPED_MENTIONS: [*(pair.get(DROPPED_MENTIONS) or ()), *spans]}


def entry_to_pair(raw: dict, cfg: PairConfig | None = None) -> dict:
    """A (validated) raw entry as a pair dict shaped like PAIR_SCHEMA, before
    alignment: triple spans, match and position_index are None."""
    return pair_with_aliases(raw, cfg or PairConfig())[0]


# Infobox names whose values are other names of the entity itself.
ENTITY_NAME_RELATIONS = frozenset({"中文名", "外文名", "英文名", "别名", "简称", "本名", "原名", "又名",
                                   "中文名称", "外文名称", "英文名称", "全称", "昵称"})


# A unit named after its parent (`上海大学翔英学院`, `中国科学院上海原子核研究所`):
# its own text calls it by the unit's part alone (`翔英学院是…`).
_UNIT_OF_PARENT = re.compile(r"^.{2,}?(?:大学|科学院|研究院|集团|公司)"
                             r"(.{2,}(?:学院|书院|研究所|研究院|研究中心|实验室|分校|校区|医院))$")


def unit_name(title: str) -> str | None:
    """The unit's part of a title made of its parent's name and its own (4+ characters)."""
    m = _UNIT_OF_PARENT.match(title)
    return m.group(1) if m and len(m.group(1)) >= 4 else None


# The forms of the entity's one name (its abbreviation, its foreign name), as
# against its other names (a 别名, a poet's 号 `涑水先生`): `北大` names 北京大学,
# `涑水先生` does not name 司马光 (docs/alignment.md, rules 1 and 6).
NAME_FORM_RELATIONS = ENTITY_NAME_RELATIONS - {"别名", "本名", "原名", "又名", "昵称"}


def entity_names(raw: dict, relations: frozenset[str] = ENTITY_NAME_RELATIONS) -> tuple[str, ...]:
    """The entity's own names: title plus the values of `relations` (中文名/外文名/简称/别名...),
    and the unit's part of a title named after its parent (unit_name)."""
    title = raw.get("title") or ""
    names = [title]
    unit = unit_name(title)
    if unit:
        names.append(unit)
    for item in raw.get("infobox") or []:
        if clean_relation_name(item.get("name") or "") in relations:
            for v in re.split(r"[、,，;；/]", item.get("value") or ""):
                v = v.strip()
                if v and v not in names:
                    names.append(v)
    return tuple(n for n in names if n)
