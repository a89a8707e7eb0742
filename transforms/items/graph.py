"""The graph of kept triples as items see it: edges, per-name groups, pools.

Beam groups the edges by normalised name (pipeline/items_stage.py), so one
worker sees one name's out-edges (the name as head, every sense), in-edges
(the name as tail) and short messages from its neighbours; never the graph.

A name's message to each neighbour (`name_summary`) carries what the
neighbour's questions need about it: its display form, type, frequency as a
tail (its bin), its aliases (for the "never a true answer" rule), and a few of
its own neighbours (the neighbour's 2-hop candidates). The same pass gives
the candidate pools, keyed by (relation | head-of-relation | type, bin):
names are ranked in a pool by a seeded hash, so a pool is a fixed sample.
"""
from __future__ import annotations

import math
from collections import Counter
from typing import Any, Iterable

from transforms.items.exclusion import ALIAS_RELATIONS, pieces
from transforms.items.kinds import coarse, is_alias, option_kind, option_type, pair_kind
from transforms.items.numeric import variants
from transforms.role_cues import role_of
from transforms.split import stable_hash
from transforms.text import normalise

EDGE_FIELDS = ("pair_id", "entity", "subtitle", "entity_type", "relation", "tail", "tail_type",
               "domain", "split", "in_subset")


def freq_bin(count: int) -> int:
    """0 (never a tail), 1 (once), 2 (2-3), 3 (4-7), 4 (8-15), 5 (16+): log2 bins of corpus frequency."""
    if count <= 0:
        return 0
    return min(5, 1 + int(math.log2(count)))


def edges_of(pair: dict[str, Any]) -> list[tuple]:
    """One edge per kept triple: a tuple in EDGE_FIELDS order (cheap to shuffle).
    Its two types are the kinds the names have as options (items/kinds.py:
    option_type, then option_kind: a work's kind, a person's field, a country), so
    every pool, neighbour and gold of the items stage reads the same kinds."""
    entity = pair.get("entity") or ""
    head_type = option_type(entity, pair.get("entity_type") or "other")
    head_kind = pair_kind(pair, head_type)
    base = (pair.get("pair_id"), entity, pair.get("subtitle"), option_kind(head_type, head_kind=head_kind, name=entity))
    rest = (pair.get("domain") or "unknown", pair.get("split"), bool(pair.get("in_subset")))
    out = []
    for t in pair.get("triples") or []:
        tail = t.get("tail") or ""
        if not tail.strip():
            continue
        relation = t.get("relation") or ""
        tail_type = option_kind(option_type(tail, t.get("tail_type") or "other"), relation, head_type, head_kind,
                                tail)
        out.append(base + (relation, tail, tail_type) + rest)
    return out


def keyed_edges(edge: tuple) -> list[tuple[str, tuple]]:
    """The edge under its head's name ("out") and its tail's name ("in")."""
    head, tail = normalise(edge[1]), normalise(edge[5])
    out = []
    if head:
        out.append((head, ("out", edge)))
    if tail:
        out.append((tail, ("in", edge)))
    return out


def strings_of(edge: tuple) -> list[str]:
    """Every string an item may show for this edge: head, tail, the tail's numeric variants."""
    return [edge[1], edge[5], *variants(edge[5], edge[6], edge[4])]


def _majority(counter: Counter) -> str:
    return min(counter, key=lambda k: (-counter[k], k)) if counter else "other"


def _as_thing(types_as_tail: Counter) -> Counter:
    """A name's types as a tail, without its alias kinds when the graph also
    uses it as a thing (HBO, the 简称 of one company and the 出品公司 of a
    series, is a company among companies)."""
    things = Counter({t: n for t, n in types_as_tail.items() if not is_alias(t)})
    return things or types_as_tail


def name_summary(records: Iterable[tuple[str, tuple]], neighbour_limit: int, seed: int) -> dict[str, Any]:
    """What a name tells its neighbours (see the module doc)."""
    forms, types_as_entity, types_as_tail = Counter(), Counter(), Counter()
    aliases: set[str] = set()
    neighbours: dict[str, tuple[str, str]] = {}
    in_count = 0
    # A fixed order whatever order the group arrived in: which raw form of a
    # neighbour is kept (《呐喊》 or 呐喊) must not depend on the runner.
    for side, e in sorted(records, key=lambda r: (r[0], repr(r[1]))):
        if side == "out":
            forms[e[1]] += 1
            types_as_entity[e[3]] += 1
            if e[4] in ALIAS_RELATIONS:
                aliases.update(pieces(e[5], e[4]))
            neighbours.setdefault(normalise(e[5]), (e[5], e[6]))
        else:
            in_count += 1
            forms[e[5]] += 1
            types_as_tail[e[6]] += 1
            neighbours.setdefault(normalise(e[1]), (e[1], e[3]))
    ranked = sorted(neighbours, key=lambda k: stable_hash(seed, "neighbour", k))[:neighbour_limit]
    return {
        "name": _majority(forms),
        "type": _majority(types_as_entity) if types_as_entity else _majority(_as_thing(types_as_tail)),
        "count": in_count,
        "aliases": frozenset(aliases),
        "neighbours": [neighbours[k] for k in ranked],
        "all_neighbours": sorted(neighbours),
    }


def pool_entries(key: str, records: list[tuple[str, tuple]], summary: dict[str, Any], seed: int):
    """((pool kind, key, bin), (rank, text, type)) for every pool this name belongs to
    (a credit written two ways, 填词 and 作词, is one relation's pool: CREDIT_ROLE)."""
    b = freq_bin(summary["count"])
    rank = stable_hash(seed, "pool", key)
    rel_types: dict[str, Counter] = {}
    head_rels: dict[str, Counter] = {}
    for side, e in records:
        if side == "in":
            rel_types.setdefault(role_of(e[4]), Counter())[e[6]] += 1
        else:
            head_rels.setdefault(e[4], Counter())[e[3]] += 1
    name = summary["name"]
    out = [(("type", summary["type"], b), (rank, name, summary["type"]))]
    # `work:music` is also a work, for golds whose kind is unknown; an alias is not a thing of its own
    if coarse(summary["type"]) != summary["type"] and not is_alias(summary["type"]):
        out.append((("type", coarse(summary["type"]), b), (rank, name, summary["type"])))
    for r, c in rel_types.items():
        out.append((("rel", r, b), (rank, name, _majority(c))))
    for r, c in head_rels.items():
        out.append((("head", r, b), (rank, name, _majority(c))))
    return out
