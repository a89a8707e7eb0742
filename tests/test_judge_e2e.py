"""`cdtp judge` end to end against a judge server on 127.0.0.1 (issue 13 §3).

The candidate and the reference models are local OpenAI-compatible servers
too, each answering from its own table; the judge is a third server whose
verdict rule the test chooses. Real HTTP, the real backend, the real command.
"""
import json
import re

import pyarrow.parquet as pq
import pytest

from evaluation.local_server import running_server
from pipeline.cli import main
from tests.eval_fixtures import FACTS, write_items

GOLD = {f"{head}的{rel}是什么？": tail for _d, _s, head, rel, tail, _t in FACTS}


def _question(prompt: str) -> str:
    m = re.search(r"问题：(.+)", prompt)
    return m.group(1).strip() if m else ""


def _knows_everything(prompt: str) -> str:
    return GOLD.get(_question(prompt), "不知道")


def _knows_nothing(prompt: str) -> str:
    return "不知道"


def _fair_judge(prompt: str) -> str:
    gold = re.search(r"标准答案：(.*)", prompt).group(1).strip()
    a1 = re.search(r"回答1：(.*)", prompt).group(1).strip()
    a2 = re.search(r"回答2：(.*)", prompt).group(1).strip()
    if (a1 == gold) == (a2 == gold):
        return "结论：平局"
    return "两个回答比较之后，结论：1" if a1 == gold else "结论：2"


def _first_judge(prompt: str) -> str:
    return "结论：1"  # position bias at its worst


def _run(tmp_path, candidate, reference, judge_rule):
    build = tmp_path / "build"
    write_items(build)
    with running_server(answer=candidate) as cand, running_server(answer=reference) as ref, \
            running_server(answer=judge_rule) as judge:
        spec = lambda srv: f"openai-chat:m@{srv.url}"  # noqa: E731
        out = tmp_path / "judged"
        rc = main(["judge", "--items", str(build), "--model", spec(cand), "--reference", spec(ref),
                   "--judge", spec(judge), "--out", str(out)])
        asked = sum(judge.answered().values())
    assert rc == 0
    report = json.loads((out / "report.json").read_text())
    return report, pq.read_table(out / "judged.parquet").to_pylist(), asked, build


@pytest.mark.slow
def test_judging_with_swapped_order_end_to_end(tmp_path):
    report, rows, asked, build = _run(tmp_path, _knows_everything, _knows_nothing, _fair_judge)
    n = report["domains"]["ALL"]["n"]
    assert n == len(rows) > 0
    assert asked == 2 * n  # every comparison judged twice, order swapped
    assert report["domains"]["ALL"]["win"]["rate"] == 1.0
    assert all(r["verdict_first"] == "1" and r["verdict_swapped"] == "2" for r in rows)
    # the run is in the results table, where the leaderboard reads it
    results = pq.read_table(build / "results").to_pylist()
    assert {r["metric"] for r in results if r["task"] == "qa_open"} >= {"win_rate", "judge_score"}


@pytest.mark.slow
def test_a_judge_that_always_prefers_the_first_answer_yields_ties(tmp_path):
    report, rows, _asked, _build = _run(tmp_path, _knows_everything, _knows_nothing, _first_judge)
    overall = report["domains"]["ALL"]
    assert overall["tie"]["rate"] == 1.0
    assert overall["win"]["rate"] == 0.0 and overall["loss"]["rate"] == 0.0
    assert {r["outcome"] for r in rows} == {"tie"}


def _no_verdict(prompt: str) -> str:
    return "两个回答各有道理。"


@pytest.mark.slow
def test_failed_calls_or_no_verdict_at_all_are_never_counted_as_ties(tmp_path, capsys):
    # Both once reported "tie 1.000" with exit 0 and went into the results table.
    build = tmp_path / "build"
    write_items(build)
    with running_server(answer=_knows_everything) as cand, running_server(answer=_no_verdict) as judge:
        spec = lambda srv: f"openai-chat:m@{srv.url}"  # noqa: E731
        assert main(["judge", "--items", str(build), "--model", spec(cand), "--reference", "most-frequent",
                     "--judge", spec(judge), "--out", str(tmp_path / "j1")]) == 2
    assert "the judge named no verdict in any of its" in capsys.readouterr().err
    dead = "openai-chat:m@http://127.0.0.1:9/v1?retries=0"  # nothing listens on port 9
    assert main(["judge", "--items", str(build), "--model", "most-frequent", "--reference", "random",
                 "--judge", dead, "--out", str(tmp_path / "j2")]) == 2
    assert "model calls failed (candidate 0, reference 0, judge" in capsys.readouterr().err
    assert (tmp_path / "j2" / "report.json").is_file() and not (build / "results").exists()
