"""The funnel: how many entries and triples enter and leave each stage, and why.

Counts come from Beam metrics so they are exact on any runner and any number
of workers. Stages don't count themselves: build.py wraps every stage with
`CountFlow` (pairs and triples in / out) and the audit stream is counted by
(stage, kind, fate, reason) once, right before it is written. That keeps the
funnel consistent with the audit by construction, including the issue-4
stages that only return {"pairs", "audit"}.

An audit element is a row dict or a list of row dicts (one entry's rows,
batched to cut per-element overhead).

Counter names (namespace `cdtp`):
  flow|<stage>|<in|out>|<entries|triples>
  audit|<stage>|<kind>|<fate>|<reason>
  hist|<bin>        triples-per-pair of the final pairs (paper Figure 7)
"""
from __future__ import annotations

from collections import defaultdict
from typing import Any

import apache_beam as beam
from apache_beam.metrics import Metrics

NAMESPACE = "cdtp"


class _CountFlowFn(beam.DoFn):
    def __init__(self, stage: str, direction: str):
        self.stage = stage
        self.direction = direction

    def setup(self):
        prefix = f"flow|{self.stage}|{self.direction}"
        self.entries = Metrics.counter(NAMESPACE, f"{prefix}|entries")
        self.triples = Metrics.counter(NAMESPACE, f"{prefix}|triples")

    def process(self, pair):
        self.entries.inc()
        if isinstance(pair, dict):  # raw entries (tuples) have no triples yet
            self.triples.inc(len(pair.get("triples") or []))
        yield pair


def count_flow(stage: str, direction: str) -> beam.ParDo:
    return beam.ParDo(_CountFlowFn(stage, direction))


class _CountAuditFn(beam.DoFn):
    """Counts audit rows; counters are created lazily per reason."""

    def setup(self):
        self._counters: dict[str, Any] = {}

    def process(self, element):
        for row in element if isinstance(element, list) else (element,):
            name = f"audit|{row['stage']}|{row['kind']}|{row['fate']}|{row['reason']}"
            counter = self._counters.get(name)
            if counter is None:
                counter = self._counters[name] = Metrics.counter(NAMESPACE, name)
            counter.inc()
        yield element


def count_audit() -> beam.ParDo:
    return beam.ParDo(_CountAuditFn())


class _HistogramFn(beam.DoFn):
    def __init__(self, bin_fn):
        self.bin_fn = bin_fn

    def setup(self):
        self._counters: dict[str, Any] = {}

    def process(self, pair):
        b = self.bin_fn(len(pair.get("triples") or []))
        counter = self._counters.get(b)
        if counter is None:
            counter = self._counters[b] = Metrics.counter(NAMESPACE, f"hist|{b}")
        counter.inc()
        yield pair


def count_histogram(bin_fn) -> beam.ParDo:
    return beam.ParDo(_HistogramFn(bin_fn))


def read_counters(result) -> dict[str, int]:
    """All cdtp counters of a finished run (committed values when the runner has them)."""
    from apache_beam.metrics.metric import MetricsFilter

    out: dict[str, int] = {}
    for c in result.metrics().query(MetricsFilter().with_namespace(NAMESPACE))["counters"]:
        value = c.committed if c.committed is not None else c.attempted
        out[c.key.metric.name] = out.get(c.key.metric.name, 0) + int(value or 0)
    return out


def funnel_from_counters(counters: dict[str, int], stage_order: list[str]) -> dict[str, Any]:
    """Per stage: entries/triples in and out, and dropped counts by reason."""
    stages: dict[str, dict[str, Any]] = defaultdict(
        lambda: {"in": {"entries": 0, "triples": 0}, "out": {"entries": 0, "triples": 0},
                 "dropped": {"entry": {}, "triple": {}}, "kept": {"entry": 0, "triple": 0}}
    )
    hist: dict[str, int] = {}
    for name, value in counters.items():
        parts = name.split("|")
        if parts[0] == "flow" and len(parts) == 4:
            _, stage, direction, what = parts
            stages[stage][direction][what] += value
        elif parts[0] == "audit" and len(parts) >= 5:
            stage, kind, fate = parts[1], parts[2], parts[3]
            reason = "|".join(parts[4:])
            if fate == "dropped":
                bucket = stages[stage]["dropped"].setdefault(kind, {})
                bucket[reason] = bucket.get(reason, 0) + value
            else:
                stages[stage]["kept"][kind] = stages[stage]["kept"].get(kind, 0) + value
        elif parts[0] == "hist" and len(parts) == 2:
            hist[parts[1]] = value
    ordered = [s for s in stage_order if s in stages] + sorted(s for s in stages if s not in stage_order)
    funnel = []
    for s in ordered:
        entry = {"stage": s, **stages[s]}
        entry["dropped"] = {k: dict(sorted(v.items())) for k, v in entry["dropped"].items()}
        funnel.append(entry)
    totals = {"entry": {"kept": 0, "dropped": 0}, "triple": {"kept": 0, "dropped": 0}}
    for s in funnel:
        for kind in ("entry", "triple"):
            totals[kind]["kept"] += s["kept"].get(kind, 0)
            totals[kind]["dropped"] += sum(s["dropped"].get(kind, {}).values())
    return {"funnel": funnel, "totals": totals, "histogram": hist}
