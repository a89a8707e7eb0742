"""A name's group as its questions read it, in memory bounded by what they use.

The AskQuestions step gets one normalised name's group: its out-edges (the
name as a head), its in-edges (the name as a tail), its neighbours' summaries
(graph.NameSummary) and its pages' texts. A hub is millions of records: 中国
is the 国籍 of most people of a corpus, and each of them sends it a summary.
A runner may hand such a group over as an iterable paged in from the shuffle
(Dataflow's state-backed iterables, and the FnApiRunner's with
`use_state_iterables`) instead of a list, so a worker holds what its questions
keep of the group, not the group. They keep:

  - every out-edge and page text: the name's own pages;
  - of its in-edges, a seeded sample of `limit` (the 1-hop candidates of its
    questions: `one_hop_sample`), and, of each relation with a head question
    (templates.HEAD_TEMPLATES), the in-edges while one head states it. Once a
    second head does, no head question of it has one answer
    (`head_not_unique`), and only the number of its in-edges is kept;
  - of its neighbours' summaries, a seeded sample of `limit` names (the 2-hop
    candidates) and those of the names its questions ask about: the values of
    its out-edges and the heads of its in-edges that may be asked.

`read_group` reads the group twice, the second time for the summaries its
first pass found it needs; a paged iterable is read again from the shuffle.
A group of up to `limit` in-edges and neighbours is kept whole.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from operator import itemgetter
from typing import Any, Callable, Iterable

from transforms.items.stated import TEXT_RECORD, StatedInText
from transforms.items.templates import HEAD_TEMPLATES, UNNAMED_TYPES
from transforms.split import stable_hash
from transforms.text import normalise

HOP_RECORD = "hop"


@dataclass
class GroupInput:
    """What `generate.ask_group` reads of one name's group."""
    outs: list[tuple] = field(default_factory=list)  # every out-edge
    ins: list[tuple] = field(default_factory=list)  # in-edges of head relations one head states
    ins_sample: list[tuple] = field(default_factory=list)  # the 1-hop sample of every in-edge
    in_skips: Counter = field(default_factory=Counter)  # head questions of the in-edges not kept, by reason
    hops: dict[str, dict] = field(default_factory=dict)  # neighbour -> its summary (the kept ones)
    hop_keys: list[str] = field(default_factory=list)  # the 2-hop sample of every neighbour, sorted
    texts: dict[str, StatedInText] = field(default_factory=dict)  # pair id -> its page


class _Smallest:
    """The `limit` items of the smallest keys seen (every item when `limit` is
    0), in memory of about twice `limit`; keys are unique per item."""

    def __init__(self, limit: int):
        self.limit = limit
        self.items: dict[Any, Any] = {}

    def add(self, key, item) -> None:
        self.items[key] = item
        if self.limit and len(self.items) >= 2 * self.limit + 64:
            self.items = dict(sorted(self.items.items(), key=itemgetter(0))[:self.limit])

    def result(self) -> list:
        ranked = sorted(self.items.items(), key=itemgetter(0))
        return [item for _, item in (ranked[:self.limit] if self.limit else ranked)]


def _seeded_sample(things: list, limit: int, seed: int, purpose: str, name: Callable[[Any], str]) -> list:
    """All of `things` up to `limit`, else the `limit` of them first by a
    seeded hash of their names, in their own order."""
    if limit <= 0 or len(things) <= limit:
        return things
    keep = set(sorted(range(len(things)), key=lambda i: stable_hash(seed, purpose, name(things[i])))[:limit])
    return [t for i, t in enumerate(things) if i in keep]


def _edge_name(e: tuple) -> str:
    return f"{e[1]}\x1f{e[4]}\x1f{e[5]}"


def in_order(e: tuple) -> tuple:
    """The order in which a group's in-edges are asked (and sampled on ties)."""
    return e[0] or "", e[4], e[1], repr(e)


def one_hop_sample(edges: list[tuple], limit: int, seed: int) -> list[tuple]:
    """The edges whose names a group offers its questions as 1-hop candidates:
    all of them up to `limit`, else a seeded sample of `limit`, in their own
    order. Every question of a group looked at every one of its edges, so a
    name of thousands of values or of thousands of heads (中国 as the 国籍 of
    every person of a corpus) cost the square of that; nine options need far
    fewer names, and the 2-hop ones are cut the same way."""
    return _seeded_sample(edges, limit, seed, "one-hop", _edge_name)


class _InEdges:
    """A group's in-edges, reduced as they arrive (the module doc)."""

    def __init__(self, limit: int, seed: int):
        self.seed = seed
        self.sample = _Smallest(limit)
        self.head: dict[str, str | None] = {}  # head relation -> its one head, None once several
        self.kept: dict[str, list[tuple]] = {}
        self.skips: Counter = Counter()
        self.n = 0

    def _skip(self, e: tuple) -> None:
        self.skips["head_tail_unnamed" if e[6] in UNNAMED_TYPES else "head_not_unique"] += 1

    def add(self, e: tuple) -> None:
        self.n += 1
        order = in_order(e)
        self.sample.add((stable_hash(self.seed, "one-hop", _edge_name(e)), *order, self.n), e)
        r = e[4]
        if r not in HEAD_TEMPLATES:
            return  # never asked for its head, nor counted
        h = normalise(e[1])
        if r not in self.head:
            self.head[r], self.kept[r] = h, [e]
        elif self.head[r] is None:
            self._skip(e)
        elif self.head[r] == h:
            self.kept[r].append(e)
        else:
            self.head[r] = None
            for x in self.kept.pop(r):
                self._skip(x)
            self._skip(e)


def read_group(records: Iterable[tuple], limit: int, seed: int) -> GroupInput:
    """One name's group (records of the AskQuestions step: ("out" | "in", edge),
    ("hop", neighbour, summary), (TEXT_RECORD, pair id, page)) as its
    questions read it; `records` is read twice and never held."""
    group = GroupInput()
    ins = _InEdges(limit, seed)
    hop_sample = _Smallest(limit)
    for r in records:
        if r[0] == HOP_RECORD:
            hop_sample.add((stable_hash(seed, "two-hop", r[1]), r[1]), r[1])
        elif r[0] == TEXT_RECORD:
            group.texts[r[1]] = StatedInText(*r[2])
        elif r[0] == "out":
            group.outs.append(r[1])
        else:
            ins.add(r[1])
    group.outs.sort(key=lambda e: (e[0] or "", e[4], e[5]))
    group.ins = sorted((e for kept in ins.kept.values() for e in kept), key=in_order)
    group.ins_sample = sorted(ins.sample.result(), key=in_order)
    group.in_skips = ins.skips
    group.hop_keys = sorted(hop_sample.result())
    wanted = set(group.hop_keys) | {normalise(e[5]) for e in group.outs} | {normalise(e[1]) for e in group.ins}
    for r in records:
        if r[0] == HOP_RECORD and r[1] in wanted:
            group.hops[r[1]] = r[2]
    return group
