"""Text2KGBench metrics and `cdtp score`: the official Vicuna-13B scores are
reproduced from its raw responses, and the rules behave on our own examples."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from evaluation import text2kg as K
from tests.conftest import ROOT

ONTOLOGY_ZH = {
    "id": "ont_zh_poetry",
    "concepts": [{"qid": "C1", "label": "人物"}, {"qid": "C2", "label": "朝代"}, {"qid": "C3", "label": "作品"}],
    "relations": [{"pid": "R1", "label": "朝代", "domain": "C1", "range": "C2"},
                  {"pid": "R2", "label": "代表作品", "domain": "C1", "range": "C3"},
                  {"pid": "R3", "label": "出生 地", "domain": "C1", "range": ""}],
}


def _official(path):
    return [json.loads(line) for line in open(path, encoding="utf-8")]


def test_rules_on_own_chinese_example():
    sent = "杜甫是唐代诗人，代表作品有《春望》《登高》。"
    gold = [["杜甫", "朝代", "唐代"], ["杜甫", "代表作品", "春望"], ["杜甫", "代表作品", "登高"]]
    system = [["杜甫", "代表作品", "春 望"],  # whitespace is normalised away: a hit
              ["杜甫", "代表作品", "茅屋为秋风所破歌"],  # not in the sentence: object hallucination, a miss
              ["杜甫", "好友", "李白"],  # relation outside the ontology and outside gold: filtered, RH
              ["杜 甫", "出生_地", "巩县"]]  # ontology relation (space→_), not a gold relation: filtered
    s = K.sentence_scores(gold, system, ONTOLOGY_ZH, sent)
    assert s["p"] == pytest.approx(1 / 2)  # 2 triples left after filtering to gold relations, 1 right
    assert s["r"] == pytest.approx(1 / 3)
    assert s["f1"] == pytest.approx(2 * 0.5 * (1 / 3) / (0.5 + 1 / 3))
    assert s["oc"] == pytest.approx(3 / 4) and s["rh"] == pytest.approx(1 / 4)
    assert s["sh"] == 0.0  # "杜 甫" normalises to 杜甫, in the sentence
    assert s["oh"] == pytest.approx(3 / 4)  # 茅屋为秋风所破歌, 李白, 巩县 are not in it
    # No system triples: P/R/F1 0, OC 1, RH 0, SH/OH 0.
    empty = K.sentence_scores(gold, [], ONTOLOGY_ZH, sent)
    assert empty == {"p": 0, "r": 0, "f1": 0, "oc": 1, "sh": 0, "rh": 0, "oh": 0}
    # Concept labels count as grounded: an object naming a concept is no hallucination.
    assert K.sentence_scores(gold, [["杜甫", "朝代", "朝代"]], ONTOLOGY_ZH, sent)["oh"] == 0.0


def test_averages_divide_by_all_gold_sentences():
    gold = {"a": {"sent": "长江流经上海。", "triples": [["长江", "流经", "上海"]]},
            "b": {"sent": "黄河流经郑州。", "triples": [["黄河", "流经", "郑州"]]}}
    ont = {"concepts": [], "relations": [{"label": "流经"}]}
    agg, rows = K.score_ontology("x", ont, gold, {"a": [["长江", "流经", "上海"]]})  # "b" has no output
    assert [r["id"] for r in rows] == ["a"]
    assert agg.averages()["p"] == 0.5 and agg.averages()["oc"] == 0.5  # summed over 1, divided by 2
    assert K.global_scores([agg, agg])["f1"] == 0.5


def test_english_stemming_matches_inflections():
    ont = {"concepts": [{"label": "film"}], "relations": [{"label": "director"}]}
    sent = "The films were directed by Friz Freleng."
    sh, oh = K.subject_object_hallucination(ont, sent, [["film", "director", "Friz  Freleng"]], "en")
    assert (sh, oh) == (0.0, 0.0)  # "film" is a stem of "films"; spacing is normalised
    assert K.subject_object_hallucination(ont, sent, [["Tom Hanks", "director", "Freleng"]], "en") == (1.0, 0.0)


def test_parser_reads_calls_and_fullwidth():
    text = "答案如下：\n代表作品（杜甫，春望）\nbirth\\_place(Du Fu, Gongyi, Henan)\n朝代(杜甫,)\n说明文字"
    assert K.parse_triples(text) == [("杜甫", "代表作品", "春望"), ("Du Fu", "birth_place", " Gongyi, Henan")]
    assert K.parse_triples("") == [] and K.parse_triples(None) == []


@pytest.fixture(scope="module")
def tekgen(shared_data):
    d = shared_data / "text2kgbench" / "wikidata_tekgen"
    if not (d / "baselines" / "Vicuna-13B" / "eval_metrics").is_dir():
        pytest.skip(f"{d} lacks the Vicuna-13B baseline")
    return d


def test_parser_reproduces_official_triples(tekgen):
    n = 0
    for f in sorted((tekgen / "baselines" / "Vicuna-13B" / "llm_responses").glob("*.jsonl")):
        for row in _official(f):
            assert [list(t) for t in K.parse_triples(row["response"])] == row["triples"], row["id"]
            n += 1
    assert n > 3000


NAMES = {"p": "avg_precision", "r": "avg_recall", "f1": "avg_f1", "oc": "avg_onto_conf",
         "sh": "avg_sub_halluc", "rh": "avg_rel_halluc", "oh": "avg_obj_halluc"}
FIELDS = {"p": "precision", "r": "recall", "f1": "f1", "oc": "onto_conf", "rh": "rel_halluc",
          "sh": "sub_halluc", "oh": "obj_halluc"}


def _score(data, responses, out):
    proc = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "score", "text2kg", "--data", str(data),
         "--responses", str(responses), "--out", str(out), "--per-sentence"],
        cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(out.read_text())
    assert json.loads(proc.stdout)["global"] == doc["global"]
    return doc


def _check_averages(doc, official):
    per_onto = {r["onto"]: r for r in official if r.get("type") == "all_test_cases"}
    assert set(per_onto) == set(doc["ontologies"])
    glob_ref = next(r for r in official if r.get("type") == "global" or r.get("id") == "global")
    for got, ref in [(doc["ontologies"][k], per_onto[k]) for k in per_onto] + [(doc["global"], glob_ref)]:
        for m, name in NAMES.items():
            assert got[m] == float(ref[name]), (ref.get("onto", "global"), m)  # the script's own rounding
            assert abs(got["exact"][m] - float(ref[name])) <= 0.005 + 1e-9, (ref.get("onto", "global"), m)


def test_score_text2kg_reproduces_official_vicuna13b(tekgen, tmp_path):
    base = tekgen / "baselines" / "Vicuna-13B"
    doc = _score(tekgen, base / "llm_responses", tmp_path / "scores.json")
    _check_averages(doc, _official(base / "eval_metrics" / "ont_llm_avg_stats_v2.jsonl"))
    # Per sentence, every metric agrees with the official file at its 2 decimals.
    checked = 0
    for key, entry in doc["ontologies"].items():
        ref = {r["id"]: r for r in _official(base / "eval_metrics" / f"ont_{key}_llm_stats.jsonl")}
        for row in entry["sentences"]:
            for m, name in FIELDS.items():
                assert f"{row[m]:.2f}" == ref[row["id"]][name], (row["id"], m)
            checked += 1
    assert checked == 3925


def test_score_text2kg_reproduces_official_unseen_sentences(tekgen, tmp_path):
    """Another set of outputs: Vicuna-13B on the unseen sentences, with their own ground truth."""
    data = tmp_path / "unseen_data"
    data.mkdir()
    (data / "ontologies").symlink_to(tekgen / "ontologies")  # links, not copies
    (data / "ground_truth").symlink_to(tekgen / "unseen_sentences" / "ground_truth")
    base = tekgen / "baselines" / "Vicuna-13B" / "unseen"
    doc = _score(data, base / "llm_responses", tmp_path / "unseen.json")
    _check_averages(doc, _official(base / "eval_metrics" / "ont_llm_avg_eval_metrics.jsonl"))
    for key, entry in doc["ontologies"].items():  # this file keeps unrounded per-sentence values
        ref = {r["id"]: r for r in _official(base / "eval_metrics" / f"{key}_eval_metrics.jsonl")}
        for row in entry["sentences"]:
            for m, name in FIELDS.items():
                assert row[m] == pytest.approx(float(ref[row["id"]][name]), abs=1e-12), (row["id"], m)


def test_response_text_is_parsed_when_triples_are_absent(tekgen, tmp_path):
    """The same scores whether the official parsed triples or only the raw responses are given."""
    from evaluation.text2kg_io import score_folder

    src = tekgen / "baselines" / "Vicuna-13B" / "llm_responses" / "ont_7_space_llm_responses.jsonl"
    raw = tmp_path / "raw"
    raw.mkdir()
    with open(raw / "7_space_answers.jsonl", "w", encoding="utf-8") as fh:
        for row in _official(src):
            fh.write(json.dumps({"id": row["id"], "response": row["response"]}) + "\n")
    official = tmp_path / "official"
    official.mkdir()
    (official / src.name).symlink_to(src)
    parsed = score_folder(str(tekgen), str(raw))
    given = score_folder(str(tekgen), str(official))
    assert parsed.parsed_from_text == len(_official(src)) and given.parsed_from_text == 0
    assert parsed.per_ontology["7_space"] == {**given.per_ontology["7_space"], "responses": "7_space_answers.jsonl"}
    assert len(parsed.missing_responses) == 9 and "7_space" not in parsed.missing_responses


def test_score_commands_reject_bad_input(tmp_path):
    def run(*args):
        return subprocess.run([sys.executable, "-m", "pipeline.cli", "score", *args], cwd=ROOT,
                              capture_output=True, text=True, timeout=120)

    proc = run("text2kg", "--data", str(tmp_path), "--responses", str(tmp_path))
    assert proc.returncode == 2 and "not a Text2KGBench dataset folder" in proc.stderr
    # a ground-truth row whose triples are no list of {sub, rel, obj}, and an ontology whose
    # relations are no objects, were TypeError tracebacks
    data, responses = tmp_path / "d", tmp_path / "r"
    for sub in ("ground_truth", "ontologies", "test"):
        (data / sub).mkdir(parents=True)
    responses.mkdir()
    (data / "ontologies" / "ont_1_x_ontology.json").write_text('{"relations": [{"label": "位于"}]}', encoding="utf-8")
    (data / "test" / "ont_1_x_test.jsonl").write_text('{"id": "1", "sent": "甲"}\n', encoding="utf-8")
    (data / "ground_truth" / "ont_1_x_ground_truth.jsonl").write_text('{"id": "1", "sent": "甲", "triples": "abc"}\n',
                                                                      encoding="utf-8")
    (responses / "ont_1_x_response.jsonl").write_text('{"id": "1", "triples": []}\n', encoding="utf-8")
    proc = run("text2kg", "--data", str(data), "--responses", str(responses))
    assert proc.returncode == 2 and "row 1: expected a `sent` string and `triples`" in proc.stderr, proc.stderr
    (data / "ontologies" / "ont_1_x_ontology.json").write_text('{"relations": [null]}', encoding="utf-8")
    proc = run("text2kg", "--data", str(data), "--responses", str(responses))
    assert proc.returncode == 2 and "a `relations` list of objects with a `label`" in proc.stderr, proc.stderr
    bad = tmp_path / "p.jsonl"
    bad.write_text('{"reference": "长江", "prediction": "长江"}\n{"reference": 3}\n', encoding="utf-8")
    proc = run("t2t", "--predictions", str(bad))
    assert proc.returncode == 2 and "p.jsonl:2" in proc.stderr and "Traceback" not in proc.stderr
    good = tmp_path / "g.jsonl"
    good.write_text(json.dumps({"reference": "李白是唐代诗人", "prediction": "李白是唐代诗人"}, ensure_ascii=False)
                    + "\n" + json.dumps({"reference": ["熊猫吃竹子"], "prediction": "长江很长"}, ensure_ascii=False)
                    + "\n", encoding="utf-8")
    proc = run("t2t", "--predictions", str(good))
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["n"] == 2 and doc["rouge1"] == pytest.approx(0.5) and 0 < doc["meteor"] < 0.5


def test_score_inputs_nested_too_deeply_are_clear_errors(tmp_path, capsys):
    """A user's predictions or responses file with one deeply nested line: a clear error, no RecursionError."""
    from pipeline.cli import main

    deep = "[" * 5000 + "]" * 5000
    preds = tmp_path / "preds.jsonl"
    preds.write_text('{"reference": "甲", "prediction": "甲"}\n' + deep + "\n", encoding="utf-8")
    assert main(["score", "t2t", "--predictions", str(preds)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cdtp: error:") and "preds.jsonl:2" in err and "Traceback" not in err


def test_official_outputs_with_no_triples_keep_their_score_and_are_counted(tekgen):
    """run_eval.py scores an empty extraction OC 1.00, SH/OH 0 (its own files: 346 such
    sentences, each onto_conf "1.00"): the score is kept, and the count is reported."""
    from evaluation.text2kg_io import score_folder

    base = tekgen / "baselines" / "Vicuna-13B"
    official = [r for f in sorted((base / "eval_metrics").glob("ont_*_llm_stats.jsonl")) for r in _official(f)
                if "llm_triples" in r]
    empty = [r for r in official if not r["llm_triples"]]
    assert len(empty) == 346 and {r["onto_conf"] for r in empty} == {"1.00"}
    report = score_folder(str(tekgen), str(base / "llm_responses"))
    assert (report.no_triples, report.unknown_ids, report.duplicate_ids) == (346, 0, 0)
    assert report.to_json()["no_triples"] == 346


def _tiny_dataset(tmp_path):
    data, responses = tmp_path / "d", tmp_path / "r"
    (data / "ground_truth").mkdir(parents=True)
    (data / "ontologies").mkdir()
    responses.mkdir()
    (data / "ontologies" / "1_x_ontology.json").write_text('{"relations": [{"label": "朝代"}]}', encoding="utf-8")
    gold = [{"id": f"ont_1_x_test_{i}", "sent": "杜甫是唐朝诗人。", "triples": [{"sub": "杜甫", "rel": "朝代",
                                                                               "obj": "唐朝"}]} for i in (1, 2, 3)]
    (data / "ground_truth" / "ont_1_x_ground_truth.jsonl").write_text(
        "".join(json.dumps(g, ensure_ascii=False) + "\n" for g in gold), encoding="utf-8")
    return data, responses


def test_unknown_and_repeated_response_ids_are_counted_not_silent(tmp_path, capsys):
    """Once silently ignored (ids of another ontology's file) or silently overridden (a repeated id)."""
    from pipeline.cli import main

    data, responses = _tiny_dataset(tmp_path)
    rows = [{"id": "ont_1_x_test_1", "triples": []},  # no triples: OC 1 by the official rule, counted
            {"id": "ont_1_x_test_2", "triples": [["杜甫", "朝代", "宋朝"]]},
            {"id": "ont_1_x_test_2", "triples": [["杜甫", "朝代", "唐朝"]]},  # repeated: the last one is scored
            {"id": "ont_2_y_test_7", "triples": [["李白", "朝代", "唐朝"]]}]  # another ontology's id
    (responses / "ont_1_x_response.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    assert main(["score", "text2kg", "--data", str(data), "--responses", str(responses)]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert (doc["no_triples"], doc["unknown_ids"], doc["duplicate_ids"]) == (1, 1, 1)
    onto = doc["ontologies"]["1_x"]
    assert onto["unknown_id_examples"] == ["ont_2_y_test_7"] and onto["duplicate_id_examples"] == ["ont_1_x_test_2"]
    assert onto["n_with_output"] == 2 and onto["exact"]["f1"] == pytest.approx(1 / 3)  # the last test_2 scored
    assert onto["exact"]["oc"] == pytest.approx(2 / 3)  # the empty one's OC 1, as the official script
    assert "1 response id(s) are not in their ontology's ground truth" in captured.err
    assert "1 response id(s) occur more than once" in captured.err


def test_eval_counts_t2kg_outputs_without_triples_and_empty_t2t(tmp_path):
    """An empty extraction scored OC 1.0 / SH 0 / OH 0 with parse_status 'text', like a clean
    one, and empty T2T output was counted nowhere."""
    import pyarrow.parquet as pq

    from evaluation.config import EvalConfig
    from evaluation.runner import run_eval
    from tests.eval_fixtures import write_items

    from evaluation.backends import Generation

    class Silent:  # answers every prompt with nothing
        spec, supports_loglikelihood = "silent", False

        def generate(self, prompts):
            return [Generation("  ") for _ in prompts]

        def close(self):
            pass

    build = write_items(tmp_path / "b")
    doc = run_eval(str(build), str(tmp_path / "o"), EvalConfig(tasks=["t2kg", "t2t"]), model_spec="silent",
                   model=Silent())
    assert doc["counts"]["no_triples"] == 6 and doc["counts"]["empty_output"] == 6
    assert doc["metrics"]["t2kg"]["ALL"]["no_triples"] == 6.0 and doc["metrics"]["t2t"]["HP"]["empty_output"] == 3.0
    statuses = {p["task"]: p["parse_status"] for p in pq.read_table(tmp_path / "o" / "predictions.parquet").to_pylist()}
    assert statuses == {"t2kg": "no_triples", "t2t": "empty_output"}
    assert doc["metrics"]["t2kg"]["ALL"]["oc"] == 1.0  # Text2KGBench's rule, kept for comparability


def test_runaway_t2t_output_is_scored_on_a_bounded_prefix_and_counted(tmp_path, capsys):
    from evaluation import t2t_metrics as T
    from pipeline.cli import main

    ref = "李白是唐代诗人"
    assert T.max_output_chars(ref) == 20 * len(ref) and T.max_output_chars("长" * 5000) == 20_000
    assert T.max_output_chars(["甲", "长" * 15_000]) == 30_000  # never under twice the longest reference
    runaway = ref + "啊" * 1_000_000
    assert T.cap_output(runaway, ref) == (runaway[:140], True) and T.cap_output(ref, ref) == (ref, False)
    # the same scores as for the prefix that is scored (the 1M-character output once took ~30 s)
    assert T.item_t2t_scores(runaway, ref) == T.item_t2t_scores(runaway[:140], ref)
    preds = tmp_path / "p.jsonl"
    preds.write_text(json.dumps({"reference": ref, "prediction": runaway}, ensure_ascii=False) + "\n"
                     + json.dumps({"reference": ref, "prediction": " "}, ensure_ascii=False) + "\n", encoding="utf-8")
    assert main(["score", "t2t", "--predictions", str(preds)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["n"], doc["output_truncated"], doc["empty_output"]) == (2, 1, 1)
