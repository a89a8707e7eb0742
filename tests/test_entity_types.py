"""Entity typing (issue 8, point 5): the types feed the distractors, so a
person or a work typed `other` gives same-type distractors from the wrong
pool. The snippets below are written by us; the labelled set lives in
tests/data/entity_type_labels.jsonl (locators into ../shared/data)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from transforms.entity_type import entity_type, tail_type, type_pair

ROOT = Path(__file__).resolve().parents[1]
LABELS = ROOT / "tests" / "data" / "entity_type_labels.jsonl"


# ------------------------------------------- the three examples of the issue
def test_li_shimin_is_a_person_from_the_defining_clause():
    """No tag, no infobox: the summary says what he was (…皇帝)."""
    d = entity_type("李世民", text="李世民是唐朝第二位皇帝，626年即位，年号贞观，在位二十三年。")
    assert d.type == "person" and "head:皇帝" in d.reason


def test_li_shimin_is_a_person_from_a_reign_infobox():
    d = entity_type("李世民", relations=["庙号", "年号", "在位时间", "陵寝"])
    assert d.type == "person" and d.reason.startswith("relations:")


def test_frozen_is_a_work_from_the_defining_clause():
    d = entity_type("冰雪奇缘", text="《冰雪奇缘》是迪士尼2013年出品的一部三维动画电影，讲述一位公主寻找姐姐的故事。")
    assert d.type == "work"
    assert "head:动画电影" in d.reason and "text_title_marks" in d.reason


def test_frozen_is_a_work_from_its_subtitle():
    d = entity_type("冰雪奇缘（2013年美国迪士尼动画电影）")
    assert (d.type, d.reason) == ("work", "subtitle_head:动画电影")


def test_if_you_are_the_one_is_a_work_not_other():
    """非诚勿扰 is a dating show: a programme is a work (docs/entity_types.md)."""
    d = entity_type("非诚勿扰", text="非诚勿扰是江苏卫视2010年开播的一档婚恋交友类真人秀节目，由孟非主持。")
    assert d.type == "work" and "head:真人秀节目" in d.reason
    d = entity_type("非诚勿扰", relations=["主持人", "播出频道", "首播时间"])
    assert d.type == "work" and "relations:" in d.reason


# ------------------------------------------------------------- other signals
def test_a_subtitle_naming_the_containing_work_does_not_make_a_work():
    """"（动画《某某》中的人物）": the entry is a character in the work."""
    d = entity_type("某侠（动画《江湖夜雨》中的人物）")
    assert d.type == "person" and d.reason == "subtitle_head:人物"


def test_relation_name_variants_count():
    """KB dumps spell relations their own way: 出生地点 is 出生地."""
    d = entity_type("某甲", relations=["出生地点"])
    assert d.type == "person" and d.reason == "relations:出生地点"


def test_one_relation_outweighs_a_one_character_ending_but_not_a_word():
    assert entity_type("今日说法", relations=["开播时间"]).type == "work"  # …法 is not a law here
    d = entity_type("第九届城市运动会", relations=["开播时间"])
    assert d.type == "event" and "suffix:运动会" in d.reason


def test_a_product_is_typed_other_with_a_reason():
    d = entity_type("某牌X200手机", relations=["屏幕尺寸", "电池容量"], text="某牌X200是一款智能手机。")
    assert d.type == "other" and d.reason != "no_signal" and "head:手机" in d.reason


def test_a_plant_page_about_its_parts_is_a_species():
    d = entity_type("香樟", text="香樟树皮黄褐色，有不规则的纵裂，叶互生。")
    assert d.type == "species" and "text:树皮" in d.reason


def test_a_transliterated_name_is_a_person():
    assert entity_type("约翰·史密斯").type == "person"


def test_nothing_known_is_other_no_signal():
    assert entity_type("某物") == entity_type("某物", [], [], None, "")
    assert entity_type("某物").reason == "no_signal"


def test_tail_types_unchanged_for_the_distractor_pools():
    assert tail_type("张艺谋", "导演").type == "person"
    assert tail_type("1994年5月27日", "创办时间").type == "date"
    assert tail_type("某某研究所", "所属机构").type == "organisation"
    assert tail_type("200万平方米", "占地面积").type == "quantity"


def test_type_pair_keeps_the_columns():
    pair = {"entity": "冰雪奇缘", "text": "《冰雪奇缘》是一部动画电影。", "tags": [],
            "triples": [{"relation": "导演", "tail": "克里斯·巴克"}, {"relation": "上映时间", "tail": "2013年11月27日"}]}
    out = type_pair(pair)
    assert out["entity_type"] == "work"
    assert [t["tail_type"] for t in out["triples"]] == ["person", "date"]
    assert "entity_type" not in pair


# ------------------------------------------------------------ labelled set
def test_label_rows_are_checked(tmp_path):
    from transforms.entity_type_labels import LabelError, load_labels

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({"entity": "x", "type": "animal"}) + "\n", encoding="utf-8")
    with pytest.raises(LabelError, match="unknown entity type"):
        load_labels(bad, None)
    bad.write_text(json.dumps({"source": "kgclue/train.json", "locator": 1, "entity": "x", "type": "work"}) + "\n")
    with pytest.raises(LabelError, match="needs the data folder"):
        load_labels(bad, tmp_path / "nowhere")


def test_self_contained_rows_are_scored(tmp_path):
    from transforms.entity_type_labels import evaluate, load_labels

    f = tmp_path / "rows.jsonl"
    rows = [{"entity": "李世民", "text": "李世民是唐朝第二位皇帝。", "type": "person"},
            {"entity": "某物", "type": "work"}]
    f.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    report = evaluate(load_labels(f, None))
    assert report["accuracy"] == 0.5 and report["other_share"] == 0.5
    assert report["confusion"]["work"]["other"] == 1
    assert report["errors"][0]["reason"] == "no_signal"


def test_cli_reports_a_missing_file_clearly():
    proc = subprocess.run([sys.executable, "-m", "pipeline.cli", "types", "eval", "--labels", "/no/such.jsonl"],
                          capture_output=True, text=True, cwd=ROOT)
    assert proc.returncode == 2 and "cdtp: error: labels file /no/such.jsonl does not exist" in proc.stderr


@pytest.mark.shared
def test_held_out_accuracy(shared_data):
    """The held-out rows (set=held_out) were drawn and labelled after the rules
    were tuned and were never used to tune them (docs/entity_types.md).

    Target 0.95; measured 0.947 overall on first sight (144/152), 0.954 after
    session 39's rules (scored again, errors not read). Entities that come with a
    text (DuIE, KdConv, LandscapeKnowledge: what a build sees) reach it, 84/84;
    bare KB heads with one or two triples (KgCLUE, NLPCC) do not, so overall the
    measured level is the floor and the target is asserted where text exists."""
    from transforms.entity_type_labels import evaluate, format_report, load_labels, split_by_source

    items = load_labels(LABELS, shared_data)
    assert len(items) >= 300
    tune, held = split_by_source(items, ("held_out",))
    tune = [it for it in tune if it.get("set") != "held_out_v6"]
    assert len(held) >= 100 and {it["source"].split("/")[0] for it in held} >= {"duie", "kgclue", "kdconv"}
    report = evaluate(held)
    assert report["accuracy"] >= 0.94, format_report(report)
    with_text = [it for it in held if it.get("text")]
    assert len(with_text) >= 80
    assert evaluate(with_text)["accuracy"] >= 0.95, format_report(evaluate(with_text))
    assert evaluate(tune)["accuracy"] >= 0.95


@pytest.mark.shared
def test_held_out_v6_accuracy(shared_data):
    """Round six (set=held_out_v6, 151 unseen entities, 75 of them bare KB heads),
    labelled by hand before the typer ran on it and scored once: 0.894 (0.987 with
    a text, 0.800 without). Session 39's rules came from the tuning rows only;
    scored again, 0.901. The floors are those figures, not the target."""
    from transforms.entity_type_labels import evaluate, format_report, load_labels

    items = [it for it in load_labels(LABELS, shared_data) if it.get("set") == "held_out_v6"]
    assert len(items) >= 150
    report = evaluate(items)
    assert report["accuracy"] >= 0.894, format_report(report)
    with_text = [it for it in items if it.get("text")]
    assert evaluate(with_text)["accuracy"] >= 0.98


# ----------------------------------------------- tail types (distractor pools)
def test_tail_names_are_typed_by_their_ending():
    assert (tail_type("紫荆属", "属于").type, tail_type("紫荆属", "属于").reason) == ("species", "suffix:属")
    assert tail_type("北京日报", "刊登于").type == "work"
    assert tail_type("上海市", "所在城市").type == "place"
    # the whole value being an `other` word says it is not a taxon, and descriptions are not names
    assert tail_type("内科", "就诊科室").type == "other"
    assert tail_type("喜光植物，耐寒", "生长习性").type == "other"
    # a meaning or a use is a description whatever its ending: 杜鹃's 思乡 was offered among
    # towns (…乡) and 南洋楹's 室内建筑 among sights (…建筑)
    assert tail_type("思乡", "文化寓意").type == "other" and tail_type("室内建筑", "功用价值").type == "other"
    assert tail_type("白云乡").type == "place"  # the ending still names a place where no relation tells


def test_an_alias_tail_has_the_entity_type():
    """A 别名 or 号 of a person is a person's name: its distractors must be names of people."""
    pair = {"entity": "苏轼", "text": "苏轼是北宋文学家、书法家。", "tags": [],
            "triples": [{"relation": "号", "tail": "东坡居士"}, {"relation": "别 名", "tail": "苏东坡"},
                        {"relation": "代表作品", "tail": "《赤壁赋》"}]}
    out = type_pair(pair)
    assert out["entity_type"] == "person"
    assert [t["tail_type"] for t in out["triples"]] == ["person", "person", "work"]
    assert tail_type("东坡居士", "号").type == "other"  # without the pair, the value alone says nothing


def test_amounts_in_wan_and_yi_are_numbers():
    assert tail_type("8.905亿", "票房").type == "number"
