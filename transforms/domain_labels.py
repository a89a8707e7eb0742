"""Labelled domain evaluation sets: loading and scoring.

Two row formats are accepted in one JSONL file:
  * locator rows (what tests/data/domain_labels.jsonl holds, so no sentence of
    the public data is copied into the project):
      {"source": "duie/train.jsonl", "locator": 315, "entity": "李忱", "domain": "HP"}
    The item's text, tags and relations are rebuilt from the data folder
    (../shared/data) at run time.
  * self-contained rows:
      {"entity"|"title", "text"|"summary", "tags", "triples"|"relations"|"infobox",
       "subtitle"?, "domain"|"label"}

Sources understood by locator rows (paths relative to the data folder):
  duie/train.jsonl               locator = 1-based line; entity = the subject
  landscape-plant/dev.jsonl      same
  kgclue/train.json, dev.json    locator = the row id
  kdconv/entities_film_music_from_dev_test.jsonl   locator = entity name, or 1-based line
                                 (lines keep a disambiguated name out of the label file)
  kdconv/travel/kb_travel.json   locator = attraction name
  baike-baidu-2019               locator = page name (extracted/info-*/NAME.txt)
  nlpcc2016-kbqa/<file>          locator = triple id
"""
from __future__ import annotations

import html
import json
import re
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from transforms import safejson
from transforms.domain import DOMAINS, UNKNOWN, DomainClassifier


class LabelError(ValueError):
    """A labelled row that cannot be resolved (bad source, locator or label)."""


_LABEL_ALIASES = {
    "历史与政治": "HP", "人文与社会": "HS", "科技与经济": "TE", "自然与环境": "NE",
    "history": "HP", "humanities": "HS", "technology": "TE", "nature": "NE",
}


def norm_label(value: Any) -> str:
    v = str(value or "").strip()
    if v.upper() in DOMAINS:
        return v.upper()
    if v in _LABEL_ALIASES or v.lower() in _LABEL_ALIASES:
        return _LABEL_ALIASES.get(v, _LABEL_ALIASES.get(v.lower()))
    raise LabelError(f"unknown domain label {value!r}: use one of {', '.join(DOMAINS)}")


@lru_cache(maxsize=16)
def _lines(path: str) -> tuple[str, ...]:
    return tuple(Path(path).read_text("utf-8").splitlines())


@lru_cache(maxsize=8)
def _json(path: str) -> Any:
    return json.loads(Path(path).read_text("utf-8"))


@lru_cache(maxsize=8)
def _kgclue_index(path: str) -> dict[str, dict]:
    out = {}
    for line in _lines(path):
        if line.strip():
            row = json.loads(line)
            out[str(row["id"])] = row
    return out


@lru_cache(maxsize=4)
def _kdconv_index(path: str) -> dict[str, dict]:
    return {json.loads(l)["entity"]: json.loads(l) for l in _lines(path) if l.strip()}


def _spo_item(root: Path, source: str, locator: Any, entity: str) -> dict[str, Any]:
    lines = _lines(str(root / source))
    try:
        row = json.loads(lines[int(locator) - 1])
    except (ValueError, IndexError) as exc:
        raise LabelError(f"{source}: no line {locator!r}") from exc
    triples = []
    for spo in row.get("spo_list", []):
        if spo.get("subject") != entity:
            continue
        obj = spo.get("object")
        tail = obj.get("@value") if isinstance(obj, dict) else obj
        triples.append({"head": entity, "relation": spo.get("predicate", ""), "tail": str(tail)})
    if not triples:
        raise LabelError(f"{source}:{locator}: {entity!r} is not a subject on that line")
    tags = []
    if source.startswith("duie"):
        # DuIE's subject_type is Baidu's own entity category, the same kind of
        # signal as a Baike tag (影视作品, 历史人物, 企业...).
        tags = sorted({s.get("subject_type") for s in row["spo_list"] if s.get("subject") == entity and s.get("subject_type")})
    return {"entity": entity, "text": row.get("text", ""), "tags": tags, "triples": triples}


