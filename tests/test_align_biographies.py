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


def _level(title: str, summary: str, row: tuple[str, str]) -> str:
    raw, _ = validate_raw_entry({"title": title, "subtitle": None, "summary": summary, "links": [],
                                 "infobox": [{"name": row[0], "value": row[1]}]})
    return next(t["match"] for t in clean_entry(raw, CleaningConfig()).pair["triples"])


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


def test_a_name_or_a_kin_given_by_its_given_part_after_its_word():
    # Session 39, from round 26's tune half: the family name is said once, in the title.
    text = "字子瞻，眉州眉山人。父洵，弟辙，皆以文章著称，世称三苏。"
    kept, dropped = _clean("苏轼", text, [("父亲", "苏洵"), ("兄弟", "苏辙"), ("儿子", "苏瞻"), ("字", "子瞻")])
    assert kept[("父亲", "苏洵")] == "洵" and kept[("兄弟", "苏辙")] == "辙"
    assert _level("苏轼", text, ("兄弟", "苏辙")) == "given_name"
    assert ("儿子", "苏瞻") in dropped                       # the 子 of 字子瞻 is no son
    kept, _ = _clean("苏轼", "北宋文学家，其父洵弟辙皆以文名。", [("兄弟", "苏辙")])
    assert kept[("兄弟", "苏辙")] == "辙"                    # kin named one after the other
    kept, _ = _clean("文天祥", "初名云孙，字宋瑞，号文山，吉州庐陵人。", [("原名", "文云孙"), ("别名", "文宋瑞")])
    assert kept[("原名", "文云孙")] == "云孙" and kept[("别名", "文宋瑞")] == "宋瑞"
    kept, dropped = _clean("文天祥", "初名云孙，吉州庐陵人。", [("原名", "王云孙")])
    assert ("原名", "王云孙") in dropped                     # another family name is another person
    # a one-character kin word stands alone: 师兄, 弟子 are other people
    kept, dropped = _clean("王安", "北宋人。其师兄明与之同游，弟子明亦能文。",
                           [("兄弟", "王明"), ("儿子", "王明")])
    assert ("兄弟", "王明") in dropped and ("儿子", "王明") in dropped


def test_a_posthumous_name_is_the_one_after_谥():
    text = "北宋文学家、政治家，字希文，卒谥文正。"
    kept, dropped = _clean("范仲淹", text, [("谥号", "文正"), ("谥号", "文")])
    assert kept[("谥号", "文正")] == "文正"
    assert ("谥号", "文") in dropped                         # not the 文 of 文学家, nor the head of 文正
    for text in ("北宋政治家，死后谥号“文正”。", "北宋政治家，卒后谥号为文正。"):
        kept, _ = _clean("范仲淹", text, [("谥号", "文正")])
        assert kept[("谥号", "文正")] == "文正"


def test_one_of_a_group_is_said_by_the_group_it_is_counted_in():
    text = "北宋书法家，其书法被后人与苏轼、黄庭坚、米芾合称“宋四家”。"
    kept, _ = _clean("蔡襄", text, [("主要成就", "“宋四家”之一")])
    assert kept[("主要成就", "“宋四家”之一")] == "宋四家"
    kept, dropped = _clean("蔡襄", "北宋书法家，曾观宋四家书法展。", [("主要成就", "宋四家之一")])
    assert ("主要成就", "宋四家之一") in dropped            # named, but the entity is not counted in it
    kept, dropped = _clean("鼓浪屿", "厦门的一座小岛，曾申报列为世界文化遗产。", [("主要成就", "世界文化遗产之一")])
    assert ("主要成就", "世界文化遗产之一") in dropped      # applied for, not (yet) counted in
    kept, _ = _clean("鼓浪屿", "厦门的一座小岛，2017年成功申报列为世界文化遗产。", [("主要成就", "世界文化遗产之一")])
    assert kept[("主要成就", "世界文化遗产之一")] == "世界文化遗产"


def test_a_tune_alone_is_no_poem_named_by_its_first_line():
    # 辛弃疾 wrote many poems to 破阵子 and 西江月; the text names one of each
    text = "辛弃疾，号稼轩，南宋词人。主要作品有：破阵子（醉里挑灯看剑）西江月（明月别枝惊鹊）。"
    kept, dropped = _clean("辛弃疾", text, [("号", "稼轩"), ("代表作品", "《破阵子》"), ("主要作品", "《西江月》")])
    assert "one poem to the tune: 破阵子（醉里挑灯看剑）" in dropped[("代表作品", "《破阵子》")]
    assert "one poem to the tune" in dropped[("主要作品", "《西江月》")]
    # a work named by the tune alone is that work; a title that is no tune keeps its note
    kept, _ = _clean("辛弃疾", "辛弃疾，号稼轩，南宋词人，代表作有《破阵子》。", [("号", "稼轩"), ("代表作品", "《破阵子》")])
    assert kept[("代表作品", "《破阵子》")] == "《破阵子》"
    kept, _ = _clean("辛弃疾", "辛弃疾，号稼轩，南宋词人，有《稼轩长短句》（十二卷本）。",
                     [("号", "稼轩"), ("代表作品", "《稼轩长短句》")])
    assert kept[("代表作品", "《稼轩长短句》")] == "《稼轩长短句》"


