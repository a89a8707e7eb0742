"""DIR/stats.json: the funnel from Beam metrics, top relations, Figure-7 histogram, config echo.

`relations` holds two counts of relation names, each under the name of what it counts:

* `top` (the paper's Figure 6) and `distinct`: the relations of the triples
  in the written pairs (pairs/), counted after the last stage, so they agree
  with any query of pairs/ and with a release's plot;
* `top_after_cleaning`, `distinct_after_cleaning` and `kept`: what the
  relation-frequency stage counted (the normalised names of the cleaned
  pairs' triples) and how many relations its filter kept. Relation review,
  search validation, near-duplicates and the split drop triples and pairs
  after it, so these counts are larger; they are what the filter decided on.

Why both: `top` used to be the stage's count, and users read it as the
released data's (属性 60 where the pairs kept 5). Counting the final pairs is
one more combiner over pairs that are written anyway, so the figure users
read is the written one, and the stage's count keeps an honest name.
"""
from __future__ import annotations

import json
from typing import Any

from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from pipeline.build import STAGE_ORDER, TOP_RELATIONS_FILE, WRITTEN_RELATIONS_FILE
from pipeline.config import BuildConfig
from pipeline.funnel import funnel_from_counters
from pipeline.neardup_stage import NEAR_DUPLICATE_STATS_FILE
from pipeline.split_stage import SPLIT_STATS_FILE
from schemas.outputs import SCHEMA_VERSION

HIST_BINS = ("1-1", "1-2", "1-3", "1-3+")


def _read_json(path: str) -> Any:
    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        return json.loads(fh.read().decode("utf-8"))


def _coverage_histogram(counts: dict[str, int]) -> dict[str, Any]:
    from transforms.coverage import COVERAGE_BINS

    bins = {b: counts.get(b, 0) for b in (*COVERAGE_BINS, "none")}
    n = sum(bins.values())
    return {"counts": bins, "shares": {b: (round(c / n, 4) if n else 0.0) for b, c in bins.items()}}


def assemble_stats(counters: dict[str, int], cfg: BuildConfig, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    out_dir = cfg.output.out_dir
    f = funnel_from_counters(counters, STAGE_ORDER)
    top_path = FileSystems.join(out_dir, TOP_RELATIONS_FILE)
    relations = _read_json(top_path) if FileSystems.exists(top_path) else {"top": [], "distinct": 0, "kept": 0}
    written_path = FileSystems.join(out_dir, WRITTEN_RELATIONS_FILE)
    # No fallback to the stage's counts when missing: an empty `top` is reported by output_check.
    written = _read_json(written_path) if FileSystems.exists(written_path) else {"top": [], "distinct": 0}
    hist = {b: f["histogram"].get(b, 0) for b in HIST_BINS}
    total_pairs = sum(hist.values())
    stats = {
        "schema_version": SCHEMA_VERSION,
        "totals": f["totals"],
        "funnel": f["funnel"],
        "relations": {  # see the module's docstring: `top` is of the written pairs
            "top": [{"relation": r, "count": c} for r, c in written.get("top", [])],
            "distinct": written.get("distinct", 0),
            "top_after_cleaning": [{"relation": r, "count": c} for r, c in relations.get("top", [])],
            "distinct_after_cleaning": relations.get("distinct", 0),
            "kept": relations.get("kept", 0),
        },
        "triples_per_pair": {
            "counts": hist,
            "shares": {b: (round(n / total_pairs, 4) if total_pairs else 0.0) for b, n in hist.items()},
        },
        # Issue 10: share of each pair's clauses holding a kept triple's support, by decile.
        "coverage": _coverage_histogram(f.get("coverage") or {}),
        "blank_lines": counters.get("read|blank_lines", 0),
        "config": cfg.to_dict(),
    }
    split_path = FileSystems.join(out_dir, SPLIT_STATS_FILE)  # split stage: sizes, marginals, subset distance
    if FileSystems.exists(split_path):
        stats["split"] = _read_json(split_path)
    # Leakage between train and eval (issue 8 §8): one key per check; the item stage adds its own.
    stats["leakage"] = {"near_duplicate_texts": None}
    near_path = FileSystems.join(out_dir, NEAR_DUPLICATE_STATS_FILE)  # near_duplicate: edges, copies dropped
    if FileSystems.exists(near_path):
        near = _read_json(near_path)
        stats["leakage"]["near_duplicate_texts"] = near.pop("near_duplicate_texts", None)
        stats["near_duplicate"] = near
    search = {k.split("|", 1)[1]: v for k, v in counters.items() if k.startswith("search|")}
    if search:  # search_validation: statuses, failure reasons, cache hits/misses
        stats["search"] = dict(sorted(search.items()))
    from pipeline.items_stage import items_stats

    items = items_stats(counters)
    if items is not None:  # items stage: written per task/split, skips, invariants, distractors, leakage
        stats["items"] = items
    if extra:
        stats.update(extra)
    return stats


def write_stats(stats: dict[str, Any], out_dir: str) -> str:
    path = FileSystems.join(out_dir, "stats.json")
    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        fh.write(json.dumps(stats, ensure_ascii=False, indent=2, sort_keys=False).encode("utf-8"))
    for name in (TOP_RELATIONS_FILE, WRITTEN_RELATIONS_FILE, SPLIT_STATS_FILE, NEAR_DUPLICATE_STATS_FILE):
        tmp_path = FileSystems.join(out_dir, name)
        if FileSystems.exists(tmp_path):
            FileSystems.delete([tmp_path])
    return path
