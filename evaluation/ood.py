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
from transforms.text import normalise

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


def load_webnlg(folder: str, *, seed: int = 0, limit: int | None = None, subset_share: float = 0.25,
                stats: Counter | None = None) -> Iterator[dict[str, Any]]:
    """T2T items from WebNLG `dev/` (train split) and `test/` (eval split) XML
    files, at most `limit` of each split (the first in file order)."""
    stats = stats if stats is not None else Counter()
    parts = [("dev", "train"), ("test", "eval")]
    if not any(os.path.isdir(os.path.join(folder, p)) for p, _ in parts):
        raise OodError(f"{folder}: expected WebNLG dev/ and test/ folders of XML files")
    for part, split in parts:
        base = os.path.join(folder, part)
        if not os.path.isdir(base):
            continue
        made = 0  # per split, as for YAGO3-10 and HotpotQA: a limited set still has eval items
        for item in _webnlg_split(base, part, split, seed, subset_share, stats):
            if limit is not None and made >= limit:
                break
            made += 1
            stats[f"webnlg_{split}"] += 1
            yield item


def _webnlg_split(base: str, part: str, split: str, seed: int, subset_share: float,
                  stats: Counter) -> Iterator[dict[str, Any]]:
    """Every usable entry under `base`, in file order (the caller counts what it keeps)."""
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
                yield empty_item(
                    item_id=item_id("t2t", WEBNLG, key), task="t2t", domain=WEBNLG, split=split,
                    in_subset=in_subset(key, seed, subset_share), pair_id=key,
                    head=triples[0]["head"], triples=triples, reference=texts[0])


# ---------------------------------------------- ten-option items, same generator
class _Similarity:
    """Cosine similarities from the project's Embedder, each unique string embedded once."""

    def __init__(self, embedder_spec: str) -> None:
        from pipeline.errors import CdtpError
        from transforms.embed import EmbedderError, make_embedder

        try:
            self.embedder = make_embedder(embedder_spec)
        except EmbedderError as exc:
            raise CdtpError(f"--embedder: {exc}") from None
        self.vectors: dict[str, Any] = {}

    def prime(self, texts) -> None:
        todo = sorted({t for t in texts if t not in self.vectors})
        for start in range(0, len(todo), 512):
            chunk = todo[start:start + 512]
            for t, v in zip(chunk, self.embedder.encode(chunk)):
                self.vectors[t] = v

    def to(self, gold: str, texts: list[str]) -> dict[str, float]:
        self.prime([gold, *texts])
        g = self.vectors[gold]
        return {t: float(self.vectors[t] @ g) for t in texts}


def _seeded_sample(values: list[str], k: int, seed: int, key: str) -> list[str]:
    """Up to k values in a seeded order that depends on the item, not on input order."""
    ranked = sorted(set(values), key=lambda v: hashlib.sha1(f"{seed}\x1f{key}\x1f{v}".encode()).digest())
    return ranked[:k]


def _options_item(*, iid: str, task: str, domain: str, split: str, subset: bool, pair_id: str, head: str | None,
                  relation: str, gold: str, question: str, known: frozenset, candidates, sim: _Similarity,
                  cfg, stats: Counter, pivot: frozenset = frozenset()) -> dict[str, Any] | None:
    """One QA/KGC item through the CDTP distractor chooser and invariant checker, or None (counted)."""
    from transforms.entity_type import tail_type
    from transforms.items.distractors import Draft, assemble, choose, violations
    from transforms.items.numeric import ladder

    gold_type = tail_type(gold, relation).type
    below, above = ladder(gold, gold_type, relation)
    texts = [c.text for c in candidates] + below + above
    similarity = sim.to(gold, texts)
    draft = Draft(item_id=iid, gold=gold, gold_type=None, relation=relation, known=known,
                  aliases=frozenset(), candidates=list(candidates), below=below, above=above, pivot=pivot)
    rejected: dict[str, int] = {}
    chosen = choose(draft, similarity, (cfg.band_low, cfg.band_high), cfg.seed, cfg.max_per_origin, rejected)
    for why, n in rejected.items():
        stats[f"{domain}_rejected_{why}"] += n
    if chosen is None:
        stats[f"{domain}_skipped_too_few_distractors"] += 1
        return None
    item = empty_item(item_id=iid, task=task, domain=domain, split=split, in_subset=subset, pair_id=pair_id,
                      head=head, relation=relation, tail=gold, question=question, asked="tail",
                      **assemble(draft, chosen, cfg.seed))
    bad = violations(item, known, relation)
    if bad:
        for why in bad:
            stats[f"{domain}_violations_{why}"] += 1
        return None
    stats[f"{domain}_{split}"] += 1
    return item


