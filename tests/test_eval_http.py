"""The OpenAI-compatible backend against a real local server speaking the
protocol (evaluation/local_server.py on 127.0.0.1): retries, Retry-After,
error replies, a hang, the API key's secrecy, log-likelihood ranking, and a
run killed with SIGKILL that resumes without asking a recorded item twice."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections import Counter

import pyarrow.parquet as pq
import pytest

from evaluation.config import EvalConfig
from evaluation.local_server import char_logprob, running_server
from evaluation.openai_backend import OpenAIBackend
from evaluation.runner import Journal, run_eval
from pipeline.errors import CdtpError
from tests.conftest import ROOT
from tests.eval_fixtures import write_items


def _backend(url, mode="chat", **opts):
    q = "&".join(f"{k}={v}" for k, v in {"backoff": 0.01, **opts}.items())
    return OpenAIBackend.from_spec(f"openai-{mode}:m@{url}?{q}")


def test_retries_retry_after_and_errors():
    with running_server() as srv:
        srv.script("限流", "429:0.6", "ok")
        srv.script("故障", "503", "500", "badjson", "ok")
        srv.script("坏了", *["500"] * 10)
        m = _backend(srv.url, retries=3, concurrency=4)
        t0 = time.monotonic()
        gens = m.generate(["限流", "故障", "坏了"])
        elapsed = time.monotonic() - t0
        assert (gens[0].text, gens[0].attempts, gens[0].error) == ("限流", 2, None)
        assert elapsed >= 0.6  # Retry-After: 0.6 s was honoured, not the 0.01 s back-off
        assert (gens[1].text, gens[1].attempts) == ("故障", 4)
        assert gens[2].text == "" and gens[2].error == "HTTP 500: server error" and gens[2].attempts == 4
        assert Counter(s for _, p, s in srv.log if p == "坏了") == {500: 4}
        # A 404 is not retried.
        bad = OpenAIBackend.from_spec(f"openai-chat:m@{srv.url}/nowhere?backoff=0.01")
        g = bad.generate(["x"])[0]
        assert g.attempts == 1 and g.error.startswith("HTTP 404")
        for b in (m, bad):
            b.close()


def test_hang_times_out_then_retries():
    with running_server(hang_seconds=3) as srv:
        srv.script("挂起", "hang", "ok")
        srv.script("总是卡住", "hang", "hang", "hang")
        m = _backend(srv.url, timeout=0.4, retries=1)
        t0 = time.monotonic()
        ok, dead = m.generate(["挂起", "总是卡住"])
        assert time.monotonic() - t0 < 2.5
        assert ok.text == "挂起" and ok.attempts == 2
        assert dead.error == "timeout after 0.4s" and dead.attempts == 2
        m.close()


def test_transport_options_do_not_change_the_run(tmp_path):
    from evaluation.models import canonical_spec

    assert canonical_spec("openai-chat:m@http://h:1/v1?concurrency=32&max_tokens=64&key_env=K") == \
        "openai-chat:m@http://h:1/v1?max_tokens=64"
    build = write_items(tmp_path / "b")
    with running_server() as srv:
        cfg = EvalConfig(tasks=["t2t"])
        first = run_eval(str(build), str(tmp_path / "o"), cfg, model_spec=f"openai-chat:m@{srv.url}?concurrency=1")
        again = run_eval(str(build), str(tmp_path / "o"), cfg, model_spec=f"openai-chat:m@{srv.url}?concurrency=8")
        assert first["model"] == again["model"] == f"openai-chat:m@{srv.url}"
        assert len(srv.log) == 6  # the second call found every answer in the journal


def test_spec_validation():
    with pytest.raises(CdtpError, match="expected openai-chat:MODEL@"):
        OpenAIBackend.from_spec("openai-chat:gpt")
    with pytest.raises(CdtpError, match="unknown option 'speed'"):
        OpenAIBackend.from_spec("openai-chat:m@http://127.0.0.1:1/v1?speed=2")
    with pytest.raises(CdtpError, match="never go in the model spec"):
        OpenAIBackend.from_spec("openai-chat:m@http://127.0.0.1:1/v1?api_key=sk-1")


def test_key_from_env_never_written(tmp_path, monkeypatch):
    secret = "sk-local-test-7f3a9c"
    build = write_items(tmp_path / "b")
    with running_server(api_key=secret) as srv:
        spec = f"openai-chat:m@{srv.url}?key_env=CDTP_TEST_KEY&backoff=0.01&retries=1"
        monkeypatch.delenv("CDTP_TEST_KEY", raising=False)
        doc = run_eval(str(build), str(tmp_path / "nokey"), EvalConfig(tasks=["t2t"]), model_spec=spec)
        assert doc["counts"]["errors"] == 6  # 401, not retried, recorded per item
        preds = pq.read_table(tmp_path / "nokey" / "predictions.parquet").to_pylist()
        assert {p["error"] for p in preds} == {"HTTP 401: invalid api key"}
        monkeypatch.setenv("CDTP_TEST_KEY", secret)
        doc = run_eval(str(build), str(tmp_path / "key"), EvalConfig(tasks=["t2t", "qa"]), model_spec=spec)
        assert doc["counts"]["errors"] == 0 and doc["counts"]["asked"] == 12
    for root, _dirs, files in os.walk(tmp_path):
        for f in files:
            assert secret.encode() not in open(os.path.join(root, f), "rb").read(), f


def test_loglikelihood_ranking_through_completions(tmp_path):
    build = write_items(tmp_path / "b")
    with running_server() as srv:
        spec = f"openai-completions:m@{srv.url}?logprobs=1"
        run_eval(str(build), str(tmp_path / "o"), EvalConfig(tasks=["kgc"]), model_spec=spec)
    preds = pq.read_table(tmp_path / "o" / "predictions.parquet").to_pylist()
    p = preds[0]
    assert p["parse_status"] == "loglik" and len(p["logliks"]) == 10
    # Each option's score is the sum of the server's per-character logprobs over the option's characters.
    item_opts = json.loads(json.dumps(p["prompt"]))  # the prompt ends with the cue "答案："
    prompt = item_opts
    from tests.eval_fixtures import fixture_items

    opts = next(i for i in fixture_items() if i["item_id"] == p["item_id"])["options"]
    full = [prompt + o for o in opts]
    expected = [sum(char_logprob(f[i - 1], f[i]) for i in range(len(prompt), len(f))) for f in full]
    assert p["logliks"] == pytest.approx(expected)
    assert p["ranking"][0] == max(range(10), key=lambda i: (expected[i], -i))


def test_journal_repairs_a_torn_last_line(tmp_path):
    path = tmp_path / "journal.jsonl"
    record = {"key": "a#0", "item_id": "a", "rotation": 0, "raw_output": "甲", "logliks": None}
    path.write_text(json.dumps(record) + "\n" + '{"key": "b#0", "item_id"', encoding="utf-8")
    j = Journal(str(path))
    assert set(j.records) == {"a#0"}
    j.append({"key": "c#0"})
    j.close()
    assert [json.loads(line)["key"] for line in path.read_text().splitlines()] == ["a#0", "c#0"]


def test_kill_9_then_resume_asks_no_recorded_item_twice(tmp_path):
    build = write_items(tmp_path / "b")
    out = tmp_path / "run"
    journal = out / "journal.jsonl"
    with running_server(delay=0.08) as srv:
        cmd = [sys.executable, "-m", "pipeline.cli", "eval", "--items", str(build), "--out", str(out),
               "--model", f"openai-chat:m@{srv.url}?concurrency=2&timeout=10", "--circular", "4"]
        proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if journal.exists() and journal.read_bytes().count(b"\n") >= 10:
                break
            time.sleep(0.02)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        before = {json.loads(line)["key"]: json.loads(line)["prompt"]
                  for line in journal.read_text(encoding="utf-8").splitlines() if line.endswith("}")}
        total = 12 * 4 + 12  # QA/KGC in 4 rotations, T2T and T2KG once
        assert 10 <= len(before) < total
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr
        answered = srv.answered()
    preds = pq.read_table(out / "predictions.parquet").to_pylist()
    assert len(preds) == total and len({p["key"] for p in preds}) == total  # none lost, none doubled
    assert all(p["error"] is None for p in preds)
    for key, prompt in before.items():
        assert answered[prompt] == 1, key  # a recorded answer is never asked again
    twice = [p for p, n in answered.items() if n > 1]
    assert len(twice) <= 2  # at most the requests in flight at the kill (concurrency 2)
    assert not set(twice) & set(before.values())
    assert json.loads((out / "results.json").read_text())["counts"]["asked"] == total


def test_a_run_with_failed_calls_adds_nothing_to_the_results_table(tmp_path, capsys, monkeypatch):
    """Failed calls (here a missing API key: 401) would score every item
    wrong: the run is kept (predictions, results.json) but the results table,
    which the leaderboard reads, gets it only once --retry-errors has asked
    the failed calls again."""
    from pipeline.cli import main

    build = write_items(tmp_path / "b")
    results = tmp_path / "results"
    monkeypatch.delenv("CDTP_TEST_KEY", raising=False)
    with running_server(api_key="sk-local-test-1") as srv:
        args = ["eval", "--items", str(build), "--tasks", "t2t", "--out", str(tmp_path / "run"),
                "--results", str(results), "--model", f"openai-chat:m@{srv.url}?key_env=CDTP_TEST_KEY&retries=0"]
        assert main(args) == 2
        err = capsys.readouterr().err
        assert "6 of 6 model calls failed (e.g. HTTP 401: invalid api key)" in err and "--retry-errors" in err
        assert not results.exists() or not list(results.iterdir())
        assert json.loads((tmp_path / "run" / "results.json").read_text())["counts"]["errors"] == 6
        monkeypatch.setenv("CDTP_TEST_KEY", "sk-local-test-1")
        assert main([*args, "--retry-errors"]) == 0
        assert len(list(results.iterdir())) == 1
