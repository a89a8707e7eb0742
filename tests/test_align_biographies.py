"""Round 26 (docs/alignment.md, "Song poets"): a classical biography's style.
Each rule was found on the tune half of the round; every sentence here is
written for this test (real facts of Song poets, our own words), and each
test fails on the aligner before the rule."""
from __future__ import annotations

from transforms.pairs import validate_raw_entry
from transforms.redundancy import CleaningConfig, clean_entry


def _clean(title: str, summary: str, rows: list[tuple[str, str]]):
    raw, err = validate_raw_entry({"title": title, "subtitle": None, "summary": summary, "links": [],
                                   "infobox": [{"name": n, "value": v} for n, v in rows]})
    assert err is None, err
    res = clean_entry(raw, CleaningConfig())
    kept = {(t["relation"], t["tail"]): summary[t["start"]:t["end"]] for t in (res.pair or {}).get("triples", [])}
    dropped = {(t["relation"], t["tail"]): detail for t, _r, detail in res.dropped_triples}
    return kept, dropped


def test_a_biography_opening_with_a_lifespan_gives_its_subjects_years():
    kept, _ = _clean("陆游", "(1125－1210) 字务观，号放翁，越州山阴人，南宋诗人。",
                     [("出生日期", "1125年"), ("逝世日期", "1210年"), ("字", "务观")])
    assert kept[("出生日期", "1125年")] == "1125" and kept[("逝世日期", "1210年")] == "1210"


def test_an_unknown_or_estimated_year_states_only_what_it_says():
    kept, dropped = _clean("柳永", "(？－约 1053) 字耆卿，崇安人，北宋词人。",
                           [("出生日期", "984年"), ("逝世日期", "约1053年"), ("字", "耆卿")])
    assert kept[("逝世日期", "约1053年")] == "1053"          # an estimate states an estimate
    assert ("出生日期", "984年") in dropped                   # `？` states no year
    kept, dropped = _clean("柳永", "(？－约 1053) 字耆卿，崇安人，北宋词人。", [("逝世日期", "1053年"), ("字", "耆卿")])
    assert ("逝世日期", "1053年") in dropped                  # nor a known year
    kept, _ = _clean("陈克", "(1081－？) 字子高，天台人，南宋词人。", [("出生日期", "1081年"), ("字", "子高")])
    assert kept[("出生日期", "1081年")] == "1081"           # an unknown death leaves the birth


def test_the_lifespan_after_the_name_and_a_colon():
    kept, _ = _clean("王安石", "王安石：(1021～1086)，北宋政治家、文学家，字介甫。",
                     [("出生日期", "1021年"), ("逝世日期", "1086年")])
    assert kept[("出生日期", "1021年")] == "1021" and kept[("逝世日期", "1086年")] == "1086"


def test_a_courtesy_or_art_name_is_the_one_after_its_word():
    text = "字宗臣，号双溪居士，东阳人。晚年隐居具茨，有《燕喜词》。"
    kept, _ = _clean("曹冠", text, [("字", "宗臣"), ("号", "双溪居士")])
    assert kept[("字", "宗臣")] == "宗臣" and kept[("号", "双溪居士")] == "双溪居士"
    kept, dropped = _clean("曹冠", text, [("字", "宗臣"), ("号", "双溪"), ("号", "具茨")])
    assert "the head of a longer name" in dropped[("号", "双溪")]   # 双溪 of 双溪居士
    assert "not after 号" in dropped[("号", "具茨")]                 # a mountain, not a name


def test_every_name_of_a_list_after_its_word_is_one():
    kept, _ = _clean("米芾", "字元章，号鹿门居士、襄阳漫士、海岳外史。北宋书画家。",
                     [("号", "鹿门居士"), ("号", "襄阳漫士"), ("号", "海岳外史"), ("字", "元章")])
    assert {k for k in kept if k[0] == "号"} == {("号", "鹿门居士"), ("号", "襄阳漫士"), ("号", "海岳外史")}


def test_where_a_poet_lived_is_no_birthplace():
    text = "字元章，太原人，徙居襄阳，后定居润州。"
    kept, dropped = _clean("米芾", text, [("出生地", "襄阳"), ("出生地", "太原"), ("籍贯", "润州"), ("字", "元章")])
    assert kept[("出生地", "太原")] == "太原"
    assert "lived there: 徙居" in dropped[("出生地", "襄阳")]
    assert "lived there: 定居" in dropped[("籍贯", "润州")]
    _, dropped = _clean("陈克", "字子高，天台人；一云临海人。", [("出生地", "临海"), ("字", "子高")])
    assert "lived there: 一云" in dropped[("出生地", "临海")]  # another account


def test_a_birthplace_with_todays_name_in_brackets_is_its_county():
    kept, _ = _clean("洪迈", "字景卢，鄱阳 (今属江西) 人，南宋文学家。",
                     [("出生地", "饶州鄱阳（今江西鄱阳）"), ("字", "景卢")])
    assert kept[("出生地", "饶州鄱阳（今江西鄱阳）")] == "鄱阳"


def test_the_chinese_name_is_not_stated_by_another_name():
    kept, dropped = _clean("司马光", "字君实，号迂叟，世称涑水先生。北宋史学家。",
                           [("中文名", "司马光"), ("别名", "涑水先生"), ("字", "君实")])
    assert ("别名", "涑水先生") in kept
    assert ("中文名", "司马光") in dropped                        # rule 6: the name itself is not in the text
