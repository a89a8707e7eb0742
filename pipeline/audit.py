"""Audit rows: every input entry and every input triple ends with ONE final fate.

Stages call these helpers only for what they DROP; the finalise stage writes
the `kept` rows. A pair dict carries two private bookkeeping keys that never
reach the pairs output: `_entry_key` (lemma id / title / input location) and
`_source` (input file location), so a row dropped late still says where its
entry came from. Triple dicts may carry `triple_id`; otherwise it is derived
from the pair id, relation, tail and the triple's ordinal among equal ones.
"""
from __future__ import annotations

import json
from typing import Any, Iterable

from transforms.pairs import make_triple_id

ENTRY = "entry"
TRIPLE = "triple"
KEPT = "kept"
DROPPED = "dropped"
INVALID_INPUT = "invalid_input"


def as_detail(detail: Any) -> str | None:
    """Evidence as text: strings stay, structures become compact JSON."""
    if detail is None or isinstance(detail, str):
        return detail
    return json.dumps(detail, ensure_ascii=False, sort_keys=True, default=str)


def audit_row(
    kind: str,
    fate: str,
    stage: str,
    reason: str,
    *,
    entry_key: str | None = None,
    pair_id: str | None = None,
    triple_id: str | None = None,
    head: str | None = None,
    relation: str | None = None,
    tail: str | None = None,
    detail: Any = None,
    source: str | None = None,
) -> dict[str, Any]:
    return {
        "kind": kind,
        "entry_key": entry_key,
        "pair_id": pair_id,
        "triple_id": triple_id,
        "head": head,
        "relation": relation,
        "tail": tail,
        "fate": fate,
        "stage": stage,
        "reason": reason,
        "detail": as_detail(detail),
        "source": source,
    }


def triple_ids(pair: dict[str, Any]) -> list[str]:
    """Stable ids of a pair's triples, in order."""
    seen: dict[tuple, int] = {}
    out = []
    for t in pair.get("triples") or []:
        if t.get("triple_id"):
            out.append(t["triple_id"])
            continue
        k = (t.get("relation"), t.get("tail"))
        ordinal = seen.get(k, 0)
        seen[k] = ordinal + 1
        out.append(make_triple_id(pair["pair_id"], t.get("relation"), t.get("tail"), ordinal))
    return out


def triple_id_of(pair: dict[str, Any], triple: dict[str, Any]) -> str:
    if triple.get("triple_id"):
        return triple["triple_id"]
    # Position among equal (relation, tail) triples of the pair as it was given.
    ordinal = 0
    for t in pair.get("triples") or []:
        if t is triple:
            break
        if (t.get("relation"), t.get("tail")) == (triple.get("relation"), triple.get("tail")):
            ordinal += 1
    return make_triple_id(pair["pair_id"], triple.get("relation"), triple.get("tail"), ordinal)


def triple_row(pair: dict[str, Any], triple: dict[str, Any], fate: str, stage: str, reason: str, detail: Any = None,
               triple_id: str | None = None) -> dict[str, Any]:
    return audit_row(
        TRIPLE,
        fate,
        stage,
        reason,
        entry_key=pair.get("_entry_key") or pair.get("pair_id"),
        pair_id=pair.get("pair_id"),
        triple_id=triple_id or triple_id_of(pair, triple),
        head=triple.get("head"),
        relation=triple.get("relation"),
        tail=triple.get("tail"),
        detail=detail,
        source=pair.get("_source"),
    )


def entry_row(pair: dict[str, Any], fate: str, stage: str, reason: str, detail: Any = None) -> dict[str, Any]:
    return audit_row(
        ENTRY,
        fate,
        stage,
        reason,
        entry_key=pair.get("_entry_key") or pair.get("pair_id"),
        pair_id=pair.get("pair_id"),
        head=pair.get("entity"),
        detail=detail,
        source=pair.get("_source"),
    )


def dropped_triples(pair: dict[str, Any], stage: str, dropped: Iterable[tuple[dict, str, Any]]) -> list[dict[str, Any]]:
    """Rows for (triple, reason, detail) tuples a stage removed from `pair`."""
    return [triple_row(pair, t, DROPPED, stage, reason, detail) for t, reason, detail in dropped]


def dropped_pair(pair: dict[str, Any], stage: str, reason: str, detail: Any = None) -> list[dict[str, Any]]:
    """Rows for a whole pair a stage discarded: the entry, then each triple
    still in it with reason `pair_dropped:<reason>`."""
    rows = [entry_row(pair, DROPPED, stage, reason, detail)]
    ids = triple_ids(pair)
    for t, tid in zip(pair.get("triples") or [], ids):
        rows.append(triple_row(pair, t, DROPPED, stage, f"pair_dropped:{reason}", detail, triple_id=tid))
    return rows


def kept_rows(pair: dict[str, Any], stage: str = "finalise") -> list[dict[str, Any]]:
    rows = [entry_row(pair, KEPT, stage, "kept")]
    for t, tid in zip(pair.get("triples") or [], triple_ids(pair)):
        rows.append(triple_row(pair, t, KEPT, stage, "kept", triple_id=tid))
    return rows
