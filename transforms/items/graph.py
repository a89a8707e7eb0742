"""The graph of kept triples as items see it: edges, per-name groups, pools.

Beam groups the edges by normalised name (pipeline/items_stage.py), so one
worker sees one name's out-edges (the name as head, every sense), in-edges
(the name as tail) and short messages from its neighbours; never the graph.

A name's message to each neighbour (`NameSummary`) carries what the
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
from transforms.items.kinds import coarse, is_alias, is_range, option_kind, option_type, pair_kind
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
        tail_type = option_kind(option_type(tail, t.get("tail_type") or "other", relation), relation, head_type,
                                head_kind, tail)
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
    """A name's types as a tail, without its alias and range kinds when the
    graph also uses it as a thing (HBO, the 简称 of one company and the 出品公司
    of a series, is a company among companies; 云南, a plant's 地理分布 and a
    person's 出生地, a place among places)."""
    things = Counter({t: n for t, n in types_as_tail.items() if not is_alias(t) and not is_range(t)})
    return things or types_as_tail


class NameSummary:
    """What a name tells its neighbours (see the module doc), added up record by
    record, so that a hub's group (中国, a tail of millions of edges) is read
    once and never held: its counters are per form, type and relation, and of
    its neighbours it keeps the `neighbour_limit` first by a seeded hash."""

    def __init__(self, neighbour_limit: int, seed: int):
        self.limit, self.seed = neighbour_limit, seed
        self.forms, self.types_as_entity, self.types_as_tail = Counter(), Counter(), Counter()
        self.aliases: set[str] = set()
        self.in_count = 0
        self.rel_types: dict[str, Counter] = {}  # the name's types as each relation's value (its pools)
        self.head_rels: dict[str, Counter] = {}  # ... as each relation's head
        # neighbour -> (rank, the first record naming it, its (raw form, type)): the
        # first by (side, repr(edge)), so the form kept (《呐喊》 or 呐喊) does not
        # hang on the order the runner gave the group in
        self._neighbours: dict[str, tuple] = {}

    def add(self, side: str, e: tuple) -> None:
        if side == "out":
            self.forms[e[1]] += 1
            self.types_as_entity[e[3]] += 1
            if e[4] in ALIAS_RELATIONS:
                self.aliases.update(pieces(e[5], e[4]))
            self.head_rels.setdefault(e[4], Counter())[e[3]] += 1
            self._offer(neighbour_of(side, e), (side, repr(e)), (e[5], e[6]))
        else:
            self.in_count += 1
            self.forms[e[5]] += 1
            self.types_as_tail[e[6]] += 1
            self.rel_types.setdefault(role_of(e[4]), Counter())[e[6]] += 1
            self._offer(neighbour_of(side, e), (side, repr(e)), (e[1], e[3]))

    def _offer(self, key: str, order: tuple, shown: tuple[str, str]) -> None:
        if self.limit <= 0:
            return
        got = self._neighbours.get(key)
        if got is None:
            self._neighbours[key] = (stable_hash(self.seed, "neighbour", key), order, shown)
            if len(self._neighbours) >= 2 * self.limit + 64:
                kept = sorted(self._neighbours, key=lambda k: (self._neighbours[k][0], k))[:self.limit]
                self._neighbours = {k: self._neighbours[k] for k in kept}
        elif order < got[1]:
            self._neighbours[key] = (got[0], order, shown)

    def result(self) -> dict[str, Any]:
        ranked = sorted(self._neighbours, key=lambda k: (self._neighbours[k][0], k))[:max(self.limit, 0)]
        return {
            "name": _majority(self.forms),
            "type": (_majority(self.types_as_entity) if self.types_as_entity
                     else _majority(_as_thing(self.types_as_tail))),
            "count": self.in_count,
            "aliases": frozenset(self.aliases),
            "neighbours": [self._neighbours[k][2] for k in ranked],
        }


def neighbour_of(side: str, e: tuple) -> str:
    """The name at the other end of a record's edge."""
    return normalise(e[5] if side == "out" else e[1])


def name_summary(records: Iterable[tuple[str, tuple]], neighbour_limit: int, seed: int) -> dict[str, Any]:
    """NameSummary of a group given as a list."""
    acc = NameSummary(neighbour_limit, seed)
    for side, e in records:
        acc.add(side, e)
    return acc.result()


def pool_entries(key: str, acc: NameSummary, summary: dict[str, Any], seed: int):
    """((pool kind, key, bin), (rank, text, type)) for every pool this name belongs to
    (a credit written two ways, 填词 and 作词, is one relation's pool: CREDIT_ROLE)."""
    b = freq_bin(summary["count"])
    rank = stable_hash(seed, "pool", key)
    name = summary["name"]
    out = [(("type", summary["type"], b), (rank, name, summary["type"]))]
    # `work:music` is also a work, for golds whose kind is unknown; an alias is not a
    # thing of its own, nor a species' range a town (kinds.py)
    if coarse(summary["type"]) != summary["type"] and not is_alias(summary["type"]) and not is_range(summary["type"]):
        out.append((("type", coarse(summary["type"]), b), (rank, name, summary["type"])))
    for r, c in acc.rel_types.items():
        out.append((("rel", r, b), (rank, name, _majority(c))))
    for r, c in acc.head_rels.items():
        out.append((("head", r, b), (rank, name, _majority(c))))
    return out
