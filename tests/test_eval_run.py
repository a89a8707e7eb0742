"""`cdtp eval` end to end with the offline baselines on our own ITEM_SCHEMA
items: outputs, the results table and its `cdtp query` view, invalid items,
--reuse, circular evaluation, k-shot prompts."""
from __future__ import annotations

import json

import duckdb
import pyarrow.parquet as pq
import pytest

from evaluation import prompts as P
from evaluation.config import EvalConfig
from evaluation.runner import run_eval
from pipeline.cli import main
from tests.eval_fixtures import fixture_items, write_items


@pytest.fixture()
def build(tmp_path):
    return write_items(tmp_path / "build")


def test_baselines_end_to_end(build, capsys):
    out = build / "runs" / "mf"
    assert main(["eval", "--items", str(build), "--model", "most-frequent", "--out", str(out)]) == 0
    md = capsys.readouterr().out
    assert "| HP |" in md and "f1_cdtp" in md and "f1_char" in md
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["model"] == "most-frequent" and len(doc["fingerprint"]) == 16 and doc["code_version"]
    assert doc["config"]["split"] == "eval" and doc["counts"] == {
        "items": 24, "asked": 24, "missing": 0, "errors": 0, "unparseable": 0, "invalid_items": 0,
        "no_triples": 6, "empty_output": 0, "output_truncated": 0}  # baselines extract no triple
    preds = pq.read_table(out / "predictions.parquet").to_pylist()
    assert len(preds) == 24 and len({p["key"] for p in preds}) == 24
    # 唐朝 is the most frequent QA answer in train (twice), so 杜甫's 朝代 is ranked first and right.
    du_fu = next(p for p in preds if p["item_id"] == "qa-p04")
    assert du_fu["prediction"] == "唐朝" and dict(du_fu["scores"])["acc"] == 1.0
    # Template T2T: the triple read out with its relation name.
    t2t = next(p for p in preds if p["item_id"] == "t2t-p11")
    assert t2t["prediction"] == "珠穆朗玛峰的海拔是8848.86米。" and dict(t2t["scores"])["bleu4"] > 0
    m = doc["metrics"]["qa"]["ALL"]
    assert m["f1_cdtp"] == pytest.approx(2 * m["acc"] / (1 + m["acc"]))
    # The results table sits beside items/ and `cdtp query` sees it.
    assert main(["query", str(build), "SELECT count(DISTINCT metric) FROM results WHERE task = 'qa'"]) == 0
    assert capsys.readouterr().out.split()[-3] == "9"  # mrr hits@1/3/10 acc f1_char unparseable f1_cdtp errors
    rows = duckdb.sql(f"SELECT DISTINCT model, task || '/' || domain, fingerprint, split "
                      f"FROM read_parquet('{build}/results/*.parquet')").fetchall()
    # each dataset's rows carry the fingerprint of that dataset's items (domain ALL: the task's)
    assert sorted(rows) == sorted(("most-frequent", k, fp, "eval") for k, fp in doc["dataset_fingerprints"].items())
    assert len(rows) == 12 and len({r[2] for r in rows}) == 12


def test_random_is_deterministic_and_reuse_rescores_without_model(build):
    cfg = EvalConfig(tasks=["qa", "kgc"])
    first = run_eval(str(build), str(build / "r1"), cfg, model_spec="random:3")
    again = run_eval(str(build), str(build / "r2"), cfg, model_spec="random:3")
    assert first["metrics"] == again["metrics"] and first["run_id"] == again["run_id"]
    # --reuse: no model spec needed, nothing asked, the same scores; the run's rows are replaced, not doubled.
    reused = run_eval(str(build), str(build / "r1"), EvalConfig(), model_spec=None, reuse=True)
    assert reused["metrics"] == first["metrics"]
    n = duckdb.sql(f"SELECT count(*) FROM read_parquet('{build}/results/*.parquet')").fetchone()[0]
    assert n == len(first["metrics"]) * 3 * 9  # 2 tasks x (HP, NE, ALL) x 9 metrics, once
    with pytest.raises(Exception, match="another run"):
        run_eval(str(build), str(build / "r1"), cfg, model_spec="random:4")


