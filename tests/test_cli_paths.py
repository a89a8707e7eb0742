"""An output path that cannot be written is a clear error naming it, never a traceback.

Found by a hostile-input sweep: `--out` naming a file where a folder is
written (or a folder where a file is) ended in IsADirectoryError,
NotADirectoryError or FileExistsError tracebacks in seven commands.
"""
from __future__ import annotations

from pathlib import Path

from pipeline.cli import main

SEEDS = Path(__file__).resolve().parents[1] / "crawlers" / "sample_site" / "seeds.txt"


def test_a_folder_given_as_an_output_file_is_named_and_leaves_no_temp_file(tmp_path, capsys):
    out = tmp_path / "seeds"
    out.mkdir()
    assert main(["seeds", "--out", str(out), str(SEEDS)]) == 2
    err = capsys.readouterr().err
    assert f"cdtp: error: Is a directory: {out}" in err and "Traceback" not in err
    assert [p.name for p in tmp_path.iterdir()] == ["seeds"] and not any(out.iterdir())


def test_a_file_given_as_an_output_folder_is_named(tmp_path, capsys):
    from tests.eval_fixtures import write_items

    build = write_items(tmp_path / "b")
    taken = tmp_path / "board"
    taken.write_text("not a folder\n", encoding="utf-8")
    for out in (taken, taken / "run"):  # the folder itself, or one to be made inside it
        assert main(["eval", "--items", str(build), "--model", "random", "--tasks", "qa", "--out", str(out)]) == 2
        assert capsys.readouterr().err == f"cdtp: error: {taken} is a file, where a folder is wanted\n"
    assert taken.read_text(encoding="utf-8") == "not a folder\n"


def test_export_names_a_shards_folder_that_is_not_there(tmp_path, capsys):
    assert main(["export", "--shards", str(tmp_path / "nope"), "--format", "cdtp", "--out", str(tmp_path / "x")]) == 2
    assert "is no folder" in capsys.readouterr().err
