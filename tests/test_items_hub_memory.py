"""A hub's group is read, never held (items/group_input.py, graph.NameSummary).

中国 is the 国籍 of most people of a corpus, and each of them sends it a
summary: at the paper's scale its group is millions of records. A runner may
page such a group in from the shuffle (Dataflow's state-backed iterables)
rather than hand over a list; the two steps that read a name's group then
hold what they keep of it. Here a hub of 40,000 people (names made up: 人0,
人1, ...) is handed to each step as an iterable made anew on each read, and
Python's allocation tracer measures the most memory the step held at once.
It is compared with what the same group takes as a list, measured the same
way: before the steps read their groups this way, they held that list.
`normalise` keeps a memo of 16,384 strings for the whole process, bounded
whatever the group; it is set aside here, so the step's own holding is what
is measured.
"""
from __future__ import annotations

import tracemalloc

import pytest

from pipeline.items_stage import _AskQuestions, _SummariseName
from transforms.items import graph, group_input
from transforms.items.config import ItemsConfig
from transforms.text import normalise

N = 40_000


def _edge(pair_id, entity, relation, tail, tail_type, entity_type="person"):
    return (pair_id, entity, None, entity_type, relation, tail, tail_type, "HS", "train", True)


class _Hub:
    """中国's group: its 首都, the 国籍 of N people, and (`hops`) each person's summary."""

    def __init__(self, hops: bool):
        self.hops = hops

    def __iter__(self):
        yield "out", _edge("p_cn", "中国", "首都", "北京", "place", "place")
        for i in range(N):
            yield "in", _edge(f"p_{i}", f"人{i}", "国籍", "中国", "place")
            if self.hops:
                yield "hop", f"人{i}", {"name": f"人{i}", "type": "person", "count": 0, "aliases": frozenset(),
                                        "neighbours": [(f"城{i}", "place")]}


@pytest.fixture(autouse=True)
def _no_memo(monkeypatch):
    for module in (graph, group_input):
        monkeypatch.setattr(module, "normalise", normalise.__wrapped__)


def _peak(run) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


class _NoScores:
    def similar(self, gold, texts):
        return {t: 0.5 for t in texts}

    def pool(self, pool_key, gold):
        return []


def test_asking_a_hub_s_questions_holds_a_sample_of_its_group_not_the_group():
    as_list = _peak(lambda: list(_Hub(hops=True)))
    fn = _AskQuestions(ItemsConfig(tasks=("qa",)))
    fn.setup()
    fn.start_bundle()
    fn._loaded = ("vectors", _NoScores())  # the run's vector file, as loaded on the first group
    items: list = []
    held = _peak(lambda: items.extend(fn.process(("中国", _Hub(hops=True)), "vectors", {}, frozenset())))
    assert held < as_list / 10, (held, as_list)


def test_summarising_a_hub_holds_its_counters_not_its_group():
    as_list = _peak(lambda: list(_Hub(hops=False)))
    fn = _SummariseName(ItemsConfig())
    sent = [0]

    def run():
        for out in fn.process(("中国", _Hub(hops=False))):
            sent[0] += not hasattr(out, "tag")  # a hop message, not a pool entry

    held = _peak(run)
    assert sent[0] == N + 1  # every person and 北京, once each
    assert held < as_list / 10, (held, as_list)


def test_a_hub_keeps_every_in_edge_a_head_question_may_ask_and_counts_the_rest():
    """What a head question needs is kept whole however large the hub: a
    relation one head states (作者, from two pages of 红楼梦, its name written two ways);
    one that a second head states is counted, the edges before it included."""
    records = [("in", _edge(f"p_{i}", f"人{i}", "国籍", "中国", "place")) for i in range(5000)]
    records.insert(1234, ("in", _edge("p_hlm", "红楼梦", "作者", "中国", "person", "work")))
    records.insert(4321, ("in", _edge("p_hlm2", "《红楼梦》", "作者", "中国", "person", "work")))
    records.insert(10, ("in", _edge("p_a", "某书", "导演", "中国", "person", "work")))
    records.append(("in", _edge("p_b", "另一书", "导演", "中国", "person", "work")))
    records.append(("in", _edge("p_c", "又一书", "导演", "中国", "date", "work")))
    group = group_input.read_group(records, 128, 0)
    assert [e[0] for e in group.ins] == ["p_hlm", "p_hlm2"]  # one head, written two ways
    assert group.in_skips == {"head_not_unique": 2, "head_tail_unnamed": 1}
    assert len(group.ins_sample) == 128
