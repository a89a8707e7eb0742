"""What a server or an adapter really sends back, and what a damaged item set
holds, never ends a run in a traceback or a silently short score: content
parts, numbers, lone surrogates, malformed echoed logprobs, NaN scores, an
adapter that raises or answers fewer prompts than asked, duplicated items."""
from __future__ import annotations

import json
import math
import shutil

import pyarrow.parquet as pq
import pytest

from evaluation.backends import Generation
from evaluation.config import EvalConfig
from evaluation.local_server import running_server
from evaluation.openai_backend import OpenAIBackend, continuation_logprob, reply_text
from evaluation.runner import Journal, run_eval
from evaluation.scoring import loglik_problem, score_record
from pipeline.cli import main
from pipeline.errors import CdtpError
from tests.eval_fixtures import fixture_items, write_items


@pytest.fixture()
def build(tmp_path):
    return write_items(tmp_path / "build")


def _preds(out):
    return {p["item_id"]: p for p in pq.read_table(out / "predictions.parquet").to_pylist()}


def test_reply_content_is_joined_from_parts_or_recorded_as_an_error():
    assert reply_text([{"type": "text", "text": "甲"}, {"type": "image_url", "image_url": {}},
                       {"type": "text", "text": "乙"}]) == ("甲乙", None)
    assert reply_text(None) == ("", None) and reply_text([]) == ("", None)
    assert reply_text(42) == ("", "reply content is int, not text")
    assert reply_text({"text": "x"}) == ("", "reply content is dict, not text")
    assert reply_text([{"type": "image_url"}]) == ("", "reply content is a list with no text part")


def test_chat_replies_with_parts_numbers_or_lone_surrogates_are_normalised_or_recorded(build, tmp_path):
    """Content parts once reached jieba as a list (AttributeError), a number the
    same; a lone surrogate broke the journal's write (UnicodeEncodeError)."""
    def answer(prompt):
        if "杜甫" in prompt:
            return [{"type": "text", "text": "杜甫的朝代"}, {"type": "text", "text": "是唐朝。"}]
        if "银杏" in prompt:
            return 42
        if "长江" in prompt:
            return "长江\ud800全长"
        return "好。"

    out = tmp_path / "run"
    with running_server(answer=answer) as srv:
        spec = f"openai-chat:m@{srv.url}?retries=0"
        doc = run_eval(str(build), str(out), EvalConfig(tasks=["t2t"]), model_spec=spec)
        assert doc["counts"]["errors"] == 1 and doc["results_table"] is None
        assert "1 of 6 model calls failed (e.g. reply content is int, not text)" in doc["not_added"]
        preds = _preds(out)
        assert preds["t2t-p04"]["raw_output"] == "杜甫的朝代是唐朝。" and preds["t2t-p04"]["error"] is None
        assert preds["t2t-p10"]["error"] == "reply content is int, not text"
        assert preds["t2t-p12"]["raw_output"] == "长江\ufffd全长" and preds["t2t-p12"]["error"] is None
        # the journal reads every line back: a resume asks nothing that was answered
        asked = len(srv.log)
        run_eval(str(build), str(out), EvalConfig(tasks=["t2t"]), model_spec=spec)
        assert len(srv.log) == asked


def test_journal_writes_a_lone_surrogate_it_is_handed(tmp_path):
    j = Journal(str(tmp_path / "journal.jsonl"))
    j.append({"key": "a#0", "item_id": "a", "rotation": 0, "raw_output": "x\ud800y"})
    j.close()
    assert json.loads((tmp_path / "journal.jsonl").read_text(encoding="utf-8"))["raw_output"] == "x\ud800y"


@pytest.mark.parametrize("offsets, values", [
    ([0, 1], [None]),  # different lengths
    ([0, "1"], [None, -1.0]),  # an offset that is text
    ([0, 1], [None, "x"]),  # a logprob that is text
    (None, [None]),
])
def test_malformed_echoed_logprobs_are_a_clear_error(offsets, values):
    with pytest.raises(CdtpError, match="echoed logprobs are malformed"):
        continuation_logprob(offsets, values, 1)
    assert continuation_logprob([0, 1, 2], [None, -1.0, -2.5], 1) == -3.5


def test_malformed_logprobs_from_a_server_are_recorded_per_item(build, tmp_path, monkeypatch):
    """Once a TypeError out of _loglik_one, which ask() did not catch: the run died."""
    backend = OpenAIBackend.from_spec("openai-completions:m@http://127.0.0.1:9/v1?logprobs=1")
    reply = {"choices": [{"logprobs": {"text_offset": [0, "x"], "token_logprobs": [None, -1.0]}}]}
    monkeypatch.setattr(backend, "_with_retries", lambda path, body: (reply, None, 1))
    doc = run_eval(str(build), str(tmp_path / "o"), EvalConfig(tasks=["kgc"]), model_spec=backend.spec,
                   model=backend)
    assert doc["counts"]["errors"] == 6 and doc["results_table"] is None
    assert {p["parse_status"] for p in _preds(tmp_path / "o").values()} == {"error"}
    assert all("echoed logprobs are malformed" in p["error"] for p in _preds(tmp_path / "o").values())


