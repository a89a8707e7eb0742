"""The near_duplicate stage's per-batch bookkeeping (decisions: transforms/neardup.py).

Three steps, each a pure function the Beam stage (pipeline/neardup_stage.py)
calls once per batch or once per run. A test or a plain loop can call the same
functions:

* ``sketch_batch``: MinHash band records of a batch of pairs, as one BAND
  array per band-key bucket (24 bytes per pair and band). This is all that crosses
  the shuffle for every pair.
* ``candidates_of``: the few pairs that share a band key with another are
  turned into ``Candidate`` records (shingle set, priority, future split).
* ``near_duplicate_batch``: drop the copies the decision names, with one
  audit row per dropped entry and triple naming the copy kept.
"""
from __future__ import annotations

from typing import Any, Mapping

import numpy as np

from pipeline import audit
from pipeline.cleaning_steps import StepResult
from transforms.dedup import hash64
from transforms.neardup import (
    Candidate,
    NearDuplicateConfig,
    band_keys,
    band_records,
    batch_shingles,
    text_digest,
    signatures,
)
from transforms.split import SplitConfig, assign_pair_split

STAGE_NEAR_DUPLICATE = "near_duplicate"
NEAR_DUPLICATE_TEXT = "near_duplicate_text"
# Band records are grouped by band key modulo this: enough groups for a runner
# to spread them over workers, few enough that each batch emits few elements.
BAND_BUCKETS = 32


def pair_hash(pair: Mapping[str, Any]) -> int:
    return hash64(pair["pair_id"])


def sketch_batch(pairs: list[dict], cfg: NearDuplicateConfig) -> list[tuple[int, np.ndarray]]:
    """[(bucket, BAND array)] for the pairs whose normalised text has at least cfg.min_chars."""
    idx, shingles = batch_shingles([p.get("text") or "" for p in pairs], cfg.shingle_size, cfg.min_chars)
    if not shingles:
        return []
    hashes = [pair_hash(pairs[i]) for i in idx]
    digests = [text_digest(pairs[i].get("text") or "") for i in idx]
    records = band_records(hashes, band_keys(signatures(shingles, cfg), cfg), digests)
    bucket = (records["band"] % np.uint64(BAND_BUCKETS)).astype(np.int64)
    order = np.argsort(bucket, kind="stable")
    records, bucket = records[order], bucket[order]
    cuts = np.flatnonzero(np.diff(bucket)) + 1
    return [(int(part_bucket[0]), part) for part, part_bucket in zip(np.split(records, cuts), np.split(bucket, cuts))]


def is_candidate(pair: Mapping[str, Any], nodes: np.ndarray) -> bool:
    """Whether the pair shares a band key with another pair (nodes: sorted uint64 pair hashes)."""
    if not len(nodes):
        return False
    h = np.uint64(pair_hash(pair))
    i = int(np.searchsorted(nodes, h))
    return i < len(nodes) and nodes[i] == h


def candidates_of(pairs: list[dict], cfg: NearDuplicateConfig, split: SplitConfig | None) -> list[Candidate]:
    """The records the global decision needs, for a batch of candidate pairs. The split is
    the one the split stage will assign (a pure function of the entity), so leakage can be
    counted here."""
    idx, shingles = batch_shingles([p.get("text") or "" for p in pairs], cfg.shingle_size, cfg.min_chars)
    out = []
    for i, sh in zip(idx.tolist(), shingles):
        pair = pairs[i]
        side = assign_pair_split(pair, split.seed, split.eval_fraction) if split is not None and split.enabled else None
        out.append(Candidate(
            pair_hash=pair_hash(pair),
            pair_id=pair["pair_id"],
            entity=pair.get("entity") or "",
            num_triples=len(pair.get("triples") or ()),
            split=side,
            shingles=np.unique(sh),
        ))
    return out


def candidate_of(pair: Mapping[str, Any], cfg: NearDuplicateConfig, split: SplitConfig | None) -> Candidate:
    """candidates_of for one pair."""
    return candidates_of([dict(pair)], cfg, split)[0]


def near_duplicate_batch(pairs: list[dict], dropped: Mapping[str, Mapping[str, Any]]) -> StepResult:
    """Keep the pairs the decision does not name; audit rows for the copies dropped."""
    result = StepResult()
    for pair in pairs:
        why = dropped.get(pair["pair_id"])
        if why is None:
            result.pairs.append(pair)
        else:
            result.audit.extend(audit.dropped_pair(pair, STAGE_NEAR_DUPLICATE, NEAR_DUPLICATE_TEXT, dict(why)))
    return result
