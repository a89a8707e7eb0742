"""The items stage's last step: eval items whose fact a train pair states are dropped.

An eval question is no test when a train pair's text states its answer
(`transforms/items/leakage.py` decides which facts leak). Train facts and eval
items' facts are joined by fact key; each leaked eval item leaves the items
and becomes an audit row (reason `fact_leakage`). A recount over the kept eval
items feeds stats.json's "after drops" figure, which must be 0.
"""
from __future__ import annotations

import json

import apache_beam as beam

from pipeline.items_stage import STAGE, ItemCounting
from transforms.items.leakage import fact_key, item_facts, leaks


def _train_facts(edge):
    if edge[8] == "train":
        yield fact_key(edge[1], edge[5]), (edge[1], edge[4], edge[5])


def _eval_facts(item):
    for fact in item_facts(item):
        yield fact_key(fact[0], fact[2]), (item["item_id"], fact)


class _FindLeaks(ItemCounting):
    """Eval item facts stated by a train pair; `recount` names a counter for the check after the drop."""

    def __init__(self, recount: str | None = None):
        self.recount = recount

    def process(self, kv):
        _, groups = kv
        train = list(groups["train"])
        if not train:
            return
        for item_id, fact in groups["eval"]:
            why = leaks(fact, train)
            if why and self.recount:
                self.count(f"{self.recount}|{why}")
            elif why:
                yield item_id, (why, list(fact))


class _DropLeaked(ItemCounting):
    def process(self, kv):
        item_id, groups = kv
        leaked = sorted(groups["leak"])
        for item in groups["item"]:
            if not leaked:
                yield item
                continue
            why, fact = leaked[0]
            self.count(f"leakage|{item['task']}|{why}")
            yield beam.pvalue.TaggedOutput("audit", {
                "kind": "item", "entry_key": item["pair_id"], "pair_id": item["pair_id"], "triple_id": item_id,
                "head": item.get("head"), "relation": item.get("relation"), "tail": item.get("tail"),
                "fate": "dropped", "stage": STAGE, "reason": "fact_leakage",
                "detail": json.dumps({"task": item["task"], "leak": why, "fact": fact}, ensure_ascii=False),
                "source": "",
            })


class DropLeakedFacts(beam.PTransform):
    """items -> {"items": without leaked eval items, "audit": one row per dropped item}."""

    def __init__(self, edges):
        super().__init__()
        self.edges = edges

    def expand(self, items):
        split = items | "BySplit" >> beam.Partition(lambda it, _n: 1 if it.get("split") == "eval" else 0, 2)
        others, evals = split[0], split[1]
        train = self.edges | "TrainFacts" >> beam.FlatMap(_train_facts)
        asked = evals | "EvalFacts" >> beam.FlatMap(_eval_facts)
        leaks_kv = ({"train": train, "eval": asked} | "ByFact" >> beam.CoGroupByKey()
                    | "FindLeaks" >> beam.ParDo(_FindLeaks()))
        keyed = evals | "ById" >> beam.Map(lambda it: (it["item_id"], it))
        checked = ({"item": keyed, "leak": leaks_kv} | "JoinLeaks" >> beam.CoGroupByKey()
                   | "Drop" >> beam.ParDo(_DropLeaked()).with_outputs("audit", main="items"))
        # The leakage report's "after drops" figure is a recount over the kept
        # eval items, not kept - dropped: it must be 0.
        _ = ({"train": train, "eval": checked.items | "KeptEvalFacts" >> beam.FlatMap(_eval_facts)}
             | "RecheckByFact" >> beam.CoGroupByKey()
             | "Recheck" >> beam.ParDo(_FindLeaks("leakage_after")))
        kept = (others, checked.items) | "AllItems" >> beam.Flatten()
        return {"items": kept, "audit": checked.audit}
