"""Benchmark results as files: figures with targets, collected by benchmarks/run.py into JSON and Markdown."""
from __future__ import annotations

import json

import pytest

from benchmarks import run
from benchmarks.results import figure, parse_stdout, target_met


def test_targets_are_computed_never_typed():
    assert target_met(310, ">= 200") is True
    assert target_met(199.9, ">= 200") is False
    assert target_met(1.35, "<= 1.5") is True and target_met(1.6, "<= 1.5") is False
    assert target_met(1, "== 1") is True
    assert target_met(float("nan"), ">= 0") is False
    assert target_met(5, None) is None and target_met("n/a", ">= 1") is None and target_met(True, ">= 1") is None
    with pytest.raises(ValueError, match="target must look like"):
        target_met(1, "at least 2")
    assert figure("x", 3, "u", ">= 2") == {"name": "x", "value": 3, "unit": "u", "target": ">= 2", "met": True}


def test_last_result_line_is_the_payload():
    out = "noise\nBENCH-RESULT {\"bench\": \"a\", \"figures\": []}\nmore noise\nBENCH-RESULT {\"bench\": \"b\", \"figures\": [1]}\n"
    assert parse_stdout(out) == {"bench": "b", "figures": [1]}
    assert parse_stdout("BENCH-RESULT {broken") is None and parse_stdout("") is None


def test_run_collects_a_real_benchmark_into_json_and_markdown(tmp_path, monkeypatch):
    """bench_parse with one round: figures when ../shared/data is there, a 'skipped' row with its reason when not."""
    monkeypatch.setattr(run, "BENCHMARKS", (("parse", "benchmarks.bench_parse", ["--rounds", "1"], ["--rounds", "1"]),))
    assert run.main(["--quick", "--out-dir", str(tmp_path)]) == 0
    (json_path,) = tmp_path.glob("*-quick.json")
    report = json.loads(json_path.read_text(encoding="utf-8"))
    assert report["machine"]["cores_usable"] >= 1 and report["versions"]["lxml"]
    (bench,) = report["benchmarks"]
    assert bench["status"] in ("ok", "skipped")
    md = json_path.with_suffix(".md").read_text(encoding="utf-8")
    if bench["status"] == "ok":
        (fig,) = [f for f in bench["figures"] if f["unit"] == "pages/s/core"]
        assert fig["target"] == ">= 200" and fig["met"] == (fig["value"] >= 200)
        assert "| parse | parse + extract, real 2019 pages" in md
    else:
        assert "no pages" in bench["reason"] and "*skipped*" in md
    assert f"Targets met: {report['targets_met']} of {report['targets']}." in md


def test_unknown_benchmark_name_is_a_clear_error(capsys):
    with pytest.raises(SystemExit) as err:
        run.main(["no_such_bench"])
    assert err.value.code == 2 and "unknown benchmark" in capsys.readouterr().err


def test_a_benchmark_without_emit_still_yields_its_numbers():
    from benchmarks.results import infer_from_json

    pretty = 'log line\n{\n  "entries": 100,\n  "ratio": 0.9,\n  "ok": true,\n  "name": "x"\n}\n'
    got = infer_from_json(pretty, "items")
    assert [(f["name"], f["value"], f["target"]) for f in got["figures"]] == [("entries", 100, None), ("ratio", 0.9, None)]
    assert infer_from_json("no json here", "items") is None
    assert infer_from_json('{"figures": [{"name": "a", "value": 1}]}', "x")["figures"] == [{"name": "a", "value": 1}]
