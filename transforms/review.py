"""Relation review: review sheets, annotator agreement and the relation decision file.

The paper had annotators double-check every relation type and kept those with
over 90% inter-annotator agreement. This module is the pure logic behind
``cdtp review export``/``import`` and ``cdtp build --relation-review``:

* **Sheets** (transforms/review_sheets.py): one CSV per relation type with N
  sampled pairs, written for annotators and read back.
* **Agreement.** Per relation: percent agreement p_o and Cohen's kappa
  ``(p_o - p_e) / (1 - p_e)`` with p_e from each annotator's own label rates.
  Degenerate case: when both annotators used one and the same label for every
  item, p_e = 1 and kappa is 0/0 (undefined). The agreement is then perfect,
  so kappa is reported as 1.0 and flagged ``kappa_degenerate: true``.
* **Decision.** A relation is ``accepted`` when agreement >= min_agreement
  (0.9) AND the items both annotators accepted are at least min_accept_share
  (0.5) of its items, i.e. a majority of the sample is accepted by both;
  otherwise it is ``rejected`` with reason ``low_agreement`` (annotators do not
  agree well enough to trust the relation) or ``annotators_rejected``.
* **Applying.** ``cdtp build --relation-review FILE`` drops triples whose
  relation is rejected; relations absent from the file were not reviewed and
  are kept (or dropped with ``unreviewed="drop"``).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from transforms import safejson
from transforms.review_sheets import ACCEPT, Label, ReviewError

DECISION_FORMAT = "cdtp.relation_review"
DECISION_VERSION = 1


# ------------------------------------------------------------------ agreement

@dataclass(frozen=True)
class Agreement:
    n: int
    both_accept: int
    both_reject: int
    a_only: int  # A accept, B reject
    b_only: int  # A reject, B accept
    p_o: float
    p_e: float
    kappa: float
    kappa_degenerate: bool


def cohen_kappa(both_accept: int, a_only: int, b_only: int, both_reject: int) -> Agreement:
    """Cohen's kappa of a 2x2 table (A's label x B's label).

    p_o = (both_accept + both_reject) / n; p_e = pA(accept)·pB(accept) +
    pA(reject)·pB(reject). When p_e = 1 (both used one and the same label for
    every item) kappa is undefined; it is reported as 1.0 with
    ``kappa_degenerate=True`` because the observed agreement is then perfect.
    """
    n = both_accept + a_only + b_only + both_reject
    if n <= 0:
        raise ReviewError("no doubly annotated items")
    p_o = (both_accept + both_reject) / n
    a_acc = (both_accept + a_only) / n
    b_acc = (both_accept + b_only) / n
    p_e = a_acc * b_acc + (1 - a_acc) * (1 - b_acc)
    if abs(1.0 - p_e) < 1e-12:
        return Agreement(n, both_accept, both_reject, a_only, b_only, p_o, 1.0, 1.0, True)
    kappa = (p_o - p_e) / (1.0 - p_e)
    return Agreement(n, both_accept, both_reject, a_only, b_only, p_o, p_e, kappa, False)


@dataclass(frozen=True)
class ReviewRules:
    """Thresholds of the relation decision (see module docstring)."""

    min_agreement: float = 0.9
    min_accept_share: float = 0.5

    def __post_init__(self) -> None:
        for name in ("min_agreement", "min_accept_share"):
            v = getattr(self, name)
            if not 0.0 <= v <= 1.0:
                raise ValueError(f"{name} must be in [0, 1], got {v}")


@dataclass
class ReviewResult:
    relations: dict[str, dict[str, Any]] = field(default_factory=dict)
    disagreements: list[dict[str, str]] = field(default_factory=list)
    unmatched: list[dict[str, str]] = field(default_factory=list)

    def decision_file(self, rules: ReviewRules, sources: Sequence[str]) -> dict[str, Any]:
        return {
            "format": DECISION_FORMAT,
            "version": DECISION_VERSION,
            "rules": {
                "min_agreement": rules.min_agreement,
                "min_accept_share": rules.min_accept_share,
                "accepted_when": "agreement >= min_agreement and both_accept / n >= min_accept_share",
                "kappa_degenerate": "both annotators used one label for every item: kappa undefined, reported as 1.0",
            },
            "sources": list(sources),
            "relations": self.relations,
        }


def compare(a_labels: Sequence[Label], b_labels: Sequence[Label], rules: ReviewRules) -> ReviewResult:
    """Pair A's and B's labels by item_id and decide every relation.

    Items only one annotator labelled are listed in ``unmatched`` (the caller
    decides whether that is an error). An item whose relation differs between
    the two sheets is a ReviewError: the sheets were not copies of one export.
    """
    a_by = _index(a_labels, "A")
    b_by = _index(b_labels, "B")
    result = ReviewResult()
    tables: dict[str, list[int]] = {}  # relation -> [both_accept, a_only, b_only, both_reject]
    for iid in sorted(a_by.keys() | b_by.keys()):
        a, b = a_by.get(iid), b_by.get(iid)
        if a is None or b is None:
            only = a or b
            result.unmatched.append(
                {"item_id": iid, "relation": only.relation, "only_in": "A" if a else "B", "where": only.source}
            )
            continue
        if a.relation != b.relation:
            raise ReviewError(
                f"item {iid} has relation {a.relation!r} in {a.source} but {b.relation!r} in {b.source}; "
                "both annotators must fill copies of the same exported sheet"
            )
        t = tables.setdefault(a.relation, [0, 0, 0, 0])
        if a.decision == ACCEPT and b.decision == ACCEPT:
            t[0] += 1
        elif a.decision == ACCEPT:
            t[1] += 1
        elif b.decision == ACCEPT:
            t[2] += 1
        else:
            t[3] += 1
        if a.decision != b.decision:
            result.disagreements.append(
                {
                    "item_id": iid,
                    "relation": a.relation,
                    "a_decision": a.decision,
                    "b_decision": b.decision,
                    "a_annotator": a.annotator,
                    "b_annotator": b.annotator,
                    "a_where": a.source,
                    "b_where": b.source,
                }
            )
    for rel in sorted(tables):
        ba, ao, bo, br = tables[rel]
        ag = cohen_kappa(ba, ao, bo, br)
        accept_share = ag.both_accept / ag.n
        if ag.p_o < rules.min_agreement:
            decision, reason = "rejected", "low_agreement"
        elif accept_share < rules.min_accept_share:
            decision, reason = "rejected", "annotators_rejected"
        else:
            decision, reason = "accepted", "accepted_by_both"
        result.relations[rel] = {
            "decision": decision,
            "reason": reason,
            "n": ag.n,
            "agreement": round(ag.p_o, 6),
            "kappa": round(ag.kappa, 6),
            "kappa_degenerate": ag.kappa_degenerate,
            "p_e": round(ag.p_e, 6),
            "both_accept": ag.both_accept,
            "both_reject": ag.both_reject,
            "a_accept_b_reject": ag.a_only,
            "a_reject_b_accept": ag.b_only,
            "accept_share": round(accept_share, 6),
        }
    return result


def _index(labels: Sequence[Label], who: str) -> dict[str, Label]:
    out: dict[str, Label] = {}
    for lab in labels:
        if lab.item_id in out:
            raise ReviewError(
                f"annotator {who}: item {lab.item_id} is labelled twice ({out[lab.item_id].source} and {lab.source})"
            )
        out[lab.item_id] = lab
    return out


# ------------------------------------------------------------- decision file

@dataclass(frozen=True)
class RelationReviewConfig:
    """decisions: path of the decision file (``cdtp review import --out``).

    unreviewed: what to do with relations the file does not mention, i.e. that
    were never put in front of annotators: ``keep`` (default) or ``drop``.
    """

    decisions: str = ""
    unreviewed: str = "keep"

    def __post_init__(self) -> None:
        if self.unreviewed not in ("keep", "drop"):
            raise ValueError(f"relation_review.unreviewed must be keep or drop, got {self.unreviewed!r}")


@dataclass(frozen=True)
class RelationDecisions:
    """The part of a decision file the build needs: which relations are rejected and why."""

    rejected: Mapping[str, str]  # relation -> detail (reason, agreement, kappa)
    accepted: frozenset[str]
    source: str = ""

    def is_rejected(self, relation: str, unreviewed: str = "keep") -> str | None:
        """The rejection detail, or None when the relation stays."""
        if relation in self.rejected:
            return self.rejected[relation]
        if unreviewed == "drop" and relation not in self.accepted:
            return "not_reviewed"
        return None


def parse_decision_file(data: Any, source: str = "") -> RelationDecisions:
    """Validate a decision file written by ``cdtp review import``."""
    where = source or "decision file"
    if not isinstance(data, dict) or data.get("format") != DECISION_FORMAT:
        raise ReviewError(f"{where}: not a relation decision file (expected \"format\": \"{DECISION_FORMAT}\")")
    if data.get("version") != DECISION_VERSION:
        raise ReviewError(f"{where}: unsupported decision file version {data.get('version')!r}")
    rels = data.get("relations")
    if not isinstance(rels, dict):
        raise ReviewError(f"{where}: \"relations\" must be an object of relation -> decision")
    rejected: dict[str, str] = {}
    accepted = set()
    for rel, info in rels.items():
        if not isinstance(info, dict) or info.get("decision") not in ("accepted", "rejected"):
            raise ReviewError(f"{where}: relation {rel!r} needs \"decision\": \"accepted\" or \"rejected\"")
        if info["decision"] == "accepted":
            accepted.add(rel)
        else:
            rejected[rel] = json.dumps(
                {k: info.get(k) for k in ("reason", "agreement", "kappa", "n") if k in info}, ensure_ascii=False
            )
    return RelationDecisions(rejected=rejected, accepted=frozenset(accepted), source=source)


def load_decision_file(path: str | Path) -> RelationDecisions:
    p = Path(path)
    try:
        data = safejson.loads(p.read_text(encoding="utf-8"))
    except OSError as exc:
        raise ReviewError(f"{p}: cannot read relation decision file ({exc.strerror or exc})") from None
    except ValueError as exc:  # not UTF-8, not JSON, or nested too deeply
        raise ReviewError(f"{p}: relation decision file is not valid JSON ({exc})") from None
    return parse_decision_file(data, str(p))


def review_pair(pair: Mapping[str, Any], decisions: RelationDecisions, unreviewed: str = "keep") -> tuple[dict, list[tuple[dict, str]]]:
    """Split a pair's triples into kept and rejected-by-review.

    Returns (pair with kept triples and updated num_triples, [(dropped triple,
    detail)]). The Beam stage turns the dropped list into audit rows and drops
    the pair when no triple is left.
    """
    kept, dropped = [], []
    for t in pair.get("triples") or []:
        detail = decisions.is_rejected(t.get("relation") or "", unreviewed)
        if detail is None:
            kept.append(t)
        else:
            dropped.append((t, detail))
    if not dropped:
        return dict(pair), []
    out = dict(pair)
    out["triples"] = kept
    out["num_triples"] = len(kept)
    return out, dropped
