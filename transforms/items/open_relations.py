"""Open relations: where the graph cannot vouch that a wrong answer is wrong.

The graph is open-world. A plant's cells list a few of its uses and a few of
the provinces it grows in, a film's one or two of its genres, a person's
职业 one or two of their trades. For such a relation, a value that another
entity holds (绿化, 陕西, 剧情, 制片人) is often true of the asked entity as
well, and then a ten-option question has two right answers: on the labelled
distractors (docs/distractor_labels.md) 72% of the plant build's held-out
items had one, and no rule on the options told the right ones apart. A
relation is open when its entities often hold several values at once AND
its values are shared between entities: values that are attributes, not
names. Values of different kinds are not several: a plant's family and
its genus are one of each (items/kinds.py: a taxon's rank). A film's 主演
holds several values, each an actor of few films: a cast is incomplete
too, but another film's actor is rarely in it. A person's 国籍 is shared
by many, one per person: the cells close it.

Tail questions of an open relation are not asked as QA or KGC
(`open_relation`); its triples still make T2T and T2KG items, whose gold is
the text. The statistics are counted over the build's pairs (one pair = one
entity, one sense) by the runner (pipeline/items_stage.py): `query_counts`
per pair, summed per key, `relation_row` per (relation, value) sum, summed
per relation, `open_relation_set` on the result.
"""
from __future__ import annotations

from collections import Counter
from typing import Any, Iterable

from transforms.items.kinds import coarse, option_type, taxon_rank
from transforms.role_cues import role_of
from transforms.text import normalise

HEADS, VALUE = "heads", "value"


def _kind(tail: str, tail_type: str | None) -> str | None:
    """What one value is among its relation's: a taxon's rank (a plant's
    属于 names its family and its genus, one of each: no several values of
    one kind), nothing for any other value."""
    return taxon_rank(tail) if option_type(tail, tail_type or "other") == "taxon" else None


def query_counts(pair: dict[str, Any]) -> Iterable[tuple[tuple, tuple[int, int]]]:
    """Per relation of one pair: ((HEADS, relation), (1, holds several values
    of one kind?)) and, per distinct value, ((VALUE, relation, value), (1, 0))."""
    values: dict[str, dict[str, str | None]] = {}
    for t in pair.get("triples") or []:
        tail = normalise(t.get("tail") or "")
        if tail:
            kind = _kind(t.get("tail") or "", t.get("tail_type"))
            values.setdefault(role_of(t.get("relation") or ""), {})[tail] = kind
    for relation, vs in sorted(values.items()):
        several = max(Counter(vs.values()).values()) > 1
        yield (HEADS, relation), (1, int(several))
        for v in sorted(vs):
            yield (VALUE, relation, v), (1, 0)


def add(counts: Iterable[tuple[int, ...]]) -> tuple[int, ...]:
    """Element-wise sum of equal-length count tuples (a Beam CombineFn as a function)."""
    total: tuple[int, ...] = ()
    for c in counts:
        total = c if not total else tuple(a + b for a, b in zip(total, c))
    return total


def relation_row(key: tuple, counts: tuple[int, int]) -> tuple[str, tuple[int, int, int, int]]:
    """(relation, (entities, entities with several values, triples, triples whose
    value another entity holds too)) from one summed query_counts key."""
    n, several = counts
    if key[0] == HEADS:
        return key[1], (n, several, 0, 0)
    return key[1], (0, 0, n, n if n > 1 else 0)


def open_relation_set(rows: Iterable[tuple[str, tuple[int, int, int, int]]], min_several: float, min_shared: float,
                   min_heads: int) -> frozenset[str]:
    """The open relations: held by at least `min_heads` entities, at least
    `min_several` of which hold several values, and at least `min_shared` of
    whose triples have a value another entity holds too."""
    return frozenset(r for r, (heads, several, triples, shared) in rows
                     if heads >= min_heads and several >= min_several * heads and shared >= min_shared * triples)


# Relations whose value describes one part or one phase of an organism, not the
# organism: a plant's 颜色 is its flower's, its leaf's, its bark's or its fruit's
# (the page says which, the triple does not), its 形状 a leaf's or a fruit's, its
# 物候期 the months it flowers or fruits. `鸡爪槭的颜色是什么？` (紫色, its flowers)
# offered 淡绿色 and 橙黄色, its leaves' colours in summer and autumn, and
# `刺槐的颜色是什么？` (灰褐色至黑褐色, its bark) 乳白色, its flowers'.
PART_ATTRIBUTES = frozenset({"颜色", "形状", "物候期"})


def part_attribute(head_type: str | None, relation: str) -> bool:
    """Whether (h, relation, ?) asks a part's or a phase's attribute of an
    organism as if it were the organism's own: the question cannot say which
    part, so another value of the relation is as a rule true of another part
    (a flower's colour offered for a question about the bark's). Such a triple
    is not asked as QA or KGC; its T2T and T2KG items name the part with the
    text. A relation the build finds open (open_relation_set) is skipped as open
    first, so its counts do not move; `items.skip_open_relations=false`, which
    asks the open relations to measure them, asks these too."""
    return relation in PART_ATTRIBUTES and coarse(head_type or "") == "species"
