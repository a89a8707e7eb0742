"""Fact leakage between train and eval (issue 8 §8, the fact part).

An eval item leaks when a train pair states its fact: the same
(head, relation, tail), or its inverse — the tail as head and the head as
tail, under any relation (the conservative reading of "inverse relation":
Baike has no inverse-relation table, and 作品/作者 pairs state the same link).
Facts are compared on normalised names. Both sides are keyed by the
unordered pair of names, so train facts and eval items meet in one group
per name pair and no worker needs the whole train graph.
"""
from __future__ import annotations

from transforms.text import normalise


def fact_key(head: str, tail: str) -> str:
    a, b = normalise(head or ""), normalise(tail or "")
    return f"{a}\x1f{b}" if a <= b else f"{b}\x1f{a}"


def item_facts(item: dict) -> list[tuple[str, str, str]]:
    """The facts an item states or asks: (head, relation, tail)."""
    if item["task"] in ("qa", "kgc"):
        return [(item["head"], item["relation"], item["tail"])]
    triples = item.get("triples") if item["task"] == "t2t" else item.get("gold_triples")
    return [(t["head"], t["relation"], t["tail"]) for t in triples or []]


def leaks(fact: tuple[str, str, str], train_facts) -> str | None:
    """'same_fact' / 'inverse_fact' when a train fact (h, r, t) states `fact`, else None."""
    h, r, t = normalise(fact[0] or ""), fact[1], normalise(fact[2] or "")
    inverse = False
    for th, tr, tt in train_facts:
        nh, nt = normalise(th or ""), normalise(tt or "")
        if nh == h and nt == t and tr == r:
            return "same_fact"
        if nh == t and nt == h:
            inverse = True
    return "inverse_fact" if inverse else None
