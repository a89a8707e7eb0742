"""The labelled distractor set (docs/distractor_labels.md) and its scorer.

The set's rows are checked as a file; the scorer on items written by hand;
and the measurement itself on a fresh plant build of ../shared/data: with
open relations asked, most of the labelled plant items had a right answer
among their wrong ones; as built, none of the held-out ones does.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.items_commands import rebuild_and_score
from transforms.align_labels import MAX_STORED_TAIL
from transforms.items.distractor_labels import load_labels, score
from transforms.text import normalise

LABELS = Path(__file__).parent / "data" / "distractor_labels.jsonl"


def _row(**kw):
    base = {"build": "plants", "item_id": "i1", "head": "银杏", "relation": "功用价值", "asked": "tail",
            "option": "蜜源", "label": "true", "part": "heldout"}
    return {**base, **kw}


def _write(tmp_path, rows) -> Path:
    path = tmp_path / "labels.jsonl"
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r, ensure_ascii=False)) + "\n" for r in rows),
                    encoding="utf-8")
    return path


def test_the_bundled_set_follows_its_rules():
    rows = load_labels(LABELS)
    assert len(rows) == 2160 and {r["build"] for r in rows} == {"kdconv", "duie", "plants"}
    per_item: dict[str, int] = {}
    for r in rows:
        per_item[r["item_id"]] = per_item.get(r["item_id"], 0) + 1
    assert set(per_item.values()) == {9} and len(per_item) == 240  # nine distractors an item
    assert {(r["round"], r["part"]) for r in rows} == {(1, "tune"), (1, "heldout"), (2, "heldout")}
    # long options are stored by hash only: no page text in the project
    assert all(len(normalise(r["option"])) <= MAX_STORED_TAIL for r in rows if "option" in r)


@pytest.mark.parametrize("bad, why", [
    ("not json", "not JSON"),
    (json.dumps({"item_id": "i1"}), "a row needs"),
    (json.dumps(_row(label="yes")), "label 'yes' is not one of true, false, unsure"),
    (json.dumps(_row(part="dev")), "part 'dev' is not one of tune, heldout"),
])
def test_a_bad_row_is_an_error_naming_its_line(tmp_path, bad, why):
    with pytest.raises(ValueError, match=f"labels.jsonl:2: {why}"):
        load_labels(_write(tmp_path, [_row(option="观赏", label="false"), bad]))


def test_one_distractor_two_labels_and_an_empty_file_are_errors(tmp_path):
    with pytest.raises(ValueError, match="labelled both true and false"):
        load_labels(_write(tmp_path, [_row(), _row(label="false")]))
    with pytest.raises(ValueError, match="no labelled row"):
        load_labels(_write(tmp_path, []))
    assert main(["items", "distractors", "--labels", str(_write(tmp_path, ["{"])), "--work", str(tmp_path / "w")]) == 2


def test_a_bad_set_is_the_only_error_and_no_build_starts(tmp_path, capsys, monkeypatch):
    # the build's config error was followed by "the plants build failed"
    monkeypatch.setattr("pipeline.items_commands.data_folder_entries", lambda *a: [])
    (tmp_path / "data").mkdir()
    assert main(["items", "distractors", "--labels", str(_write(tmp_path, [_row()])), "--data", str(tmp_path / "data"),
                 "--work", str(tmp_path / "w"), "--set", "items.nope=1"]) == 2
    err = capsys.readouterr().err
    assert err.count("error") == 1 and "nope" in err and "build failed" not in err
    assert not (tmp_path / "w").exists()


def test_a_work_folder_in_a_build_is_refused(tmp_path, capsys, monkeypatch):
    """Its builds' files would join the build's shards (and `--overwrite` replace its outputs)."""
    monkeypatch.setattr("pipeline.items_commands.data_folder_entries", lambda *a: [])
    (tmp_path / "data").mkdir()
    build = tmp_path / "build"
    (build / "pairs").mkdir(parents=True)
    for work in (build, build / "pairs"):
        assert main(["items", "distractors", "--labels", str(_write(tmp_path, [_row()])),
                     "--data", str(tmp_path / "data"), "--work", str(work)]) == 2
        assert "is a cdtp build output" in capsys.readouterr().err
    assert [p.name for p in build.iterdir()] == ["pairs"] and not any((build / "pairs").iterdir())


def test_score_counts_right_wrong_answers_per_item_and_what_is_not_labelled_or_not_asked():
    labels = [_row(option="蜜源", label="true"), _row(option="染料", label="false"), _row(option="饲料", label="unsure"),
              _row(item_id="i2", option="乔木", label="false", relation="植物分类"),
              _row(item_id="i3", option="草本", label="false", relation="植物分类", part="tune")]
    items = [{"item_id": "i1", "task": "qa", "options": ["行道树", "蜜源", "染料", "饲料", "造林"], "answer_index": 0},
             {"item_id": "i1", "task": "kgc", "options": ["行道树", "蜜源"], "answer_index": 0},  # KGC: not labelled
             {"item_id": "i2", "task": "qa", "options": ["灌木", "乔木"], "answer_index": 0}]
    r = score(labels, items)
    assert set(score(labels, items, "round")) == {"heldout/round 1", "tune/round 1"}
    assert r["heldout"] == {"items": 2, "not_asked": 0, "distractors_labelled": 4, "unlabelled": 1, "true": 1,
                            "unsure": 1, "false_distractor_rate": 0.25, "ambiguous_items": 0.5}
    assert r["tune"]["not_asked"] == 1 and r["tune"]["items"] == 0
    assert set(score(labels, items, "relation")) == {"heldout/功用价值", "heldout/植物分类", "tune/植物分类"}


def test_no_held_out_plant_item_has_a_right_answer_among_its_wrong_ones(shared_data, tmp_path):
    """The measurement (docs/distractor_labels.md) on a fresh plant build,
    with open relations asked and as built."""
    asked = rebuild_and_score(str(LABELS), shared_data, tmp_path / "a", ["plants"],
                              ["items.skip_open_relations=false"], ("round",))
    built = rebuild_and_score(str(LABELS), shared_data, tmp_path / "b", ["plants"], [], ("round",))
    # Every labelled item is found when open relations are asked: the set still names this build's items.
    first = asked["heldout/round 1"]
    assert first["items"] == 29 and first["not_asked"] == 0
    assert first["ambiguous_items"] > 0.5  # 72% of the items had a right answer among the wrong
    assert built["heldout/round 1"]["items"] == 4 and built["heldout/round 1"]["ambiguous_items"] == 0.0
    assert built["heldout/round 1"]["not_asked"] == 25  # the tails of open relations: 地理分布, 功用价值, 颜色…
    # Round 2 was drawn from the items as built: none with a right answer among the wrong
    # (its two either-or items, 落叶灌木或小乔木 for a 落叶小乔木, now take other options). One is no
    # longer asked: 西番莲's 文化寓意 果汁之王, a name of praise the text
    # gives, not a meaning, so the aligner drops the triple since session 31. Two more since
    # session 40: this build's few travel sights (前门箭楼, 北京圣泉山旅游风景区) ask 周边景点 among
    # the other sights' kept ones, and the travel rules no longer keep those the text does not
    # put beside their entity (百花山自然保护区 and others): too few distractors are left.
    assert built["heldout/round 2"]["items"] == 37 and built["heldout/round 2"]["not_asked"] == 3
    assert built["heldout/round 2"]["ambiguous_items"] == 0.0
    stats = {run: json.loads((tmp_path / run / "plants" / "out" / "stats.json").read_text(encoding="utf-8"))["items"]
             for run in ("a", "b")}
    # 属于, a plant's family and its genus, is one value of each rank: not open, asked rank by rank
    assert set(stats["b"]["open_relations"]) == {"功用价值", "地理分布", "形状", "生长习性", "颜色", "物候期", "病虫害"}
    assert stats["b"]["skipped"]["open_relation"] == sum(stats["b"]["open_relations"].values())
    assert stats["a"]["open_relations"] == {}
