"""The labelled set's pages regrouped from sentence corpora
(transforms/corpora.py, `_subject_pages`): a subject named on two lines or
more is a page whose text is the first half of its lines and whose cells
are its spo on all of them, so the text leaves some cells unstated. The
lines below are our own sentences, in the corpora's SKE format."""
from __future__ import annotations

import json

from transforms.corpora import duie_pages_to_raw_entries, landscape_to_raw_entries, song_poet_to_raw_entries


def _spo(subject, predicate, obj):
    return {"subject": subject, "predicate": predicate, "object": obj}


def _write(tmp_path, lines):
    path = tmp_path / "lines.jsonl"
    path.write_text("".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines), encoding="utf-8")
    return path


def test_a_duie_page_is_the_first_half_of_its_lines_and_all_their_cells(tmp_path):
    path = _write(tmp_path, [
        {"text": "《红高粱》是张艺谋执导的电影", "spo_list": [_spo("红高粱", "导演", {"@value": "张艺谋"})]},
        {"text": "《红高粱》由巩俐主演，1988年上映。", "spo_list": [
            _spo("红高粱", "主演", {"@value": "巩俐"}),
            _spo("红高粱", "上映时间", {"@value": "1988年", "inArea": "中国"}),  # a qualifier is no cell
            _spo("红高粱", "导演", {"@value": "张艺谋"})]},                      # said twice: one cell
        {"text": "张艺谋执导了《活着》。", "spo_list": [_spo("活着", "导演", {"@value": "张艺谋"})]},  # one line: no page
    ])
    pages = duie_pages_to_raw_entries(path)
    assert [p["url"] for p in pages] == ["duie://红高粱"]
    page = pages[0]
    assert page["source"] == "duie" and page["title"] == "红高粱"
    assert page["summary"] == "《红高粱》是张艺谋执导的电影。"  # a full stop where the line had none
    assert [(c["name"], c["value"]) for c in page["infobox"]] == [
        ("导演", "张艺谋"), ("主演", "巩俐"), ("上映时间", "1988年")]


def test_a_plant_page_is_built_the_same_way(tmp_path):
    path = _write(tmp_path, [
        {"text": "银杏为落叶乔木。", "spo_list": [_spo("银杏", "植物分类", "乔木")]},
        {"text": "银杏耐寒。", "spo_list": [_spo("银杏", "生长习性", "耐寒")]},
        {"text": "银杏的种子可入药。", "spo_list": [_spo("银杏", "功用价值", "入药")]},
    ])
    (page,) = landscape_to_raw_entries(path)
    assert page["url"] == "plant://银杏" and page["tags"] == ["植物"]
    assert page["summary"] == "银杏为落叶乔木。银杏耐寒。"  # the first half of three lines: two
    assert len(page["infobox"]) == 3


def test_a_duie_line_page_is_a_subject_named_on_one_line_only(tmp_path):
    path = _write(tmp_path, [
        {"text": "《红高粱》是张艺谋执导的电影", "spo_list": [_spo("红高粱", "导演", {"@value": "张艺谋"})]},
        {"text": "《红高粱》由巩俐主演。", "spo_list": [_spo("红高粱", "主演", {"@value": "巩俐"})]},
        {"text": "《活着》的导演是张艺谋，主角由葛优、巩俐出演", "spo_list": [
            _spo("活着", "导演", {"@value": "张艺谋"}), _spo("活着", "主演", {"@value": "葛优"}),
            _spo("活着", "主演", {"@value": "巩俐"})]},
    ])
    from transforms.corpora import duie_line_pages_to_raw_entries

    (page,) = duie_line_pages_to_raw_entries(path)  # 红高粱 is on two lines: a `duie` page, not this
    assert page["url"] == "duie-line://活着" and page["source"] == "duie-line"
    assert page["summary"] == "《活着》的导演是张艺谋，主角由葛优、巩俐出演。"
    assert [(c["name"], c["value"]) for c in page["infobox"]] == [("导演", "张艺谋"), ("主演", "葛优"), ("主演", "巩俐")]
    assert [p["url"] for p in duie_pages_to_raw_entries(path)] == ["duie://红高粱"]


def test_a_poet_page_is_the_biography_and_the_projects_own_infobox(tmp_path):
    authors = tmp_path / "author.song.json"
    authors.write_text(json.dumps([
        {"name": "陆游", "description": "--(1125-1210) 字务观，号放翁，越州山阴人。南宋诗人。"},
        {"name": "晏殊", "description": "北宋词人，抚州临川人。"},              # no infobox row: no page
        {"name": "王观", "description": "北宋词人。"},                          # a name two poets share:
        {"name": "王观", "description": "另一位同名词人。"},                    # neither is a page
        {"name": "辛弃疾", "description": "  "},                               # no biography: no page
    ], ensure_ascii=False), encoding="utf-8")
    boxes = _write(tmp_path, [
        {"name": "陆游", "cells": [["字", "务观"], ["号", "放翁"], ["出生日期", "1125年"]]},
        {"name": "王观", "cells": [["字", "通叟"]]},
        {"name": "辛弃疾", "cells": [["字", "幼安"]]},
    ])
    pages = song_poet_to_raw_entries(authors, boxes)
    assert [p["url"] for p in pages] == ["poet://song/陆游"]
    page = pages[0]
    assert page["source"] == "poet" and page["title"] == "陆游"
    assert page["summary"] == "(1125-1210) 字务观，号放翁，越州山阴人。南宋诗人。"  # the leading `--` dropped
    assert [(c["name"], c["value"]) for c in page["infobox"]] == [("字", "务观"), ("号", "放翁"), ("出生日期", "1125年")]
