"""Beam stages ``entity_typing`` and ``domain_classification`` (issue 4).

Thin wrappers: the logic is in transforms/entity_type.py and
transforms/domain.py. Neither stage drops anything (their audit output is
empty); they only set columns of the pair dicts:

* ``TypeEntities``: ``entity_type`` and ``triples[].tail_type``;
* ``ClassifyDomain``: ``domain``, ``domain_confidence``, ``domain_evidence``.

The domain classifier's embedding fallback is a model, so it is built once per
DoFn instance in ``setup()`` (never pickled with the pipeline) and fed the
upstream batches of pairs (pipeline/batch.py), so the encoder runs on many
pairs at a time.
"""
from __future__ import annotations

import apache_beam as beam

from pipeline.batch import emit, items_of, map_items

from transforms.domain import DomainConfig, classify_pairs
from transforms.entity_type import TypingConfig, type_pair

STAGE_TYPING = "entity_typing"
STAGE_DOMAIN = "domain_classification"


class TypeEntities(beam.PTransform):
    """pairs -> {"pairs": pairs with entity_type / tail_type, "audit": (empty)}."""

    def __init__(self, cfg: TypingConfig | None = None):
        super().__init__()
        self.cfg = cfg or TypingConfig()

    def expand(self, pairs):
        typed = pairs if not self.cfg.enabled else pairs | "TypePair" >> beam.Map(map_items, type_pair)
        return {"pairs": typed, "audit": pairs.pipeline | "NoTypingAudit" >> beam.Create([])}


class _ClassifyBatchFn(beam.DoFn):
    def __init__(self, cfg: DomainConfig):
        self.cfg = cfg
        self._clf = None

    def setup(self):
        from transforms.domain import DomainClassifier

        self._clf = DomainClassifier(self.cfg)
        self._clf._ensure_embedder()  # load the model now, not inside the first bundle

    def process(self, element):
        # Upstream batches (pipeline/batch.py) are classified together; the
        # classifier embeds them in chunks of cfg.batch_size.
        yield from emit(element, classify_pairs(items_of(element), self._clf))


class ClassifyDomain(beam.PTransform):
    """pairs -> {"pairs": pairs with domain columns, "audit": (empty)}."""

    def __init__(self, cfg: DomainConfig | None = None):
        super().__init__()
        self.cfg = cfg or DomainConfig()
        if self.cfg.enabled:
            # Fail at construction with a clear message, not in a worker's setup().
            from pipeline.errors import CdtpError
            from transforms.embed import EmbedderError, validate_spec

            try:
                validate_spec(self.cfg.embedder)
            except EmbedderError as exc:
                raise CdtpError(f"domain.embedder: {exc}") from None

    def expand(self, pairs):
        if not self.cfg.enabled:
            return {"pairs": pairs, "audit": pairs.pipeline | "NoDomainAudit" >> beam.Create([])}
        classified = pairs | "Classify" >> beam.ParDo(_ClassifyBatchFn(self.cfg))
        return {"pairs": classified, "audit": pairs.pipeline | "NoDomainAudit" >> beam.Create([])}