def _kgclue_item(root: Path, source: str, locator: Any) -> dict[str, Any]:
    row = _kgclue_index(str(root / source)).get(str(locator))
    if row is None:
        raise LabelError(f"{source}: no id {locator!r}")
    head, rel, tail = [p.strip() for p in row["answer"].split("|||")]
    return {"entity": head, "text": "", "tags": [], "triples": [{"head": head, "relation": rel, "tail": tail}]}


def _kdconv_item(root: Path, source: str, locator: Any) -> dict[str, Any]:
    if source.endswith("kb_travel.json"):
        kb = _json(str(root / source))
        if locator not in kb:
            raise LabelError(f"{source}: no attraction {locator!r}")
        info = [t[2] for t in kb[locator] if t[1] == "Information"]
        triples = [{"head": t[0], "relation": t[1], "tail": t[2]} for t in kb[locator] if t[1] != "Information"]
        return {"entity": locator, "text": info[0] if info else "", "tags": [], "triples": triples}
    if isinstance(locator, int):
        lines = _lines(str(root / source))
        row = json.loads(lines[locator - 1]) if 0 < locator <= len(lines) else None
    else:
        row = _kdconv_index(str(root / source)).get(locator)
    if row is None:
        raise LabelError(f"{source}: no entity {locator!r}")
    triples = [{"head": t[0], "relation": t[1], "tail": t[2]} for t in row.get("triples", [])]
    return {"entity": row["entity"], "text": row.get("summary") or "", "tags": [], "triples": triples}


_TAG_RE = re.compile(r'<span class="taglist"[^>]*>(.*?)</span>', re.S)


def baike_page_tags(page_html: str) -> list[str]:
    """The 词条标签 of an older-markup Baidu Baike page."""
    i = page_html.find("open-tag-item")
    if i < 0:
        return []
    seg = page_html[i : i + 4000]
    return [html.unescape(re.sub(r"<[^>]+>", "", t)).strip() for t in _TAG_RE.findall(seg) if t.strip()]


def _baike_item(root: Path, source: str, locator: Any) -> dict[str, Any]:
    base = root / source
    name = str(locator)
    table = base / "extracted" / "info-table" / f"{name}.txt"
    para = base / "extracted" / "info-para" / f"{name}.txt"
    if not table.exists():
        raise LabelError(f"{source}: no page {name!r}")
    triples = []
    for line in table.read_text("utf-8", errors="replace").splitlines():
        if "$$" in line:
            rel, _, val = line.partition("$$")
            triples.append({"head": name, "relation": rel, "tail": val})
    pages = sorted((base / "pages").glob(f"{name}*_百度百科.html"))
    tags = baike_page_tags(pages[0].read_text("utf-8", errors="replace")) if pages else []
    text = para.read_text("utf-8", errors="replace") if para.exists() else ""
    return {"entity": name, "text": text, "tags": tags, "triples": triples}


def _nlpcc_item(root: Path, source: str, locator: Any) -> dict[str, Any]:
    content = (root / source).read_text("utf-8", errors="replace")
    m = re.search(rf"<triple id={int(locator)}>\s*(.*)", content)
    if not m:
        raise LabelError(f"{source}: no triple id {locator!r}")
    head, rel, tail = [p.strip() for p in m.group(1).split("|||")]
    return {"entity": head, "text": "", "tags": [], "triples": [{"head": head, "relation": rel, "tail": tail}]}


def _string_triple(value: str) -> dict[str, str]:
    """"head ||| relation ||| tail", "relation$$tail" or a bare relation name."""
    for sep in ("|||", "$$", "\t"):
        parts = [p.strip() for p in value.split(sep)]
        if len(parts) == 3:
            return {"head": parts[0], "relation": parts[1], "tail": parts[2]}
        if len(parts) == 2:
            return {"relation": parts[0], "tail": parts[1]}
    return {"relation": value.strip(), "tail": ""}


