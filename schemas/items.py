"""Schemas of the benchmark items (`DIR/items/`) and of evaluation results.

Items are what `cdtp build` writes after split (CB-ECLLM, paper §4.1, App. C.2)
and what `cdtp eval` reads. One row per item, Hive-partitioned as
`items/task=qa|kgc|t2t|t2kg/domain=XX/split=train|eval/part-*.parquet`.
Every task shares one schema; columns a task does not use are null (or empty
lists), so DuckDB reads all tasks through one view.

Out-of-distribution loaders (WebNLG, YAGO3-10, HotpotQA) write the same schema,
so `cdtp eval --items` accepts them unchanged.

Version history:
  1 - first release (issue 8: QA, KGC, T2T, T2KG).
"""
from __future__ import annotations

import pyarrow as pa

ITEMS_SCHEMA_VERSION = "1"
# The items of a --no-split build have no split: stats.json, `cdtp eval --split`
# and `cdtp export` call them this.
UNASSIGNED_SPLIT = "unassigned"


def split_name(split: str | None) -> str:
    return split or UNASSIGNED_SPLIT


TASKS = ("qa", "kgc", "t2t", "t2kg")
# Where a distractor came from (one per distractor, in option order minus the gold).
DISTRACTOR_ORIGINS = ("neighbour", "same_relation", "type", "frequency", "polysemy", "numeric")
NUM_OPTIONS = 10


def _meta(name: str) -> dict[str, str]:
    return {"cdtp.schema": name, "cdtp.version": ITEMS_SCHEMA_VERSION}


# A triple as items carry it (T2T input, T2KG gold): no alignment columns.
ITEM_TRIPLE_STRUCT = pa.struct([("head", pa.string()), ("relation", pa.string()), ("tail", pa.string())])

ITEM_SCHEMA = pa.schema(
    [
        ("item_id", pa.string()),  # stable hash of (task, pair_id, relation, tail, asked)
        ("task", pa.string()),  # qa | kgc | t2t | t2kg
        ("domain", pa.string()),  # HP | HS | TE | NE | unknown (OOD sets: their own name, e.g. webnlg)
        ("split", pa.string()),  # train | eval
        ("in_subset", pa.bool_()),
        ("pair_id", pa.string()),
        ("head", pa.string()),  # QA/KGC: the asked triple; T2T/T2KG: the pair's entity
        ("relation", pa.string()),
        ("tail", pa.string()),
        ("question", pa.string()),  # the prompt text without the options (QA/KGC)
        ("asked", pa.string()),  # tail | head (QA/KGC), null otherwise
        # QA/KGC: 10 distinct strings in presentation order, the gold exactly once.
        ("options", pa.list_(pa.string())),
        ("answer", pa.string()),  # the gold string (== options[answer_index])
        ("answer_index", pa.int32()),
        # One per distractor (9), in option order with the gold left out.
        ("distractor_origins", pa.list_(pa.string())),
        ("distractor_similarity", pa.list_(pa.float32())),  # cosine similarity to the gold, same order
        # T2T: the pair's kept triples and, as the reference, the sentences of its
        # text that state them (or the whole text: items.t2t_reference).
        ("triples", pa.list_(ITEM_TRIPLE_STRUCT)),
        ("reference", pa.string()),
        # T2KG: the sentence, its gold triples, the domain ontology's id.
        ("text", pa.string()),
        ("gold_triples", pa.list_(ITEM_TRIPLE_STRUCT)),
        ("ontology", pa.string()),
    ],
    metadata=_meta("items"),
)

# One row per (run, task, domain, split, metric): every `cdtp eval` run appends
# its rows to one results table (Parquet), which `cdtp leaderboard` and
# `cdtp query` read. Long format, so new metrics need no schema change.
RESULT_SCHEMA = pa.schema(
    [
        ("run_id", pa.string()),  # hash of (model, fingerprint, config, code version)
        ("model", pa.string()),  # the model spec as given (no secrets: keys never appear here)
        ("task", pa.string()),  # qa | kgc | t2t | t2kg | qa_open
        ("domain", pa.string()),  # HP | HS | TE | NE | ALL | OOD set name
        ("split", pa.string()),
        ("dataset", pa.string()),  # e.g. CDTP_HP_QA (the CUGE dataset level)
        ("metric", pa.string()),  # hits@1, mrr, acc, f1_cdtp, f1_char, bleu4, rouge_l, p, r, f1, oc, sh, rh, oh ...
        ("value", pa.float64()),
        ("n", pa.int64()),  # items scored
        ("fingerprint", pa.string()),  # the item set's fingerprint
        ("code_version", pa.string()),
        ("created_at", pa.string()),  # ISO-8601 UTC
    ],
    metadata=_meta("results"),
)