def test_a_damaged_run_folder_is_asked_again_or_refused_never_scored_short(build):
    from pipeline.errors import CdtpError

    cfg = EvalConfig(tasks=["qa", "kgc"])
    first = run_eval(str(build), str(build / "r"), cfg, model_spec="random:3")
    journal = build / "r" / "journal.jsonl"
    lines = journal.read_text(encoding="utf-8").splitlines()
    # --reuse with answers gone once scored what was left and appended it as the run's results
    journal.write_text("\n".join(lines[2:]) + "\n", encoding="utf-8")
    with pytest.raises(CdtpError, match="--reuse: 2 of the run's answers are missing"):
        run_eval(str(build), str(build / "r"), EvalConfig(), model_spec=None, reuse=True)
    # a damaged line (null, a rotation that is no number, a log-likelihood that is text) was a
    # traceback; it is asked again, like a line cut by a kill
    bad = [json.loads(x) for x in lines[:3]]
    bad[1]["rotation"], bad[2]["logliks"] = "x", ["abc"]
    journal.write_text("null\n" + "\n".join(json.dumps(b) for b in bad[1:]) + "\n"
                       + "\n".join(lines[3:]) + "\n", encoding="utf-8")
    again = run_eval(str(build), str(build / "r"), cfg, model_spec="random:3")
    assert again["metrics"] == first["metrics"] and again["counts"]["missing"] == 0
    for record in ("[]", '{"model": "random:3"}', "\udcff"):
        (build / "r" / "run.json").write_text(record, encoding="utf-8", errors="surrogateescape")
        with pytest.raises(CdtpError, match="is not a cdtp run record"):
            run_eval(str(build), str(build / "r"), cfg, model_spec="random:3")


def test_invalid_items_are_reported_not_asked(tmp_path):
    rows = fixture_items()
    bad = next(r for r in rows if r["item_id"] == "qa-p05")
    bad["answer"] = "不在选项里"
    short = next(r for r in rows if r["item_id"] == "kgc-p06")
    short["options"] = short["options"][:9]
    build = write_items(tmp_path / "b", rows)
    doc = run_eval(str(build), str(tmp_path / "o"), EvalConfig(tasks=["qa", "kgc"]), model_spec="random")
    reasons = {r["item_id"]: r["reason"] for r in doc["invalid_items"]}
    assert reasons == {"qa-p05": "answer_not_at_answer_index", "kgc-p06": "options_count:9"}
    assert doc["counts"]["asked"] == 10


def test_filters_limit_and_subset(tmp_path):
    rows = fixture_items()
    for r in rows:
        if r["item_id"] in ("t2t-p10", "qa-p04"):
            r["in_subset"] = False
    build = write_items(tmp_path / "b", rows)
    doc = run_eval(str(build), str(build / "o"), EvalConfig(tasks=["t2t"], domains=["NE"], limit=2),
                   model_spec="template")
    assert doc["n"]["t2t"] == {"NE": 2, "ALL": 2}
    preds = pq.read_table(build / "o" / "predictions.parquet").to_pylist()
    assert [p["item_id"] for p in preds] == ["t2t-p10", "t2t-p11"]  # lowest item_ids first
    doc = run_eval(str(build), str(build / "s"), EvalConfig(tasks=["t2t", "qa"], subset=True), model_spec="random")
    preds = pq.read_table(build / "s" / "predictions.parquet").to_pylist()
    assert {"t2t-p10", "qa-p04"}.isdisjoint(p["item_id"] for p in preds) and len(preds) == 10
    assert main(["eval", "--items", str(build), "--model", "random", "--tasks", "qa,nope",
                 "--out", str(build / "x")]) == 2
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["eval", "--items", str(build), "--model", "random", "--tasks", "qa",
                 "--out", str(blocker / "run")]) == 2  # a clear error, no traceback


def test_circular_evaluation_and_kshot_prompts(build):
    cfg = EvalConfig(tasks=["qa"], circular=4, shots=1, embedder="use-m3")
    doc = run_eval(str(build), str(build / "c"), cfg, model_spec="random")
    preds = pq.read_table(build / "c" / "predictions.parquet").to_pylist()
    assert sorted({p["rotation"] for p in preds}) == [0, 2, 5, 8] and len(preds) == 6 * 4
    m = doc["metrics"]["qa"]["ALL"]
    assert m["acc_circular"] <= m["acc"]
    # The demonstration is the nearest train item; it comes with its gold ranking.
    prompt = next(p["prompt"] for p in preds if p["item_id"] == "qa-p04" and p["rotation"] == 0)
    assert prompt.startswith(P.INSTRUCTION["qa"]) and "示例1：" in prompt and "现在请完成：" in prompt
    assert prompt.count("问题：") == 2