def resolve_row(row: dict[str, Any], data_root: Path | None) -> dict[str, Any]:
    """Turn one labelled row into a classifier item with its gold label."""
    label = norm_label(row.get("domain", row.get("label")))
    item = locate_item(row, data_root)
    item["gold"] = label
    return item


def locate_item(row: dict[str, Any], data_root: Path | None) -> dict[str, Any]:
    """The item a labelled row points at (locator rows) or holds (self-contained
    rows), without its label: shared by the domain and the entity-type sets."""
    if "source" in row and "locator" in row:
        if data_root is None or not Path(data_root).is_dir():
            raise LabelError(f"row {row.get('entity')!r} needs the data folder, but {data_root} is absent")
        root, source, loc = Path(data_root), str(row["source"]), row["locator"]
        if source.startswith(("duie/", "landscape-plant/")):
            item = _spo_item(root, source, loc, str(row.get("entity", "")))
        elif source.startswith("kgclue/"):
            item = _kgclue_item(root, source, loc)
        elif source.startswith("kdconv/"):
            item = _kdconv_item(root, source, loc)
        elif source.startswith("baike-baidu-2019"):
            item = _baike_item(root, "baike-baidu-2019", loc)
        elif source.startswith("nlpcc2016-kbqa/"):
            item = _nlpcc_item(root, source, loc)
        else:
            raise LabelError(f"unknown source {source!r}")
        item["source"] = source
    else:
        entity = row.get("entity") or row.get("title")
        if not entity:
            raise LabelError("self-contained row needs 'entity' or 'title'")
        triples = row.get("triples") or row.get("relations") or []
        if not triples and row.get("infobox"):
            ib = row["infobox"]
            triples = [{"relation": k, "tail": v} for k, v in ib.items()] if isinstance(ib, dict) else list(ib)
        if isinstance(triples, dict):
            triples = [{"relation": k, "tail": v} for k, v in triples.items()]
        triples = [_string_triple(t) if isinstance(t, str) else t for t in triples]
        item = {
            "entity": entity,
            "subtitle": row.get("subtitle"),
            "text": row.get("text") or row.get("summary") or "",
            "tags": row.get("tags") or [],
            "triples": triples,
            "source": row.get("source", "inline"),
        }
        _check_shape(item)
    return item


def _check_shape(item: dict[str, Any]) -> None:
    """A self-contained row's fields as the classifiers read them: strings, a
    list of string tags, triples with a string relation and tail."""
    for key in ("entity", "text"):
        if not isinstance(item[key], str):
            raise LabelError(f"'{key}' must be a string, not {type(item[key]).__name__}")
    if item["subtitle"] is not None and not isinstance(item["subtitle"], str):
        raise LabelError("'subtitle' must be a string")
    if not isinstance(item["tags"], list) or not all(isinstance(t, str) for t in item["tags"]):
        raise LabelError("'tags' must be a list of strings")
    for t in item["triples"]:  # {relation, tail}, an infobox row {name, value}, or [head,] relation, tail
        if isinstance(t, dict):
            ok = isinstance(t.get("relation", t.get("name")), str) and \
                isinstance(t.get("tail", t.get("value", "")), (str, int, float))
        else:
            ok = isinstance(t, (list, tuple)) and len(t) in (2, 3) and all(isinstance(x, (str, int, float)) for x in t)
        if not ok:
            raise LabelError(f"a triple or infobox row must give a string relation (name) and a tail (value), "
                             f"not {t!r:.60}")


