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
    sig = board["significance"]
    assert sig and all(0.0 < s["p_value"] <= 1.0 for s in sig)
    assert (board_dir / "capabilities_radar.png").exists()
    # and the same table through cdtp query
    rows = pq.read_table(board_dir / "leaderboard.parquet").to_pylist()
    assert {r["level"] for r in rows} == {"overall", "capability", "task", "dataset"}
