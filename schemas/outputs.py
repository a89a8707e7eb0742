"""Schemas of `cdtp build` outputs: pairs, audit and discarded triples.

Version history:
  1 - first release (issue 3 cleaning; issue 4 quality/organisation columns are
      nullable so a build with those stages switched off writes the same schema).
  2 - issue 10 alignment: triples[].cue, triples[].support_score, triples[].trivial
      and pairs.coverage, all nullable (null when the build predates them or the
      role check is off).
"""
from __future__ import annotations

import pyarrow as pa

SCHEMA_VERSION = "2"


def _meta(name: str) -> dict[str, str]:
    return {"cdtp.schema": name, "cdtp.version": SCHEMA_VERSION}


# One aligned triple inside a pair. start/end are character offsets of its
# support in the pair's text (end exclusive); match is the alignment level
# that found it: exact | number | date | alias | fuzzy.
TRIPLE_STRUCT = pa.struct(
    [
        ("head", pa.string()),
        ("relation", pa.string()),
        ("tail", pa.string()),
        ("start", pa.int32()),
        ("end", pa.int32()),
        ("match", pa.string()),
        ("tail_type", pa.string()),  # coarse type (issue 4); null when typing is off
        ("search_status", pa.string()),  # verified | unverified | null when search is off
        ("search_evidence", pa.string()),  # verified: evidence URL; unverified: failure reason (timeout, http_429...)
        ("triple_id", pa.string()),  # stable id, the same as in the audit (join key)
        # Issue 10: the role evidence of the span (transforms/roles.py): the cue word that
        # bound the mention to the relation, and 1 / 0.75 / 0.5 (own cue in the clause /
        # in the sentence / no cue near); null with the role check off.
        ("cue", pa.string()),
        ("support_score", pa.float32()),
        # The tail restates the entity's own name (transforms/trivial.py): kept, but
        # later stages leave it out of questions.
        ("trivial", pa.bool_()),
    ]
)

PAIR_SCHEMA = pa.schema(
    [
        ("pair_id", pa.string()),  # stable hash of the canonical entry key
        ("entity", pa.string()),
        ("subtitle", pa.string()),
        ("text", pa.string()),
        ("triples", pa.list_(TRIPLE_STRUCT)),
        ("source_url", pa.string()),
        ("position_index", pa.float64()),
        # Issue 10: share of the text's clauses holding the support of a kept triple.
        ("coverage", pa.float64()),
        ("num_triples", pa.int32()),
        ("text_length", pa.int32()),
        ("tags", pa.list_(pa.string())),
        # Issue 4 (quality and organisation); null when the stage is switched off.
        ("entity_type", pa.string()),
        ("domain", pa.string()),  # HP | HS | TE | NE | unknown
        ("domain_confidence", pa.float64()),
        ("domain_evidence", pa.string()),
        ("split", pa.string()),  # train | eval
        ("in_subset", pa.bool_()),
    ],
    metadata=_meta("pairs"),
)

# One row per input entry and per input triple, with its final fate. Every
# input is accounted for: inputs = kept + dropped, per kind.
AUDIT_SCHEMA = pa.schema(
    [
        ("kind", pa.string()),  # entry | triple
        ("entry_key", pa.string()),  # lemma id, else normalised title, else input location
        ("pair_id", pa.string()),
        ("triple_id", pa.string()),
        ("head", pa.string()),
        ("relation", pa.string()),
        ("tail", pa.string()),
        ("fate", pa.string()),  # kept | dropped
        ("stage", pa.string()),  # the stage that decided the fate
        ("reason", pa.string()),  # machine-readable reason, e.g. unsupported_by_text
        ("detail", pa.string()),  # human-readable evidence (JSON or text)
        ("source", pa.string()),  # input file or URL
    ],
    metadata=_meta("audit"),
)

# The paper's auxiliary data: triples the text does not support (§3.2).
DISCARDED_TRIPLE_SCHEMA = pa.schema(
    [
        ("pair_id", pa.string()),
        ("entity", pa.string()),
        ("head", pa.string()),
        ("relation", pa.string()),
        ("tail", pa.string()),
        ("stage", pa.string()),
        ("reason", pa.string()),
        ("source_url", pa.string()),
    ],
    metadata=_meta("discarded_triples"),
)
