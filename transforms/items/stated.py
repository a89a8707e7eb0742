"""A distractor the asked entity's own text states in the asked role is no distractor.

The graph is a page's infobox, and an infobox leaves out what its text says:
莱昂纳多·迪卡普里奥's 职业 is 演员 and 制片人, his text also calls him a 制作人,
and 制作人 was offered as a wrong answer; 马蔺's text has it grow in China's
north-east while its 地理分布 cell lists other places, and 中国 was offered. Such an option is
a second right answer, true as the exclusion rules (exclusion.py) find it absent
from the graph.

The judge is the aligner (transforms/align.py), with its default levels and
the page's own triples for its cues: a candidate the text names is a true
answer when the aligner would keep it as the asked relation's value. A mention
in another role stays a good, hard distractor (`林宥嘉演唱` for the 填词 of the
song). Only names found in the text as written are judged: cheap, and the
aligner is asked only when the text names the candidate.
"""
from __future__ import annotations

from typing import Any

from transforms.text import normalise

TEXT_RECORD = "text"


def page_text_record(pair: dict[str, Any]) -> list[tuple[str, tuple]]:
    """The pair's text under its entity's name, beside the name's edges (graph.keyed_edges)."""
    entity = pair.get("entity") or ""
    key = normalise(entity)
    if not key or not pair.get("text"):
        return []
    triples = tuple((t.get("relation") or "", t.get("tail") or "") for t in pair.get("triples") or [])
    return [(key, (TEXT_RECORD, pair.get("pair_id"), (entity, pair.get("subtitle"), pair["text"], triples)))]


class StatedInText:
    """Whether one page's text states a candidate as a relation's value; the
    alignment context is built on the first candidate the text names."""

    def __init__(self, entity: str, subtitle: str | None, text: str, triples: tuple[tuple[str, str], ...]):
        self.entity, self.subtitle, self.text, self.triples = entity, subtitle, text, triples
        self._cfg = self._ctx = None  # built on the first candidate the text names
        self._seen: dict[tuple[str, str], bool] = {}

    def __call__(self, candidate: str, relation: str) -> bool:
        name = candidate.strip().strip("《》")
        if not name or name not in self.text:
            return False
        key = (name, relation)
        if key not in self._seen:
            from transforms.align import AlignConfig, AlignContext, align_triple

            if self._ctx is None:
                raw = {"title": self.entity, "subtitle": self.subtitle, "links": [], "infobox": []}
                self._cfg = AlignConfig()
                self._ctx = AlignContext(raw, self.text, [{"relation": r, "tail": t} for r, t in self.triples],
                                         self._cfg)
            self._seen[key] = align_triple(name, self.text, (), self._cfg, relation, self._ctx)[0] is not None
        return self._seen[key]