def test_a_poet_or_a_ci_writer_is_said_by_writing_verse():
    text = "姜夔，字尧章，号白石道人，饶州鄱阳人。工诗词，精音律。词风清空，有《白石道人诗集》。"
    kept, _ = _clean("姜夔", text, [("字", "尧章"), ("职业", "诗人"), ("职业", "词人")])
    assert kept[("职业", "诗人")] == "工诗" and kept[("职业", "词人")] == "工诗词"
    kept, _ = _clean("刘克庄", "刘克庄，字潜夫，号后村，莆田人。存诗四千余首，词效稼轩。",
                     [("字", "潜夫"), ("职业", "诗人"), ("职业", "词人")])
    assert kept[("职业", "诗人")] == "存诗" and kept[("职业", "词人")] == "词效"
    # a collection's title alone, or a book of remarks on poems, says neither
    _, dropped = _clean("阮阅", "阮阅，字闳休，舒城人，编有《诗话总龟》，有《松菊集》。",
                        [("字", "闳休"), ("职业", "诗人")])
    assert ("职业", "诗人") in dropped


# Round 27 (a second draw of Song poets, session 40): rules from its tune half.

def test_a_brother_named_by_his_given_part_before_之弟_and_a_name_after_一作():
    kept, _ = _clean("苏辙", "苏辙，字子由，眉州眉山人，轼之弟。", [("字", "子由"), ("兄弟", "苏轼")])
    assert kept[("兄弟", "苏轼")] == "轼"
    kept, _ = _clean("赵明诚", "赵明诚，字德父，一作德甫，密州诸城人。", [("字", "德父"), ("别名", "赵德甫")])
    assert kept[("别名", "赵德甫")] == "德甫"
    # a given part inside another word before 之弟 names no kin (`师轼之弟`)
    _, dropped = _clean("苏辙", "苏辙，字子由，曾从师轼之弟学书。", [("字", "子由"), ("兄弟", "苏轼")])
    assert ("兄弟", "苏轼") in dropped


def test_a_prefects_office_said_the_classical_way():
    kept, _ = _clean("范仲淹", "范仲淹，字希文，北宋政治家。景祐元年出知苏州，治水有功。",
                     [("字", "希文"), ("官职", "苏州知州")])
    assert kept[("官职", "苏州知州")] == "知苏州"


def test_a_ci_writer_by_his_collection_not_by_an_anthology():
    kept, _ = _clean("张孝祥", "张孝祥，字安国，号于湖居士，有《于湖长短句》。", [("字", "安国"), ("职业", "词人")])
    assert kept[("职业", "词人")] == "《于湖长短句》"
    _, dropped = _clean("张孝祥", "张孝祥，字安国，号于湖居士，见《花庵词选》。", [("字", "安国"), ("职业", "词人")])
    assert ("职业", "词人") in dropped


def test_another_persons_occupation_forebears_place_and_an_anthology_are_not_the_poets():
    # 书画家 names 米芾, whose son-in-law the entity is
    _, dropped = _clean("吴激", "吴激，字彦高，书画家米芾之婿，工诗能文。", [("字", "彦高"), ("职业", "书画家")])
    assert "the occupation of another: 书画家米芾之婿" in dropped[("职业", "书画家")]
    # where the forebears came from is no birthplace
    _, dropped = _clean("种师道", "种师道，字彝叔，先世自洛阳徙居关中。", [("字", "彝叔"), ("出生地", "洛阳")])
    assert "the forebears' place" in dropped[("出生地", "洛阳")]
    # a book the poet's ci are found in is not his work
    _, dropped = _clean("王沂孙", "王沂孙，字圣与，号碧山，其词多见《乐府补题》。", [("字", "圣与"), ("主要作品", "《乐府补题》")])
    assert "where the works are found" in dropped[("主要作品", "《乐府补题》")]


# Round 28 (session 41): rules found on the tune half of the round.

