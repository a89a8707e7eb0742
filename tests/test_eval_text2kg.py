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
