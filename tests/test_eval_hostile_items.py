"""`cdtp eval` over hostile Parquet (issue 11: corrupt and wrong-schema shards
given to `cdtp build`, `cdtp query` and `cdtp eval`).

The expectation is the house rule: a clear `cdtp: error:` naming the bad
file, exit 2, no traceback.
"""
from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from schemas.items import ITEM_SCHEMA

# The arguments `cdtp eval` is called with, {items} replaced by the items directory.
EVAL_ARGS = ["eval", "--items", "{items}", "--model", "random", "--out", "{out}"]


def hostile_items_dirs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """{case: (items directory, the file name the error must mention)}."""
    cases = {}
    for case in ("zero", "truncated", "garbage", "wrong_schema"):
        items = tmp_path / case / "items"
        shard_dir = items / "task=qa" / "domain=HP" / "split=eval"
        shard_dir.mkdir(parents=True)
        shard = shard_dir / "part-00000-of-00001.parquet"
        if case == "wrong_schema":
            pq.write_table(pa.table({"question": ["鲁迅的出生地是哪里？"], "answer": [3]}), shard)
        else:
            pq.write_table(ITEM_SCHEMA.empty_table(), shard)
            data = shard.read_bytes()
            shard.write_bytes({"zero": b"", "truncated": data[: len(data) // 2],
                               "garbage": b"PAR1 garbage PAR1"}[case])
        cases[case] = (items, shard.name)
    return cases


@pytest.mark.parametrize("case", ["zero", "truncated", "garbage", "wrong_schema"])
def test_eval_over_hostile_items_is_a_clear_error(case, tmp_path, capsys):
    items, bad_name = hostile_items_dirs(tmp_path)[case]
    args = [a.format(items=items, out=tmp_path / "eval-out") for a in EVAL_ARGS]
    rc = main(args)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert rc == 2 and err.startswith("cdtp: error: ") and bad_name in err, err


def test_the_hostile_items_are_really_unreadable(tmp_path):
    """The hook's inputs are what they claim, so a passing eval test means something."""
    for case, (items, _) in hostile_items_dirs(tmp_path).items():
        shard = next(items.rglob("*.parquet"))
        if case == "wrong_schema":
            assert "item_id" not in pq.read_schema(shard).names
        else:
            with pytest.raises(Exception):
                pq.read_table(shard)