def test_a_year_the_poet_was_alive_in_is_no_birth_or_death_date():
    text = "(约 1274 年前后在世) 字胜欲，号竹山，阳羡人。南宋词人。"
    kept, dropped = _clean("蒋捷", text, [("出生日期", "1274年"), ("逝世日期", "1274年"), ("号", "竹山")])
    assert kept[("号", "竹山")] == "竹山"
    assert "a year alive in" in dropped[("出生日期", "1274年")]
    assert "a year alive in" in dropped[("逝世日期", "1274年")]
    from transforms.other_roles import alive_in
    assert alive_in("1265年尚在世。", 5) and not alive_in("1998年在世界杯决赛中进球", 5)  # the cup's year


def test_a_lifespan_with_another_reading_of_the_birth_year():
    text = "(1154，一作 1155－1221) 字尧章，号白石道人，饶州鄱阳人。南宋词人。"
    kept, _ = _clean("姜夔", text, [("出生日期", "1154年"), ("逝世日期", "1221年"), ("号", "白石道人")])
    assert kept[("出生日期", "1154年")] == "1154" and kept[("逝世日期", "1221年")] == "1221"


def test_a_posthumous_name_given_with_先生():
    text = "(967－1028) 字君复，钱塘人。隐居西湖孤山，卒谥和靖先生。"
    kept, _ = _clean("林逋", text, [("谥号", "和靖"), ("字", "君复")])
    assert kept[("谥号", "和靖")] == "和靖"
    _, dropped = _clean("林逋", "(967－1028) 字君复，钱塘人。后人称和靖先生祠。", [("谥号", "和靖"), ("字", "君复")])
    assert ("谥号", "和靖") in dropped  # not after 谥


def test_a_ci_writer_by_his_ci_said_as_such():
    for text, said in (("字改之，号龙洲道人，吉州太和人。词近辛弃疾，多慷慨之作。", "词近"),
                       ("字改之，吉州太和人。其事见《宋史》，并词一首。", "词一首"),
                       ("字改之，吉州太和人。词见《龙洲集》。", "词见")):
        kept, _ = _clean("刘过", text, [("职业", "词人"), ("字", "改之")])
        assert kept[("职业", "词人")] == said
    _, dropped = _clean("刘过", "字改之，吉州太和人。歌词一首流传甚广。", [("职业", "词人"), ("字", "改之")])
    assert ("职业", "词人") in dropped  # a song's lyrics


def test_the_first_of_the_examination_is_the_top_graduate_of_its_year():
    text = "(1236－1283) 字宋瑞，号文山，吉州庐陵人。宝祐四年 (1256) 进士第一。"
    kept, _ = _clean("文天祥", text, [("主要成就", "宝祐四年状元"), ("号", "文山")])
    assert kept[("主要成就", "宝祐四年状元")] == "宝祐四年 (1256) 进士第一"
    _, dropped = _clean("文天祥", text.replace("进士第一", "进士"), [("主要成就", "宝祐四年状元"), ("号", "文山")])
    assert ("主要成就", "宝祐四年状元") in dropped  # a graduate, not the first
    _, dropped = _clean("文天祥", text, [("主要成就", "开庆元年状元"), ("号", "文山")])
    assert ("主要成就", "开庆元年状元") in dropped  # another year


def test_an_old_county_after_a_known_prefecture():
    kept, _ = _clean("元好问", "(1190－1257) 字裕之，号遗山，秀容 (今山西忻州) 人。金末文学家。",
                     [("出生地", "太原秀容（今山西忻州）"), ("号", "遗山")])
    assert kept[("出生地", "太原秀容（今山西忻州）")] == "秀容"


def test_a_place_in_the_note_of_todays_name_is_the_place_before_it():
    text = "(1140－1207) 字幼安，号稼轩，历城人。南归后徙居信州 (今江西上饶)。"
    kept, dropped = _clean("辛弃疾", text, [("出生地", "信州上饶（今江西上饶）"), ("出生地", "历城"), ("号", "稼轩")])
    assert kept[("出生地", "历城")] == "历城"
    assert "lived there: 徙居" in dropped[("出生地", "信州上饶（今江西上饶）")]


def test_a_value_written_with_variant_characters():
    kept, _ = _clean("晁补之", "(1053－1110) 字无咎，号归来子，济州钜野人。北宋文学家。",
                     [("出生地", "济州巨野"), ("号", "归来子")])
    assert kept[("出生地", "济州巨野")] == "济州钜野"
    kept, _ = _clean("黄机", "字几仲，号竹斋，东阳人。有《竹斋诗余》一卷传世。", [("主要作品", "《竹斋诗馀》"), ("号", "竹斋")])
    assert kept[("主要作品", "《竹斋诗馀》")] == "《竹斋诗余》"
    kept, _ = _clean("文天祥", "(1236－1283) 字履善，吉州庐陵人。宝佑四年考取进士第一名，后官至右丞相。",
                     [("主要成就", "宝祐四年状元"), ("字", "履善")])
    assert kept[("主要成就", "宝祐四年状元")] == "宝佑四年考取进士第一"
