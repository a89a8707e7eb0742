"""Raw entry -> pair (transforms/pairs.py): validation of malformed records,
stable ids, the multi-value split rule and the pair shape."""
from __future__ import annotations

import pyarrow as pa
import pytest

from schemas.outputs import PAIR_SCHEMA
from transforms.cells import PairConfig, split_values
from transforms.pairs import (
    entry_key,
    entry_to_pair,
    make_pair_id,
    make_triple_id,
    triple_aliases,
    triple_ids,
    validate_raw_entry,
)


def raw_entry(**over):
    base = {
        "url": "https://baike.baidu.com/item/无间道/5553",
        "source": "baidu",
        "lemma_id": "5553",
        "title": "无间道",
        "subtitle": "2002年上映的香港警匪片",
        "summary": "《无间道》是刘伟强与麦兆辉执导的警匪片，刘德华、梁朝伟主演。",
        "infobox": [
            {"name": "导演", "value": "刘伟强、麦兆辉", "value_links": []},
            {"name": "主演", "value": "刘德华，梁朝伟", "value_links": []},
        ],
        "links": [],
        "tags": ["电影"],
        "depth": 1,
        "seed": "无间道",
        "fetched_at": "2026-11-01T00:00:00Z",
    }
    base.update(over)
    return base


# ----------------------------------------------------------------- validation

def test_valid_entry_is_normalised_with_defaults():
    raw, err = validate_raw_entry({"title": " 无间道 ", "infobox": [{"name": "片长", "value": 101}]})
    assert err is None
    assert raw["title"] == "无间道"
    assert raw["summary"] == "" and raw["tags"] == [] and raw["links"] == [] and raw["depth"] == 0
    assert raw["infobox"] == [{"name": "片长", "value": "101", "value_links": []}]  # number -> string
    assert raw["lemma_id"] is None and raw["source"] == "baidu"


@pytest.mark.parametrize(
    "obj,needle",
    [
        (["not", "an", "object"], "expected a JSON object"),
        ({"summary": "无标题"}, "title: missing"),
        ({"title": "   "}, "title: missing"),
        ({"title": 42}, "title: expected string, got int"),
        ({"title": "x", "summary": ["a"]}, "summary: expected string"),
        ({"title": "x", "infobox": "导演：刘伟强"}, "infobox: expected list"),
        ({"title": "x", "infobox": [{"value": "刘伟强"}]}, "infobox[0].name"),
        ({"title": "x", "infobox": [{"name": "导演", "value": {"a": 1}}]}, "infobox[0].value: expected string"),
        ({"title": "x", "infobox": [{"name": "导演", "value": "a", "value_links": "u"}]}, "value_links: expected list"),
        ({"title": "x", "tags": "电影"}, "tags: expected a list of strings"),
        ({"title": "x", "depth": "1"}, "depth: expected integer"),
        ({"title": "x", "links": [{"title": 3, "url": "u"}]}, "links[0]: title/url must be strings"),
    ],
)
def test_malformed_entries_give_a_detail(obj, needle):
    raw, err = validate_raw_entry(obj)
    assert raw is None
    assert needle in err


# ------------------------------------------------------------------------ ids

def test_ids_are_stable_and_distinct():
    assert entry_key(raw_entry()) == "baidu:lemma:5553"
    assert entry_key(raw_entry(lemma_id=None, title="Ｘ电影 ")) == "baidu:title:x电影|2002年上映的香港警匪片"
    pid = make_pair_id("baidu:lemma:5553")
    assert pid == make_pair_id("baidu:lemma:5553") and len(pid) == 16 and int(pid, 16) >= 0
    assert pid != make_pair_id("sogou:lemma:5553")
    assert make_triple_id(pid, "主演", "刘德华", 0) != make_triple_id(pid, "主演", "刘德华", 1)
    ids = triple_ids(pid, [{"relation": "主演", "tail": "刘德华"}, {"relation": "主演", "tail": "刘德华"}])
    assert ids == [make_triple_id(pid, "主演", "刘德华", 0), make_triple_id(pid, "主演", "刘德华", 1)]


# ---------------------------------------------------------------------- split

@pytest.mark.parametrize(
    "value,relation,expected",
    [
        ("刘德华、梁朝伟、黄秋生等", "主演", ["刘德华", "梁朝伟", "黄秋生"]),
        ("歌手；演员\n主持人", "职业", ["歌手", "演员", "主持人"]),
        ("《雨人》《碟中谍》 《木兰花》", "代表作品", ["《雨人》", "《碟中谍》", "《木兰花》"]),
        ("《我们、他们》、你们", "代表作品", ["《我们、他们》", "你们"]),  # no split inside titles
        ("3,000、2019/5/1", "数字", ["3,000", "2019/5/1"]),  # digits keep ',' and '/'
        ("演员/歌手", "职业", ["演员", "歌手"]),
        ("31-1718/N", "国内刊号", ["31-1718/N"]),  # a code, not a list
        ("北京市海淀区颐和园路5号、北大", "地址", ["北京市海淀区颐和园路5号、北大"]),  # no-split relation
        ("周杰伦[1]", "歌手", ["周杰伦"]),  # citation marker
        # An award, then its category after a comma, is one award; a category after an
        # award that has one is another award; two awards stay two.
        ("第21届金马奖，最佳原创电影歌曲", "主要成就", ["第21届金马奖，最佳原创电影歌曲"]),
        ("金马奖最佳导演、最佳剧情片", "获得奖项", ["金马奖最佳导演", "最佳剧情片"]),
        ("金马奖，金像奖", "获得奖项", ["金马奖", "金像奖"]),
        ("动作片，最佳拍档", "类型", ["动作片", "最佳拍档"]),  # not an award relation
        ("", "歌手", [""]),
    ],
)
def test_split_rule(value, relation, expected):
    assert split_values(value, relation, PairConfig()) == expected


