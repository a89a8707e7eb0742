"""The benchmarks run by `make bench` hand their figures to benchmarks/run.py, on today's entry format.

Why: `make bench-quick` broke twice without a test noticing. bench_typing unpacked infobox rows as
(k, v) after raw_corpus rows grew their value links, and align, eval, items and stages never called
`emit`, so run.py had no figures from them. These checks take seconds; the benchmarks' real sizes stay
in `make bench`.
"""
from __future__ import annotations

import ast
import json
from pathlib import Path

from benchmarks import run
from benchmarks.bench_typing import as_pair
from benchmarks.results import ENV

ROOT = Path(__file__).resolve().parents[1]


def _calls(path: Path) -> set[str]:
    """Names of the plain functions a module calls (`emit(...)`, `skip(...)`)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def test_every_benchmark_in_the_run_hands_over_its_figures_with_emit():
    """A benchmark without `emit` is a 'no figures' row: the README promises every figure with its target."""
    for name, module, _, _ in run.BENCHMARKS:
        path = ROOT / (module.replace(".", "/") + ".py")
        assert "emit" in _calls(path), f"{name} ({path.name}) never calls benchmarks.results.emit"


def test_typing_pairs_read_both_infobox_row_shapes():
    """base_records rows are (relation, value, value_links); RawEntry rows are dicts: one pair either way."""
    tuples = {"title": "示例", "summary": "示例是一个例子。", "tags": ["例"],
              "infobox": [("别名", "样例", []), ("国籍", "中国", ["https://baike.example/item/中国"])]}
    dicts = dict(tuples, infobox=[{"name": r, "value": v, "value_links": links} for r, v, links in tuples["infobox"]])
    expected = [{"relation": "别名", "tail": "样例"}, {"relation": "国籍", "tail": "中国"}]
    assert as_pair(tuples)["triples"] == as_pair(dicts)["triples"] == expected
    assert as_pair({"title": "空", "infobox": None}) == {"entity": "空", "text": "", "tags": [], "triples": []}


def test_bench_typing_reports_its_figures_through_run(shared_data, tmp_path, monkeypatch):
    """50 base records (Baike pages first: rows with value links) through run.py, as `make bench-quick` runs it."""
    quick = ["--n", "50", "--repeats", "1"]
    monkeypatch.setattr(run, "BENCHMARKS", (("typing", "benchmarks.bench_typing", [], quick),))
    assert run.main(["--quick", "--out-dir", str(tmp_path)]) == 0
    (bench,) = json.loads(next(tmp_path.glob("*-quick.json")).read_text(encoding="utf-8"))["benchmarks"]
    assert bench["status"] == "ok", bench
    by_unit = {f["unit"]: f for f in bench["figures"]}
    assert by_unit["pairs/s of CPU"]["value"] > 0 and by_unit["pairs/s of CPU"]["target"] == ">= 2000"
    assert 0 <= by_unit["share"]["value"] <= 1 and bench["details"]["pairs"] == 50


def test_bench_typing_without_data_is_skipped_with_its_reason(tmp_path, monkeypatch):
    from benchmarks import bench_typing

    result = tmp_path / "result.json"
    monkeypatch.setenv(ENV, str(result))
    assert bench_typing.main(["--data", str(tmp_path / "absent")]) == 0
    payload = json.loads(result.read_text(encoding="utf-8"))
    assert payload["figures"] == [] and "no corpus found" in payload["skipped"]


def test_a_benchmark_that_reports_nothing_fails_the_run(tmp_path, monkeypatch, capsys):
    """Exit status 0 means every benchmark ran and reported: `python -m this` prints, but hands over nothing."""
    monkeypatch.setattr(run, "BENCHMARKS", (("silent", "this", [], []),))
    assert run.main(["--quick", "--out-dir", str(tmp_path)]) == 1
    assert "no figures from: silent" in capsys.readouterr().err
