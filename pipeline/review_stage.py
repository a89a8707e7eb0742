"""Beam stage ``relation_review``: apply the annotators' relation decision file.

``cdtp build --relation-review DECISIONS.json`` runs this after the
relation-frequency filter. Triples whose relation was rejected by the review
(transforms/review.py decides; ``cdtp review import`` writes the file) are
dropped with reason ``relation_rejected`` and the review figures as detail; a
pair left without any triple is dropped too (entry row, same reason). The
decision file is read once when the pipeline is built, so a bad file fails
before any worker starts, and travels to workers as plain data.
"""
from __future__ import annotations

from typing import Any

import apache_beam as beam

from pipeline.audit import DROPPED, entry_row, triple_ids, triple_row
from pipeline.batch import emit, items_of
from pipeline.errors import CdtpError
from transforms.pairs import with_dropped_mentions
from transforms.review import RelationDecisions, RelationReviewConfig, load_decision_file, review_pair
from transforms.review_sheets import ReviewError

STAGE = "relation_review"
REASON = "relation_rejected"


def apply_review(pair: dict[str, Any], decisions: RelationDecisions, unreviewed: str = "keep"):
    """(pair or None, audit rows) for one pair: the whole stage, without Beam."""
    ids = triple_ids(pair)
    id_of = {id(t): tid for t, tid in zip(pair.get("triples") or [], ids)}
    kept, dropped = review_pair(pair, decisions, unreviewed)
    rows = [
        triple_row(pair, t, DROPPED, STAGE, REASON, detail, triple_id=id_of.get(id(t)))
        for t, detail in dropped
    ]
    if dropped and not kept["triples"]:
        rows.append(entry_row(pair, DROPPED, STAGE, REASON, "no triple left after relation review"))
        return None, rows
    return with_dropped_mentions(kept, [t for t, _ in dropped]), rows


class _ReviewFn(beam.DoFn):
    def __init__(self, decisions: RelationDecisions, unreviewed: str):
        self.decisions = decisions
        self.unreviewed = unreviewed

    def process(self, element):
        out, all_rows = [], []
        for pair in items_of(element):
            kept, rows = apply_review(pair, self.decisions, self.unreviewed)
            all_rows.extend(rows)
            if kept is not None:
                out.append(kept)
        if all_rows:
            yield beam.pvalue.TaggedOutput("audit", all_rows)
        yield from emit(element, out)


class ApplyRelationReview(beam.PTransform):
    """pairs -> {"pairs": pairs without rejected relations, "audit": dropped rows}."""

    def __init__(self, cfg: RelationReviewConfig, label: str | None = None):
        super().__init__(label)
        self.cfg = cfg
        if not cfg.decisions:
            raise CdtpError("relation review is on but no decision file was given (--relation-review FILE)")
        try:
            self.decisions = load_decision_file(cfg.decisions)
        except ReviewError as exc:
            raise CdtpError(str(exc)) from None

    def default_label(self) -> str:
        return "RelationReview"

    def expand(self, pairs):
        out = pairs | "ApplyDecisions" >> beam.ParDo(_ReviewFn(self.decisions, self.cfg.unreviewed)).with_outputs(
            "audit", main="pairs"
        )
        return {"pairs": out.pairs, "audit": out.audit}