def test_split_is_configurable():
    cfg = PairConfig(separators=("|",), max_values=2)
    assert split_values("A、B", "x", cfg) == ["A、B"]
    assert split_values("A|B", "x", cfg) == ["A", "B"]
    assert split_values("A|B|C", "x", cfg) == ["A|B|C"]  # more than max_values: prose, kept whole


def test_value_links_become_aliases_of_their_piece():
    item = {"name": "主演", "value": "华仔、梁朝伟",
            "value_links": [{"title": "华仔", "url": "https://baike.baidu.com/item/%E5%88%98%E5%BE%B7%E5%8D%8E/114923"}]}
    assert triple_aliases(item, "华仔", 2) == ("刘德华",)
    assert triple_aliases(item, "梁朝伟", 2) == ()


# ----------------------------------------------------------------------- pair

def test_pair_shape_matches_schema():
    pair = entry_to_pair(raw_entry())
    assert pair["entity"] == "无间道" and pair["subtitle"] == "2002年上映的香港警匪片"
    assert pair["text"].startswith("《无间道》")
    assert [(t["head"], t["relation"], t["tail"]) for t in pair["triples"]] == [
        ("无间道", "导演", "刘伟强"), ("无间道", "导演", "麦兆辉"),
        ("无间道", "主演", "刘德华"), ("无间道", "主演", "梁朝伟")]
    assert all(t["start"] is None and t["end"] is None and t["match"] is None for t in pair["triples"])
    assert pair["num_triples"] == 4 and pair["text_length"] == len(pair["text"])
    # Layout whitespace inside a Chinese infobox name is dropped.
    spaced = entry_to_pair(raw_entry(infobox=[{"name": "简\xa0\xa0称", "value": "无间", "value_links": []}]))
    assert spaced["triples"][0]["relation"] == "简称"
    assert pair["source_url"].startswith("https://") and pair["tags"] == ["电影"]
    assert pair["domain"] is None and pair["split"] is None
    # The explicit schema accepts it as is.
    table = pa.Table.from_pylist([pair], schema=PAIR_SCHEMA)
    assert table.num_rows == 1


def test_lone_surrogates_are_invalid_input():
    import json

    obj = json.loads('{"title": "x", "summary": "bad \\ud800 text"}')
    raw, err = validate_raw_entry(obj)
    assert raw is None and err == "summary: not valid Unicode (lone surrogate)"
    obj = json.loads('{"title": "x", "infobox": [{"name": "n", "value": "\\udc00"}]}')
    assert validate_raw_entry(obj)[1] == "infobox[0]: not valid Unicode (lone surrogate)"


def test_anchor_texts_of_page_links_are_aliases():
    """The summary links 华仔 to the page the infobox links as 刘德华."""
    from transforms.redundancy import clean_entry

    url = "https://baike.baidu.com/item/%E5%88%98%E5%BE%B7%E5%8D%8E/114923"
    entry = raw_entry(
        summary="《无间道》由华仔与梁朝伟主演。",
        infobox=[{"name": "主演", "value": "刘德华", "value_links": [{"title": "刘德华", "url": url}]}],
        links=[{"title": "华仔", "url": url + "?fromModule=lemma_inlink"}],
    )
    raw, err = validate_raw_entry(entry)
    assert err is None
    [t] = clean_entry(raw).pair["triples"]
    assert (t["tail"], t["match"], raw["summary"][t["start"]:t["end"]]) == ("刘德华", "alias", "华仔")


def test_an_occupation_cell_lists_its_words_with_spaces_too():
    cfg = PairConfig()
    assert split_values("演员 模特", "职业", cfg) == ["演员", "模特"]
    # Elsewhere a space joins the parts of one value.
    assert split_values("美国 伊利诺斯州", "出生地", cfg) == ["美国 伊利诺斯州"]
    assert split_values("剧情 历史", "类型", cfg) == ["剧情 历史"]


def test_a_cell_split_never_cuts_a_title_the_text_gives_whole():
    cfg = PairConfig()
    text = "李秉宪在《光海，成为王的男人》里一人分饰两角，影片在韩国的观影人次超过一千万。"
    assert split_values("光海，成为王的男人", "代表作品", cfg, text) == ["光海，成为王的男人"]
    assert split_values("光海，成为王的男人", "代表作品", cfg) == ["光海", "成为王的男人"]
    assert split_values("A、B、C", "代表作品", cfg, "《A、B》") == ["A、B", "C"]


def test_spaces_list_organisations_and_works_but_not_one_name():
    cfg = PairConfig()
    assert split_values("中国唱片总公司 滚石唱片", "唱片公司", cfg) == ["中国唱片总公司", "滚石唱片"]
    assert split_values("美国 伊利诺斯州", "出生地", cfg) == ["美国 伊利诺斯州"]
    assert split_values("情书 HERO 告白", "代表作品", cfg) == ["情书", "HERO", "告白"]
    assert split_values("Chasing Pavements", "代表作品", cfg) == ["Chasing Pavements"]
    assert split_values("完整无缺 Intacto", "代表作品", cfg) == ["完整无缺 Intacto"]
    assert split_values("荒蛮故事、完整无缺 Intacto", "代表作品", cfg) == ["荒蛮故事", "完整无缺 Intacto"]
