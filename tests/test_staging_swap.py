"""The final move of a build's outputs into OUT, cut short at every step
(kill -9), is finished by the next build: OUT then holds the new build whole,
never a mix of two builds, and a reader refuses OUT while it lacks stats.json.

Outputs are folders and files of our own here (no Beam run): the swap moves
names, whatever they hold.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline import staging
from pipeline.errors import CdtpError


def _write_build(root: Path, tag: str, names: tuple[str, ...]) -> None:
    for name in names:
        if name == "stats.json":
            (root / name).write_text(json.dumps({"build": tag}), encoding="utf-8")
        else:
            (root / name).mkdir(parents=True)
            (root / name / "part-0.parquet").write_text(f"{tag} {name}", encoding="utf-8")


def _listing(out: Path) -> dict[str, str]:
    return {str(p.relative_to(out)): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*")) if p.is_file()}


OLD = ("pairs", "audit", "discarded_triples", "items", "ontologies", "stats.json")
NEW = ("pairs", "audit", "discarded_triples", "stats.json")  # the new build has no items stage


class _Cut(Exception):
    pass


def _cut_after(monkeypatch, moves: int) -> None:
    """Let `moves` moves happen, then stop the swap as a kill would."""
    real = staging._move
    done = [0]

    def move(src, dst):
        if done[0] >= moves:
            raise _Cut
        done[0] += 1
        real(src, dst)

    monkeypatch.setattr(staging, "_move", move)


def _expected_new(tmp_path: Path) -> dict[str, str]:
    ref = tmp_path / "reference"
    if not ref.exists():
        _write_build(ref, "new", NEW)
    return _listing(ref)


def test_an_uncut_swap_leaves_the_new_build_and_no_scratch(tmp_path):
    out = tmp_path / "out"
    _write_build(out, "old", OLD)
    _write_build(out / staging.STAGING_DIR, "new", NEW)
    staging.swap_in(str(out), str(out / staging.STAGING_DIR))
    assert _listing(out) == _expected_new(tmp_path)
    assert sorted(p.name for p in out.iterdir()) == sorted(NEW)


@pytest.mark.parametrize("moves", range(0, 12))
def test_a_swap_cut_after_any_move_is_finished_by_the_next_build(tmp_path, monkeypatch, moves):
    out = tmp_path / "out"
    _write_build(out, "old", OLD)
    _write_build(out / staging.STAGING_DIR, "new", NEW)
    _cut_after(monkeypatch, moves)
    try:
        staging.swap_in(str(out), str(out / staging.STAGING_DIR))
        cut = False
    except _Cut:
        cut = True
    monkeypatch.undo()
    listing = _listing(out)
    # OUT's own stats.json is there only when OUT holds one build whole.
    if "stats.json" in listing:
        old_ref = tmp_path / "old-reference"
        _write_build(old_ref, "old", OLD)
        visible = {k: v for k, v in listing.items() if not k.startswith("_")}
        assert visible in (_expected_new(tmp_path), _listing(old_ref))
    elif cut:
        from pipeline.query import recorded_counts

        with pytest.raises(CdtpError, match="has no stats.json: the build that wrote it did not finish"):
            recorded_counts(str(out))
    # The next build into OUT finishes the swap before anything else, and says so.
    if cut:
        with pytest.raises(CdtpError, match="interrupted during its final move, now moved in whole"):
            staging.prepare(str(out), overwrite=False)
    assert _listing(out) == _expected_new(tmp_path)
    assert sorted(p.name for p in out.iterdir()) == sorted(NEW)


def test_a_build_killed_before_its_swap_is_scratch_and_the_old_outputs_stay(tmp_path):
    out = tmp_path / "out"
    _write_build(out, "old", OLD)
    _write_build(out / staging.STAGING_DIR, "new", NEW)  # written, but no swap begun (no manifest)
    before = _listing(out / "pairs")
    _, removed = staging.prepare(str(out), overwrite=True)
    assert removed == ["_staging/"]
    assert _listing(out / "pairs") == before and (out / "stats.json").read_text(encoding="utf-8") == '{"build": "old"}'


def test_a_damaged_stats_json_is_refused_by_readers(tmp_path):
    from pipeline.query import recorded_counts

    out = tmp_path / "out"
    _write_build(out, "old", OLD)
    (out / "stats.json").write_text('{"output_check":', encoding="utf-8")
    with pytest.raises(CdtpError, match="stats.json cannot be read .*damaged"):
        recorded_counts(str(out))
