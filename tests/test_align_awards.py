"""The award level (transforms/awards.py): an award stated part by part.
Every sentence is written for this test (real facts, our own words)."""
from __future__ import annotations

from transforms.awards import award_core, award_spans, parse_award
from transforms.pairs import validate_raw_entry
from transforms.redundancy import CleaningConfig, clean_entry

WUJIANDAO = "2003年，梁朝伟因主演《无间道》而拿下第40届金马奖最佳男主角和第22届香港电影金像奖最佳男主角。"
LIAN = ("李安以《断背山》拿下第78届奥斯卡金像奖最佳导演奖，"
        "后来又凭借《少年派的奇幻漂流》在第85届奥斯卡颁奖典礼上获得最佳导演奖。")


def _fates(title: str, summary: str, rows: list[tuple[str, str]], cfg=None) -> dict:
    raw, err = validate_raw_entry({"title": title, "summary": summary,
                                   "infobox": [{"name": n, "value": v} for n, v in rows]})
    assert err is None, err
    res = clean_entry(raw, cfg or CleaningConfig())
    out = {(t["relation"], t["tail"]): ("kept", t["match"], summary[t["start"]:t["end"]])
           for t in (res.pair or {}).get("triples", [])}
    out.update({(t["relation"], t["tail"]): ("dropped", detail) for t, _r, detail in res.dropped_triples})
    return out


def test_an_award_is_read_as_body_edition_count_and_category():
    a = parse_award("第23届 法国电影凯撒奖最佳导演奖")
    assert (a.parts, a.editions, a.category, a.nomination) == (("凯撒",), frozenset({23}), "最佳导演", False)
    assert parse_award("两届 柏林国际电影节金熊奖").parts == ("柏林", "金熊")
    assert parse_award("两届奥斯卡最佳导演奖").count == 2
    assert parse_award("第十二届奥斯卡金像奖最佳女主角提名").editions == frozenset({12})
    assert parse_award("第十二届奥斯卡金像奖最佳女主角提名").nomination
    assert award_core("台湾电影金马奖") == "金马" and award_core("戛纳国际电影节") == "戛纳"
    assert award_core("香港电影金像奖") == "金像"  # never emptier than two characters
    # Nothing but a body is left to the exact level.
    assert parse_award("金马奖") is None


def test_the_same_edition_and_category_in_other_words_state_the_award():
    fates = _fates("梁朝伟", WUJIANDAO, [("主要成就", "第40届台湾电影金马奖最佳男主角"),
                                         ("主要成就", "第22届 香港电影金像奖最佳男主角奖")])
    won = fates[("主要成就", "第40届台湾电影金马奖最佳男主角")]
    assert won[:2] == ("kept", "award") and won[2].startswith("第40届金马奖")
    assert fates[("主要成就", "第22届 香港电影金像奖最佳男主角奖")][:2] == ("kept", "award")


def test_another_edition_or_a_category_of_another_award_is_not_stated():
    fates = _fates("梁朝伟", WUJIANDAO, [("主要成就", "第41届台湾电影金马奖最佳男主角"),
                                         ("主要成就", "第40届台湾电影金马奖最佳导演"),
                                         ("主要成就", "第22届台湾电影金马奖最佳男主角")])
    assert all(f[0] == "dropped" for f in fates.values()), fates
    # The category after 第22届…金像奖 is the 金像奖's, not the 金马奖's.
    assert award_spans("第40届台湾电影金马奖最佳男主角", WUJIANDAO)
    assert not award_spans("第40届台湾电影金马奖最佳导演", WUJIANDAO)


def test_an_edition_in_the_value_must_be_in_the_text():
    text = "梁朝伟凭借《无间道》获得金马奖最佳男主角。"
    assert not award_spans("第40届台湾电影金马奖最佳男主角", text)
    assert award_spans("台湾电影金马奖最佳男主角", "梁朝伟凭借《无间道》获得第40届金马奖最佳男主角。")


def test_a_category_after_the_ceremony_and_a_count_of_mentions():
    # `在第85届奥斯卡颁奖典礼上获得最佳导演奖`: a ceremony stands between.
    assert award_spans("第85届奥斯卡最佳导演奖", LIAN)
    fates = _fates("李安", LIAN, [("主要成就", "两届奥斯卡最佳导演奖"), ("主要成就", "三届奥斯卡最佳导演奖")])
    assert fates[("主要成就", "两届奥斯卡最佳导演奖")][:2] == ("kept", "award")
    assert fates[("主要成就", "三届奥斯卡最佳导演奖")][0] == "dropped"


