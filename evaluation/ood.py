"""Out-of-distribution item sets (paper §5.3): WebNLG, YAGO3-10, HotpotQA.

Each loader turns a public set, read at run time from its own files, into
items of `schemas/items.py` ITEM_SCHEMA, so `cdtp eval --items` scores them
with the same prompts and metrics as the CDTP items:

- WebNLG (data-to-text, English) -> `t2t`: the entry's triples as input, its
  first verified lexicalisation as the reference. `dev` becomes the train
  split (k-shot demonstrations), `test` the eval split.
- YAGO3-10 (link prediction) -> `kgc`: `(h, r, ?)` with ten options, the nine
  distractors drawn by the same generator and checked by the same invariants
  as the CDTP items (the graph is the set's own triples).
- HotpotQA (multi-hop QA, answers only) -> `qa`: ten options from the answers
  of other questions; yes/no questions have no ten distinct options and are
  skipped and counted.

The `domain` column holds the set's name (webnlg, yago3-10, hotpotqa).
"""
from __future__ import annotations

import hashlib
import os
import xml.etree.ElementTree as ET
from collections import Counter
from typing import Any, Iterator

from schemas.items import ITEM_SCHEMA

WEBNLG, YAGO, HOTPOT = "webnlg", "yago3-10", "hotpotqa"
OOD_SETS = (WEBNLG, YAGO, HOTPOT)


class OodError(ValueError):
    """A missing or unreadable OOD folder."""


def item_id(*parts: str) -> str:
    return hashlib.sha1("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def empty_item(**fields: Any) -> dict[str, Any]:
    """An ITEM_SCHEMA row with every column present (nulls, empty lists)."""
    row: dict[str, Any] = {name: None for name in ITEM_SCHEMA.names}
    for name in ("options", "distractor_origins", "distractor_similarity", "triples", "gold_triples"):
        row[name] = []
    unknown = set(fields) - set(row)
    if unknown:
        raise KeyError(f"not ITEM_SCHEMA columns: {sorted(unknown)}")
    row.update(fields)
    return row


def in_subset(key: str, seed: int, share: float) -> bool:
    """A fixed share of each set, by seeded hash: the cheap `--subset` run."""
    h = int(hashlib.sha1(f"{seed}\x1f{key}".encode("utf-8")).hexdigest()[:8], 16)
    return h / 0xFFFFFFFF < share


# ---------------------------------------------------------------- WebNLG
def _entity(name: str) -> str:
    """WebNLG writes `Albert_Uderzo`, `"1.8"`: the surface form people read."""
    return name.strip().strip('"').replace("_", " ").strip()


def _webnlg_entries(path: str) -> Iterator[ET.Element]:
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as exc:
        raise OodError(f"WebNLG file {path} is not readable XML: {exc}") from None
    yield from root.iter("entry")


def load_webnlg(folder: str, *, seed: int = 0, subset_share: float = 0.25,
                stats: Counter | None = None) -> Iterator[dict[str, Any]]:
    """T2T items from WebNLG `dev/` (train split) and `test/` (eval split) XML files."""
    stats = stats if stats is not None else Counter()
    parts = [("dev", "train"), ("test", "eval")]
    if not any(os.path.isdir(os.path.join(folder, p)) for p, _ in parts):
        raise OodError(f"{folder}: expected WebNLG dev/ and test/ folders of XML files")
    for part, split in parts:
        base = os.path.join(folder, part)
        if not os.path.isdir(base):
            continue
        for dirpath, dirnames, filenames in os.walk(base):
            dirnames.sort()
            for name in sorted(f for f in filenames if f.endswith(".xml")):
                for entry in _webnlg_entries(os.path.join(dirpath, name)):
                    triples = []
                    for mt in entry.iter("mtriple"):
                        pieces = [p.strip() for p in (mt.text or "").split("|")]
                        if len(pieces) == 3 and all(pieces):
                            triples.append({"head": _entity(pieces[0]), "relation": pieces[1],
                                            "tail": _entity(pieces[2])})
                    texts = [(lex.findtext("text") or "").strip() for lex in entry.iter("lex")
                             if lex.get("comment", "good") == "good"]
                    texts = [t for t in texts if t]
                    if not triples or not texts:
                        stats["webnlg_skipped_no_triples_or_text"] += 1
                        continue
                    key = f"{part}/{entry.get('category')}/{entry.get('size')}/{entry.get('eid')}"
                    stats[f"webnlg_{split}"] += 1
                    yield empty_item(
                        item_id=item_id("t2t", WEBNLG, key), task="t2t", domain=WEBNLG, split=split,
                        in_subset=in_subset(key, seed, subset_share), pair_id=key,
                        head=triples[0]["head"], triples=triples, reference=texts[0])