class _Hostile:
    """An adapter with bugs: NaN scores, a wrong count, an exception, and a
    generate that raises for T2KG prompts or answers only some prompts."""

    spec = "hostile"
    supports_loglikelihood = True

    def __init__(self, *, short: int = 0) -> None:
        self.short = short

    def loglikelihood(self, prompt, continuations):
        item = prompt.item
        if item["item_id"] == "qa-p04":
            return [math.nan] * len(continuations)
        if item["item_id"] == "qa-p05":
            return [0.0] * 3
        if item["item_id"] == "qa-p06":
            raise TypeError("unsupported operand")
        return [float(i) for i in range(len(continuations))]

    def generate(self, prompts):
        if any(p.item["task"] == "t2kg" for p in prompts):
            raise RuntimeError("CUDA out of memory")
        return [Generation("x")] * (len(prompts) - self.short)

    def close(self):
        pass


def test_an_adapter_that_raises_or_scores_nan_gives_item_errors_not_a_traceback(build, tmp_path):
    doc = run_eval(str(build), str(tmp_path / "o"), EvalConfig(tasks=["qa", "t2kg"]), model_spec="hostile",
                   model=_Hostile())
    preds = _preds(tmp_path / "o")
    assert preds["qa-p04"]["error"] == "log-likelihood of option 0 is nan"
    assert preds["qa-p04"]["parse_status"] == "error" and preds["qa-p04"]["ranking"] is None
    assert preds["qa-p05"]["error"] == "3 log-likelihoods for 10 options"
    assert preds["qa-p06"]["error"] == "the model's loglikelihood raised TypeError: unsupported operand"
    # the whole T2KG chunk is recorded, each item with the reason
    t2kg = [p for p in preds.values() if p["task"] == "t2kg"]
    assert len(t2kg) == 6 and {p["error"] for p in t2kg} == {
        "the model's generate raised RuntimeError: CUDA out of memory"}
    assert doc["counts"]["errors"] == 9 and doc["counts"]["missing"] == 0 and doc["results_table"] is None


def test_nan_log_likelihoods_in_a_saved_journal_score_as_an_error():
    item = next(i for i in fixture_items() if i["item_id"] == "qa-p04")
    rec = {"key": "qa-p04#0", "item_id": "qa-p04", "task": "qa", "domain": "HP", "split": "eval", "rotation": 0,
           "raw_output": "", "logliks": [math.nan] + [0.0] * 9, "error": None}
    row = score_record(rec, item, {})
    assert row["parse_status"] == "error" and row["error"] == "log-likelihood of option 0 is nan"
    assert row["scores"]["acc"] == 0.0
    assert loglik_problem([-math.inf] + [0.0] * 9, 10) is None  # an impossible option is a score


def test_fewer_answers_than_prompts_keep_the_run_out_of_the_results_table(build, tmp_path, capsys, monkeypatch):
    """Once `missing: 3` and the table written with n=3 of 6: the dataset scored on half its items."""
    import evaluation.models

    results, out = tmp_path / "results", tmp_path / "run"
    args = ["eval", "--items", str(build), "--model", "template", "--tasks", "t2t", "--out", str(out),
            "--results", str(results)]
    real = evaluation.models.make_model
    monkeypatch.setattr(evaluation.models, "make_model", lambda spec: _Hostile(short=3))
    assert main(args) == 2
    err = capsys.readouterr().err
    assert "3 of 6 answers are missing" in err and "run the same command again" in err
    assert "Traceback" not in err and not results.exists()
    doc = json.loads((out / "results.json").read_text(encoding="utf-8"))
    assert doc["counts"]["missing"] == 3 and doc["counts"]["asked"] == 3
    monkeypatch.setattr(evaluation.models, "make_model", real)
    assert main(args) == 0  # the resume asks the three missing prompts; now the run is whole
    assert json.loads((out / "results.json").read_text(encoding="utf-8"))["counts"]["missing"] == 0
    assert len(list(results.iterdir())) == 1


def test_duplicated_item_ids_are_refused(build, tmp_path, capsys):
    """A copied partition file once gave `items: 6, asked: 3`, 0 missing, 0 invalid."""
    part = build / "items" / "task=qa" / "domain=HP" / "split=eval"
    shutil.copy(part / "part-0.parquet", part / "part-1.parquet")
    assert main(["eval", "--items", str(build / "items"), "--model", "random", "--tasks", "qa",
                 "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "3 item_id(s) occur more than once" in err and "'qa-p04' 2 times" in err
    assert "Traceback" not in err