def _read_triples(path: str, stats: Counter) -> list[tuple[str, str, str]]:
    """h<TAB>r<TAB>t lines; any other line is counted in stats (`yago_skipped_malformed`), never dropped unseen."""
    out = []
    try:
        with open(path, encoding="utf-8") as fh:
            for line in fh:
                parts = line.rstrip("\n").split("\t")
                if len(parts) == 3 and all(p.strip() for p in parts):
                    out.append(tuple(p.strip() for p in parts))
                elif line.strip():
                    stats["yago_skipped_malformed"] += 1
    except UnicodeDecodeError as exc:
        raise OodError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    return out


def load_yago(folder: str, *, seed: int = 0, limit: int | None = None, subset_share: float = 0.25,
              embedder: str = "use-m3", stats: Counter | None = None, pool: int = 45) -> Iterator[dict[str, Any]]:
    """KGC items `(h, r, ?)` from YAGO3-10 valid (train split) and test (eval
    split), at most `limit` of each split.

    The graph is every triple of the files present: a distractor x is never
    such that (h, r, x) is in it. (YAGO3-10's train file is not shipped here,
    so a true fact known only to train could in principle be offered; the
    exclusion is as complete as the data given.)"""
    from transforms.items.config import ItemsConfig
    from transforms.items.distractors import Candidate
    from transforms.items.exclusion import known_set

    stats = stats if stats is not None else Counter()
    files = [("valid.txt", "train"), ("test.txt", "eval")]
    missing = [f for f, _ in files if not os.path.isfile(os.path.join(folder, f))]
    if missing:  # a split would be silently absent
        raise OodError(f"{folder}: expected YAGO3-10 valid.txt and test.txt (h<TAB>r<TAB>t lines); "
                       f"missing {', '.join(missing)}")
    parts = {split: _read_triples(os.path.join(folder, f), stats) for f, split in files}
    graph = [t for triples in parts.values() for t in triples]
    tails_of: dict[tuple[str, str], list[str]] = {}
    by_relation: dict[str, list[str]] = {}
    neighbours: dict[str, list[str]] = {}
    tail_freq: Counter = Counter()
    for h, r, t in graph:
        tails_of.setdefault((h, r), []).append(_entity(t))
        by_relation.setdefault(r, []).append(_entity(t))
        neighbours.setdefault(h, []).append(_entity(t))
        neighbours.setdefault(t, []).append(_entity(h))
        tail_freq[_entity(t)] += 1
    cfg = ItemsConfig(seed=seed)
    sim = _Similarity(embedder)
    for split, triples in parts.items():
        made = 0  # the limit is per split: a limited set still has eval items, not train ones only
        for h, r, t in sorted(set(triples)):
            if limit is not None and made >= limit:
                break
            key = f"{h}\x1f{r}\x1f{t}"
            iid = item_id("kgc", YAGO, key)
            gold, head = _entity(t), _entity(h)
            cands = [Candidate(x, None, "neighbour", 0)
                     for x in _seeded_sample(neighbours.get(t, []) + neighbours.get(h, []), pool // 3, seed, key)]
            cands += [Candidate(x, None, "same_relation", 0)
                      for x in _seeded_sample(by_relation[r], pool, seed, key + "r")]
            same_bin = [x for x in by_relation[r] if abs(tail_freq[x] - tail_freq[gold]) <= 1]
            cands += [Candidate(x, None, "frequency", 0) for x in _seeded_sample(same_bin, pool // 3, seed, key + "f")]
            item = _options_item(iid=iid, task="kgc", domain=YAGO, split=split,
                                 subset=in_subset(key, seed, subset_share), pair_id=h, head=head, relation=r,
                                 gold=gold, question=f"（{head}，{r}，？）", known=known_set(tails_of[(h, r)], r),
                                 candidates=cands, sim=sim, cfg=cfg, stats=stats,
                                 pivot=frozenset({normalise(head)}))
            if item is not None:
                made += 1
                yield item


_YES_NO = {"yes", "no"}


def load_hotpotqa(folder: str, *, seed: int = 0, limit: int | None = None, subset_share: float = 0.25,
                  embedder: str = "use-m3", stats: Counter | None = None, pool: int = 45) -> Iterator[dict[str, Any]]:
    """QA items from HotpotQA dev (answers only): options from other questions' answers.

    Every question goes to the eval split (the shipped file is dev). A
    candidate is another question's answer of the same kind (a year, a
    number, a name ...: transforms/entity_type.tail_type), in the semantic
    band; yes/no questions are skipped and counted."""
    import json

    from transforms.entity_type import tail_type
    from transforms.items.config import ItemsConfig
    from transforms.items.distractors import Candidate
    from transforms.items.exclusion import known_set

    stats = stats if stats is not None else Counter()
    files = sorted(f for f in os.listdir(folder) if f.endswith(".json")) if os.path.isdir(folder) else []
    if not files:
        raise OodError(f"{folder}: expected a HotpotQA JSON file (a list of question/answer/type objects)")
    rows = []
    for name in files:
        try:
            with open(os.path.join(folder, name), encoding="utf-8") as fh:
                data = json.load(fh)
        except (OSError, ValueError, RecursionError) as exc:
            raise OodError(f"{name}: not readable JSON: {exc}") from None
        for i, r in enumerate(data if isinstance(data, list) else []):
            q, a = (r.get("question"), r.get("answer")) if isinstance(r, dict) else (None, None)
            if not isinstance(q, str) or not isinstance(a, str) or not q.strip() or not a.strip():
                stats["hotpotqa_skipped_malformed"] += 1
                continue
            if a.strip().lower() in _YES_NO:
                stats["hotpotqa_skipped_yes_no"] += 1
                continue
            rows.append((f"{name}#{i}", q.strip(), a.strip()))
    kinds: dict[str, list[str]] = {}
    kind_of = {}
    for _, _, a in rows:
        kind_of[a] = tail_type(a, "").type
        kinds.setdefault(kind_of[a], []).append(a)
    cfg = ItemsConfig(seed=seed)
    sim = _Similarity(embedder)
    made = 0
    for key, question, answer in rows:
        if limit is not None and made >= limit:
            return
        same_kind = [x for x in kinds[kind_of[answer]] if x != answer]
        cands = [Candidate(x, None, "type", 0) for x in _seeded_sample(same_kind, pool, seed, key)]
        item = _options_item(iid=item_id("qa", HOTPOT, key), task="qa", domain=HOTPOT, split="eval",
                             subset=in_subset(key, seed, subset_share), pair_id=key, head=None, relation="answer",
                             gold=answer, question=question, known=known_set([answer]), candidates=cands,
                             sim=sim, cfg=cfg, stats=stats)
        if item is not None:
            made += 1
            yield item


LOADERS = {WEBNLG: load_webnlg, YAGO: load_yago, HOTPOT: load_hotpotqa}


def load(name: str, folder: str, **kwargs) -> Iterator[dict[str, Any]]:
    """Items of one OOD set (`webnlg`, `yago3-10`, `hotpotqa`) read from its folder."""
    if name not in LOADERS:
        raise OodError(f"unknown OOD set {name!r}: choose from {', '.join(OOD_SETS)}")
    if name == WEBNLG:
        kwargs.pop("embedder", None)  # its items have no options to choose
    return LOADERS[name](folder, **kwargs)