def test_a_nomination_is_neither_a_win_nor_one_of_the_wins():
    text = "这是她第三次拿到金曲奖最佳国语女歌手提名。"
    assert award_spans("三届台湾金曲奖最佳国语女歌手提名", text)
    assert not award_spans("四届台湾金曲奖最佳国语女歌手提名", text)
    fates = _fates("莫文蔚", text, [("主要成就", "台湾金曲奖最佳国语女歌手奖")])
    assert fates[("主要成就", "台湾金曲奖最佳国语女歌手奖")][0] == "dropped"
    # Two wins and a nomination are not three wins.
    wins = ("他因《暗战》拿下第19届香港电影金像奖最佳男主角。他因《五亿探长雷洛传》得到第11届香港电影金像奖"
            "最佳男主角提名。他因《桃姐》再次拿下第31届香港电影金像奖最佳男主角。")
    assert len(award_spans("两届香港电影金像奖最佳男主角", wins)) == 2
    assert not award_spans("三届香港电影金像奖最佳男主角", wins)


def test_a_role_word_inside_a_category_is_not_a_role_cue():
    # `最佳导演` names a prize; it must not bind the award before it to 导演.
    text = "这部影片拿下第73届奥斯卡金像奖最佳外语片、第20届香港电影金像奖最佳导演等多个奖项。"
    fates = _fates("卧虎藏龙", text, [("导演", "李安"), ("主要奖项", "奥斯卡金像奖最佳外语片")])
    assert fates[("主要奖项", "奥斯卡金像奖最佳外语片")][0] == "kept"


def test_the_award_level_can_be_switched_off():
    cfg = CleaningConfig()
    cfg.align.awards = False
    fates = _fates("梁朝伟", WUJIANDAO, [("主要成就", "第40届台湾电影金马奖最佳男主角")], cfg)
    assert fates[("主要成就", "第40届台湾电影金马奖最佳男主角")][0] == "dropped"
    assert "award" not in fates[("主要成就", "第40届台湾电影金马奖最佳男主角")][1].split("levels ")[1]


def test_two_parts_of_a_body_a_count_before_it_and_a_nickname():
    text = "张艺谋凭借《红高粱》获得第38届柏林电影节金熊奖，巩俐凭《秋菊打官司》成为威尼斯电影节影后。"
    assert award_spans("第38届柏林国际电影节金熊奖", text)
    assert not award_spans("第38届柏林国际电影节银熊奖", text)  # the second part must be there too
    assert award_spans("威尼斯国际电影节最佳女演员", text)  # 影后 is the best actress
    assert not award_spans("威尼斯国际电影节最佳男演员", text)
    assert award_spans("两届 柏林国际电影节金熊奖", "他曾获得两座柏林电影节金熊奖。")
    assert not award_spans("三届 柏林国际电影节金熊奖", "他曾获得两座柏林电影节金熊奖。")
    # `第38届` is an edition, never a count of wins.
    assert not award_spans("三届柏林国际电影节金熊奖", text)


def test_a_year_before_an_award_dates_it_and_an_edition_outranks_the_year():
    from transforms.cells import PairConfig, split_values
    assert split_values("2002年，奥斯卡最佳外语片提名", "主要成就", PairConfig()) == ["2002年奥斯卡最佳外语片提名"]
    assert split_values("2002年、2003年", "上映时间", PairConfig()) == ["2002年", "2003年"]
    assert split_values("1701、8", "代表作品", PairConfig()) == ["1701", "8"]  # a title, not a year
    text = "2001年，《印度往事》获得第74届奥斯卡最佳外语片的提名。"
    assert award_spans("2001年奥斯卡最佳外语片提名", text)
    # `同年` leaves the year to another sentence; the edition says which ceremony.
    assert award_spans("2001年第74届奥斯卡最佳外语片提名", "同年获得第74届奥斯卡最佳外语片提名。")


def test_an_award_is_told_apart_from_awards_only_and_a_work_is_what_won_it():
    fates = _fates("周星驰", "周星驰是香港金牌导演、著名喜剧演员，曾执导多部电影。",
                   [("主要成就", "香港金牌导演"), ("职业", "导演")])
    assert fates[("主要成就", "香港金牌导演")][0] == "kept"
    fates = _fates("裘德·洛", "2004年，裘德·洛凭借电影《冷山》获得了奥斯卡金像奖最佳男主角提名。",
                   [("代表作品", "《冷山》"), ("主要成就", "奥斯卡金像奖最佳男主角提名")])
    assert fates[("代表作品", "《冷山》")][0] == "kept"


def test_a_count_of_nominations_reads_digits_and_numerals_alike():
    text = "2008年，艾米·怀恩豪斯凭借专辑《Back to Black》获得第50届格莱美奖6项提名。"
    assert award_spans("第50届格莱美奖六项提名", text) == [(text.find("第50届"), text.find("6项") + 2)]
    assert award_spans("第50届格莱美奖5项提名", text) == []  # another count is another fact
    assert award_spans("第50届格莱美奖六项提名", text.replace("6项", "六项")) != []


