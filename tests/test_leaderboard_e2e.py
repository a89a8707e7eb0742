"""A leaderboard over real `cdtp eval` runs (issue 13): several systems, every level filled,
significance from the runs' per-item scores, and the same table through `cdtp query`."""
import json

import pyarrow.parquet as pq
import pytest

from evaluation.local_server import running_server
from pipeline.cli import main
from tests.eval_fixtures import write_items


@pytest.mark.slow
def test_leaderboard_over_evaluated_systems(tmp_path):
    build = tmp_path / "build"
    write_items(build)
    runs = []
    with running_server() as srv:
        for name, spec in (("random", "random"), ("template", "template"), ("most", "most-frequent"),
                           ("server", f"openai-chat:local@{srv.url}")):
            out = tmp_path / "runs" / name
            assert main(["eval", "--items", str(build), "--model", spec, "--out", str(out)]) == 0
            runs.append(str(out))
    board_dir = build / "leaderboard"
    assert main(["leaderboard", "--results", str(build / "results"), "--out", str(board_dir),
                 "--runs", *runs]) == 0
    board = json.loads((board_dir / "leaderboard.json").read_text())
    # every system was asked every task: all levels are filled for all of them
    assert set(board["overall"]) == {"random", "template", "most-frequent", f"openai-chat:local@{srv.url}"}
    assert all(v is not None for v in board["overall"].values())
    assert all(v is not None for caps in board["capabilities"].values() for v in caps.values())
    assert len(next(iter(board["capabilities"].values()))) == 4
    # QA/KGC are normalised by chance (hits@1 0.1 = 100); T2T by the template baseline
    assert all(abs(board["datasets"]["random"][d] - board["raw"]["random"][d] * 1000) < 1e-6
               for d in board["datasets"]["random"] if d.endswith(("_QA", "_KGC")))
    assert all(abs(v - 100.0) < 1e-9 for d, v in board["datasets"]["template"].items() if d.endswith("_T2T"))
    sig = board["significance"]  # 3 items per dataset: too few for a p-value, and said so
    assert sig and all(s["p_value"] is None and s["note"].startswith("too few items") and s["n"] == 3
                       for s in sig)
    assert (board_dir / "capabilities_radar.png").exists()
    # and the same table through cdtp query
    rows = pq.read_table(board_dir / "leaderboard.parquet").to_pylist()
    assert {r["level"] for r in rows} == {"overall", "capability", "task", "dataset"}


def test_a_run_of_fewer_tasks_is_compared_on_the_items_it_shares(tmp_path, capsys):
    """The fingerprint once covered a run's whole selection: `embed` asked QA
    alone got another fingerprint than the runs of every task, and vanished
    from the QA board without a word. Each dataset now has its items' own."""
    build = write_items(tmp_path / "build")
    results = tmp_path / "results"
    for spec, tasks in (("random", "qa,kgc,t2t,t2kg"), ("template", "qa,kgc,t2t,t2kg"), ("embed", "qa")):
        assert main(["eval", "--items", str(build), "--model", spec, "--tasks", tasks, "--out",
                     str(tmp_path / spec), "--results", str(results)]) == 0
    fps = [json.loads((tmp_path / m / "results.json").read_text())["dataset_fingerprints"]
           for m in ("random", "embed")]
    assert fps[0]["qa/HP"] == fps[1]["qa/HP"] and fps[0]["qa/ALL"] == fps[1]["qa/ALL"]
    capsys.readouterr()
    assert main(["leaderboard", "--results", str(results), "--out", str(tmp_path / "lb"), "--tasks", "qa",
                 "--no-plots"]) == 0
    board = json.loads((tmp_path / "lb" / "leaderboard.json").read_text())
    assert set(board["overall"]) == {"random", "template", "embed"} and board["notes"] == []
    # a run on other items (--limit 1) is left out with a note naming it
    assert main(["eval", "--items", str(build), "--model", "most-frequent", "--tasks", "qa", "--limit", "1",
                 "--out", str(tmp_path / "mf"), "--results", str(results)]) == 0
    run_id = json.loads((tmp_path / "mf" / "results.json").read_text())["run_id"]
    capsys.readouterr()
    assert main(["leaderboard", "--results", str(results), "--out", str(tmp_path / "lb2"), "--tasks", "qa",
                 "--no-plots"]) == 0
    out = capsys.readouterr().out
    assert f"CDTP_HP_QA: most-frequent (run {run_id}) left out: scored on item set" in out
    assert f"CDTP_NE_QA: most-frequent (run {run_id}) left out" in out