def labelled_rows(path: Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """(line number, JSON object) of each non-blank line; LabelError naming the
    line for one that is not UTF-8, not JSON or not an object."""
    try:
        for n, row in safejson.iter_jsonl(str(path)):
            if not isinstance(row, dict):
                raise LabelError(f"{path}:{n}: expected a JSON object, got {type(row).__name__}")
            yield n, row
    except LabelError:
        raise
    except UnicodeDecodeError as exc:
        raise LabelError(f"{path}: not UTF-8 text ({exc.reason})") from None
    except ValueError as exc:  # iter_jsonl names the line: not JSON, or nested too deeply
        raise LabelError(str(exc)) from None


def resolved(resolve: Callable[[dict[str, Any], Path | None], dict[str, Any]], row: dict[str, Any],
             data_root: Path | None, where: str) -> dict[str, Any]:
    """`resolve(row)`, with any fault of the row (a field of the wrong type) as a LabelError naming `where`."""
    try:
        return resolve(row, data_root)
    except LabelError as exc:
        raise LabelError(f"{where}: {exc}") from exc
    except (TypeError, AttributeError, ValueError, KeyError) as exc:
        raise LabelError(f"{where}: a field has the wrong type or shape ({type(exc).__name__}: {exc})") from None


def load_labels(path: Path, data_root: Path | None,
                resolve: Callable[[dict[str, Any], Path | None], dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """Every row of a labelled JSON Lines file, resolved by `resolve` (default: a domain row).

    The entity-type set (transforms/entity_type_labels.py) reads its file with its own resolver."""
    resolve = resolve or resolve_row
    items = []
    for n, row in labelled_rows(path):
        items.append(resolved(resolve, row, data_root, f"{path}:{n}"))
    if not items:
        raise LabelError(f"{path}: no labelled rows")
    return items


def evaluate(items: list[dict[str, Any]], classifier: DomainClassifier) -> dict[str, Any]:
    """Accuracy, per-domain precision/recall and the confusion matrix."""
    results = classifier.classify_batch(items)
    labels = list(DOMAINS) + [UNKNOWN]
    confusion = {g: {p: 0 for p in labels} for g in DOMAINS}
    for item, res in zip(items, results):
        confusion[item["gold"]][res.domain] += 1
    total = len(items)
    correct = sum(confusion[d][d] for d in DOMAINS)
    per = {}
    for d in DOMAINS:
        tp = confusion[d][d]
        pred = sum(confusion[g][d] for g in DOMAINS)
        gold = sum(confusion[d].values())
        per[d] = {"precision": tp / pred if pred else 0.0, "recall": tp / gold if gold else 0.0, "support": gold}
    errors = [
        {"entity": it["entity"], "source": it.get("source"), "gold": it["gold"], "pred": r.domain, "scores": r.scores}
        for it, r in zip(items, results)
        if r.domain != it["gold"]
    ]
    return {
        "n": total,
        "accuracy": correct / total if total else 0.0,
        "per_domain": per,
        "confusion": confusion,
        "by_source": dict(Counter(it.get("source") for it in items)),
        "errors": errors,
    }


def format_report(report: dict[str, Any]) -> str:
    labels = list(DOMAINS) + [UNKNOWN]
    lines = [f"items: {report['n']}  accuracy: {report['accuracy']:.3f}", "", "domain  precision  recall  support"]
    for d in DOMAINS:
        p = report["per_domain"][d]
        lines.append(f"{d:<6}  {p['precision']:>9.3f}  {p['recall']:>6.3f}  {p['support']:>7}")
    lines += ["", "confusion (rows = gold, columns = predicted)", "gold\\pred " + " ".join(f"{l:>7}" for l in labels)]
    for g in DOMAINS:
        lines.append(f"{g:<9} " + " ".join(f"{report['confusion'][g][l]:>7}" for l in labels))
    return "\n".join(lines)


def split_by_source(items: Iterable[dict[str, Any]], held_out: Iterable[str]) -> tuple[list, list]:
    """(tuning items, held-out items). An item is held out when its source starts
    with one of the names, or its row's `set` is one of them (held_out_v2)."""
    held = tuple(h for h in held_out if h)
    tune, test = [], []
    for it in items:
        out = bool(held) and (str(it.get("source", "")).startswith(held) or it.get("set") in held)
        (test if out else tune).append(it)
    return tune, test