def test_spaces_and_quotes_inside_an_award_are_skipped_and_the_span_is_the_original():
    from transforms.awards import _squeeze

    text = "梁朝伟凭借《无间道》获得 第40届 “金马奖” 最佳男主角。"
    assert [text[s:e] for s, e in award_spans("第40届金马奖最佳男主角", text)] == ["第40届 “金马奖” 最佳男主角"]
    # the squeezed text and the original index of each character kept
    assert _squeeze("  “金马” 奖 ") == ("金马奖", (3, 4, 7))
    assert _squeeze("金马奖") == ("金马奖", (0, 1, 2))


def test_a_nomination_word_before_the_edition_and_a_quoted_body():
    """`入围第48届“台湾金马奖”最佳…`: the nomination word stands before the
    edition and the quote that open the award's name, and still says the
    award was only a nomination."""
    text = "2011年，彭于晏入围第48届“台湾金马奖”最佳男主角奖。"
    fates = _fates("彭于晏", text, [("主要成就", "2011年金马奖最佳男主角奖")])
    assert fates[("主要成就", "2011年金马奖最佳男主角奖")][0] != "kept"


def test_a_win_told_after_a_nomination_in_the_same_sentence_is_a_win():
    """`入围第21届金曲奖最佳乐团奖，其中《主人》获得最佳单曲制作人奖`: the
    clause that says the win takes its category out of the nomination; the
    category nominated stays a nomination."""
    text = "2010年，范晓萱与乐队凭专辑《赤子》入围第21届台湾金曲奖最佳乐团奖，其中歌曲《主人》获得最佳单曲制作人奖。"
    fates = _fates("范晓萱", text, [("主要成就", "第21届台湾金曲奖最佳单曲制作人"),
                                    ("主要成就", "第21届台湾金曲奖最佳乐团")])
    assert fates[("主要成就", "第21届台湾金曲奖最佳单曲制作人")][0] == "kept"
    assert fates[("主要成就", "第21届台湾金曲奖最佳乐团")][0] != "kept"


def test_a_music_category_without_its_genre():
    """`最佳演唱专辑` for 最佳流行音乐演唱专辑, as `最佳女歌手` for 最佳国语女歌手."""
    text = "2000年，范晓萱在第11届台湾金曲奖获得最佳流行音乐演唱专辑奖。"
    fates = _fates("范晓萱", text, [("主要成就", "第11届台湾金曲奖最佳演唱专辑")])
    assert fates[("主要成就", "第11届台湾金曲奖最佳演唱专辑")][:2] == ("kept", "award")


def test_years_listed_before_a_win_count_the_wins():
    """`2002、2006年获得格莱美奖` is two wins (`2座格莱美奖`); one year is one."""
    text = "林肯公园2002、2006年获得格莱美奖。"
    assert _fates("林肯公园", text, [("主要成就", "2座格莱美奖")])[("主要成就", "2座格莱美奖")][0] == "kept"
    text = "林肯公园2002年获得格莱美奖。"
    assert _fates("林肯公园", text, [("主要成就", "2座格莱美奖")])[("主要成就", "2座格莱美奖")][0] != "kept"


def test_a_festival_s_award_named_by_its_prize_alone():
    """`金熊奖` names 柏林国际电影节金熊奖 (the prize of one festival); the
    value's year must still be in the sentence."""
    text = "《雨人》于1989年获第61届奥斯卡最佳影片等4个奖项，以及金球奖、金熊奖等多个大奖。"
    fates = _fates("雨人", text, [("主要奖项", "1989柏林国际电影节金熊奖")])
    assert fates[("主要奖项", "1989柏林国际电影节金熊奖")][:2] == ("kept", "award")
    fates = _fates("雨人", text, [("主要奖项", "1990柏林国际电影节金熊奖")])
    assert fates[("主要奖项", "1990柏林国际电影节金熊奖")][0] != "kept"


def test_a_quoted_category_ends_at_its_closing_quote():
    """`“年度最佳摇滚乐队” “年度最佳摇滚专辑”`: the quotes dropped from the
    squeezed text still end the category before the next one."""
    text = ("2012年第12届音乐风云榜颁奖典礼，GALA乐队凭借专辑《追梦赤子心》获得5项提名，"
            "并最终斩获“年度最佳摇滚乐队”“年度最佳摇滚专辑”两项大奖。")
    fates = _fates("GALA", text, [("主要成就", "第十二届音乐风云榜最佳摇滚乐队")])
    assert fates[("主要成就", "第十二届音乐风云榜最佳摇滚乐队")][:2] == ("kept", "award")


def test_a_feature_film_category_said_either_way():
    """`最佳动画长篇` and `最佳动画长片` are one category."""
    text = "2003年，《千与千寻》荣获第75届奥斯卡金像奖最佳动画长片奖。"
    fates = _fates("宫崎骏", text, [("主要成就", "第75届奥斯卡最佳动画长篇奖")])
    assert fates[("主要成就", "第75届奥斯卡最佳动画长篇奖")][:2] == ("kept", "award")
