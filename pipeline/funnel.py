"""The funnel: how many entries and triples enter and leave each stage, and why.

Counts come from Beam metrics so they are exact on any runner and any number
of workers. Stages don't count themselves: build.py wraps every stage with
`CountFlow` (pairs and triples in / out) and the audit stream is counted by
(stage, kind, fate, reason) once, right before it is written. That keeps the
funnel consistent with the audit by construction, including the issue-4
stages that only return {"pairs", "audit"}.

Elements are single pairs/rows or lists of them (pipeline/batch.py).

Counter names (namespace `cdtp`):
  flow|<stage>|<in|out>|<entries|triples>
  audit|<stage>|<kind>|<fate>|<reason>
  hist|<bin>        triples-per-pair of the final pairs (paper Figure 7)
  cov|<bin>         coverage decile of the final pairs (issue 10)
"""
from __future__ import annotations

import functools
from collections import defaultdict
from typing import Any

import apache_beam as beam
from apache_beam.metrics import Metrics

from pipeline.batch import items_of
from pipeline.gc_tuning import tune_gc

NAMESPACE = "cdtp"


class BundleCounts:
    """Counts summed in the DoFn and added to Beam counters once per bundle.

    A Beam counter update looks up the current metrics container on every
    call; at several counters per element that was a visible share of the
    per-element cost. Metrics are committed per bundle anyway, so the totals
    are the same.
    """

    count_prefix = ""  # what `count` puts before a counter's name (`items|`)

    def count(self, name: str, n: int = 1) -> None:
        key = self.count_prefix + name
        self._counts[key] = self._counts.get(key, 0) + n

    def setup(self):
        # Once per worker process in practice: the cleaning stages allocate the most
        # (pipeline/gc_tuning.py); the launcher tunes its own process too.
        tune_gc()

    def start_bundle(self):
        self._counts: dict[str, int] = {}

    def finish_bundle(self):
        for name, value in self._counts.items():
            if value:
                Metrics.counter(NAMESPACE, name).inc(value)
        self._counts = {}


class _CountFlowFn(beam.DoFn):
    """Entries and triples passing between stages, summed per bundle (see BundleCounts).

    One operation counts for several (stage, direction) sides: what leaves a
    stage is what enters the next, so one count per element serves both.
    """

    def __init__(self, sides: tuple[tuple[str, str], ...]):
        self.sides = tuple(sides)

    def setup(self):
        self.names = [(f"flow|{stage}|{direction}|entries", f"flow|{stage}|{direction}|triples")
                      for stage, direction in self.sides]

    def start_bundle(self):
        self.entries = 0
        self.triples = 0

    def finish_bundle(self):
        for entries_name, triples_name in self.names:
            if self.entries:
                Metrics.counter(NAMESPACE, entries_name).inc(self.entries)
            if self.triples:
                Metrics.counter(NAMESPACE, triples_name).inc(self.triples)
        self.entries = self.triples = 0

    def process(self, element):
        pairs = items_of(element)  # a pair, a raw entry, or a batch of either
        self.entries += len(pairs)
        for pair in pairs:
            if isinstance(pair, dict):  # raw entries (tuples) have no triples yet
                self.triples += len(pair.get("triples") or ())
        return (element,)


def count_flow(*sides: tuple[str, str]) -> beam.ParDo:
    """Count elements as `(stage, "in"|"out")` for every side given."""
    return beam.ParDo(_CountFlowFn(sides))


class _CountByNameFn(BundleCounts, beam.DoFn):
    """Counts the rows (or pairs) of each element under the counter `name_of(item)`."""

    def __init__(self, name_of):
        self.name_of = name_of

    def process(self, element):
        counts, name_of = self._counts, self.name_of
        for item in items_of(element):
            name = name_of(item)
            counts[name] = counts.get(name, 0) + 1
        return (element,)


def _audit_name(row: dict) -> str:
    return f"audit|{row['stage']}|{row['kind']}|{row['fate']}|{row['reason']}"


def count_audit() -> beam.ParDo:
    """Count audit rows by (stage, kind, fate, reason)."""
    return beam.ParDo(_CountByNameFn(_audit_name))


def _histogram_name(pair: dict, bin_fn) -> str:
    return f"hist|{bin_fn(len(pair.get('triples') or ()))}"


def count_histogram(bin_fn) -> beam.ParDo:
    """Count pairs by `bin_fn(number of triples)` (paper Figure 7)."""
    return beam.ParDo(_CountByNameFn(functools.partial(_histogram_name, bin_fn=bin_fn)))


def _coverage_name(pair: dict) -> str:
    from transforms.coverage import coverage_bin

    return f"cov|{coverage_bin(pair.get('coverage'))}"


def count_coverage() -> beam.ParDo:
    """Count pairs by coverage decile (issue 10; stats.json `coverage`)."""
    return beam.ParDo(_CountByNameFn(_coverage_name))


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
    cov: dict[str, int] = {}
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
        elif parts[0] == "cov" and len(parts) == 2:
            cov[parts[1]] = value
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
    return {"funnel": funnel, "totals": totals, "histogram": hist, "coverage": cov}