def test_progress_counts_requests_with_circular_passes(build, capsys):
    # "24/24 items" for 6 items asked in 4 circular passes
    run_eval(str(build), str(build / "c"), EvalConfig(tasks=["qa"], circular=4), model_spec="random")
    assert "eval: 24/24 requests (6 items with their circular passes)," in capsys.readouterr().err
    run_eval(str(build), str(build / "p"), EvalConfig(tasks=["qa"]), model_spec="random")
    assert "eval: 6/6 items," in capsys.readouterr().err


def test_demo_evaluates_offline_baselines_when_items_exist(tmp_path, capfd):
    from pipeline.demo import DEMO_BASELINES, _evaluate_baselines

    empty = tmp_path / "no_items"
    empty.mkdir()
    _evaluate_baselines(empty, tmp_path / "eval0")
    assert "evaluation of the offline baselines is skipped" in capfd.readouterr().out
    build = write_items(tmp_path / "build")
    _evaluate_baselines(build, tmp_path / "eval")
    out = capfd.readouterr().out
    assert "offline baselines on the demo items" in out
    models = {r[0] for r in duckdb.sql(f"SELECT DISTINCT model FROM read_parquet('{build}/results/*.parquet')")
              .fetchall()}
    assert models == set(DEMO_BASELINES)
    emb = json.loads((tmp_path / "eval" / "embed" / "results.json").read_text(encoding="utf-8"))
    assert emb["counts"]["asked"] == 24 and emb["counts"]["errors"] == 0


def test_t2kg_uses_the_builds_ontology_files(build):
    ont = {"id": "cdtp_HP", "concepts": [{"qid": "person", "label": "人物"}, {"qid": "dyn", "label": "朝代"}],
           "relations": [{"pid": "R1", "label": "朝代", "domain": "person", "range": "dyn"},
                         {"pid": "R2", "label": "本名", "domain": "person", "range": "person"}]}
    (build / "ontologies").mkdir()
    (build / "ontologies" / "cdtp_HP.json").write_text(json.dumps(ont, ensure_ascii=False), encoding="utf-8")
    run_eval(str(build), str(build / "o"), EvalConfig(tasks=["t2kg"], domains=["HP"]), model_spec="random")
    preds = pq.read_table(build / "o" / "predictions.parquet").to_pylist()
    assert len(preds) == 3
    assert all("本体概念：人物、朝代\n本体关系：朝代(人物, 朝代)、本名(人物, 人物)\n" in p["prompt"] for p in preds)
    (build / "ontologies" / "cdtp_HP.json").write_text("{", encoding="utf-8")
    with pytest.raises(Exception, match="not a readable ontology"):
        run_eval(str(build), str(build / "o2"), EvalConfig(tasks=["t2kg"]), model_spec="random")


def test_flags_that_would_be_ignored_or_leave_a_stale_run_are_refused(build, capsys):
    # --domains XX was left out silently; --circular 99 ran 10 rotations and recorded 99;
    # a bad model spec left a run record that the corrected command called "another run"
    assert main(["eval", "--items", str(build), "--model", "random", "--domains", "HP,XX",
                 "--out", str(build / "d")]) == 2
    assert "--domains: no eval item of" in capsys.readouterr().err
    assert main(["eval", "--items", str(build), "--model", "random", "--circular", "99",
                 "--out", str(build / "c")]) == 2
    assert "--circular must be at most 10" in capsys.readouterr().err
    assert main(["eval", "--items", str(build), "--model", "bogus:thing", "--out", str(build / "m")]) == 2
    assert "unknown model spec" in capsys.readouterr().err and not (build / "m" / "run.json").exists()
    assert main(["eval", "--items", str(build), "--model", "random", "--tasks", "qa",
                 "--out", str(build / "m")]) == 0


@pytest.mark.parametrize("spec, said", [
    ("random:abc", "'random:abc': the seed must be an integer, as in random:SEED"),
    ("random:", "the seed must be an integer"),
    ("template:x", "'template:x': template takes no argument; use template"),
    ("most-frequent:junk", "'most-frequent:junk': most-frequent takes no argument; use most-frequent"),
])
def test_a_baseline_spec_with_an_argument_it_does_not_use_is_refused(build, capsys, spec, said):
    # the argument was dropped without a word, yet named the run on the leaderboard
    assert main(["eval", "--items", str(build), "--model", spec, "--out", str(build / "m")]) == 2
    assert said in capsys.readouterr().err and not (build / "m" / "run.json").exists()


def test_a_random_seed_is_an_integer():
    from evaluation.models import make_model

    assert make_model("random:7").seed == "7" and make_model("random").seed == "0"
    assert make_model("random:-3").seed == "-3"
