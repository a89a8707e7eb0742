"""Issue 10, session 19: credits, founders, spouses and places that DuIE's
sentences state and the aligner used to drop, and the rejections that must
hold beside them. Every sentence here is written for this test (real facts,
our own words)."""
from __future__ import annotations

from tests.test_align_roles import _dropped, _entry, _kept
from transforms.text import clause_span


def test_a_director_named_between_an_actor_and_the_cue_binds_the_cue_not_the_actor():
    """`周冬雨被张艺谋导演选中`: 导演 names 张艺谋. Only a nationality's noun binds
    across a few modifiers (`美国单口相声演员`); an actor four characters
    before 导演 is not a director."""
    text = "2009年周冬雨被张艺谋导演选中出演《山楂树之恋》中的静秋。"
    rows = [("导演", "张艺谋"), ("主演", "周冬雨")]
    assert {("导演", "张艺谋"), ("主演", "周冬雨")} <= set(_kept(_entry("山楂树之恋", text, rows)))
    # A nationality still binds the noun after its modifiers.
    t = _kept(_entry("理查德·林克莱特", "林克莱特是美国电影导演。", [("国籍", "美国")]))[("国籍", "美国")]
    assert t["cue"] == "导演"


def test_a_title_or_a_pronoun_between_a_name_and_its_credit():
    """`李沧东作家编剧`, `张艺谋他导演的`: the credit after the title is the
    name's, so the name is no director (nor actor) of the work."""
    text = "《薄荷糖》由李沧东作家编剧，薛景求、文素利等主演。"
    raw = _entry("薄荷糖", text, [("编剧", "李沧东"), ("导演", "李沧东"), ("主演", "薛景求")])
    assert _kept(raw)[("编剧", "李沧东")]["cue"] == "编剧"
    assert "编剧" in _dropped(raw)[("导演", "李沧东")]
    raw = _entry("英雄", "张艺谋他导演的《英雄》由李连杰主演。", [("主演", "张艺谋"), ("导演", "张艺谋")])
    assert "导演" in _dropped(raw)[("主演", "张艺谋")] and ("导演", "张艺谋") in _kept(raw)


def test_a_character_someone_plays_is_not_said_to_be_the_lead():
    text = "《士兵突击》中，王宝强饰演了执着的新兵许三多。"
    assert "a part played" in _dropped(_entry("士兵突击", text, [("主角", "许三多")]))[("主角", "许三多")]
    text = "《士兵突击》中，王宝强饰演男主角许三多。"
    assert _kept(_entry("士兵突击", text, [("主角", "许三多")]))[("主角", "许三多")]["cue"] == "主角"


def test_words_and_music_are_both_credits_of_ci_qu():
    """`词曲` is a song's words and its music: `光良词曲创作并演唱` credits
    光良 with both, and the singing joins them."""
    text = "《童话》是光良词曲创作并演唱的一首情歌，2005年随同名专辑发行。"
    rows = [("作词", "光良"), ("作曲", "光良"), ("歌手", "光良")]
    kept = _kept(_entry("童话", text, rows))
    assert {r: t["cue"] for (r, _), t in kept.items()} == {"作词": "词曲", "作曲": "词曲", "歌手": "演唱"}
    text = "《恋曲1990》 词曲：罗大佑 演唱：罗大佑"
    kept = _kept(_entry("恋曲1990", text, [("作词", "罗大佑"), ("作曲", "罗大佑")]))
    assert {r for r, _ in kept} == {"作词", "作曲"}


def test_credits_listed_before_one_colon_all_bind_the_name_after_it():
    text = "《稻香》 作词/作曲：周杰伦 编曲：黄雨勋 演唱：周杰伦"
    rows = [("作词", "周杰伦"), ("作曲", "周杰伦"), ("编曲", "黄雨勋"), ("编曲", "周杰伦")]
    raw = _entry("稻香", text, rows)
    kept = _kept(raw)
    assert {("作词", "周杰伦"), ("作曲", "周杰伦"), ("编曲", "黄雨勋")} <= set(kept)
    assert "作曲/作词" in _dropped(raw)[("编曲", "周杰伦")]
    # A credit and the one after it are separate: `作词：A 作曲：B` gives A no music.
    raw = _entry("红豆", "作词：林夕 作曲：柳重言", [("作曲", "林夕")])
    assert "作词" in _dropped(raw)[("作曲", "林夕")]


def test_a_person_who_sets_up_a_company_is_its_founder():
    text = "1999年马云成立阿里巴巴集团，总部设在杭州。"
    rows = [("创始人", "马云"), ("成立日期", "1999年")]
    assert _kept(_entry("阿里巴巴集团", text, rows))[("创始人", "马云")]["cue"] == "成立"


def test_a_spouse_listed_before_a_nationality_and_its_noun():
    """`邓超与中国女演员孙俪结婚`: 演员 is the noun 中国 qualifies; it says
    nothing of 邓超, whom 结婚 binds. A country is still no spouse."""
    text = "2011年，邓超与中国女演员孙俪结婚。"
    raw = _entry("孙俪", text, [("丈夫", "邓超"), ("丈夫", "中国"), ("国籍", "中国")])
    kept = _kept(raw)
    assert kept[("丈夫", "邓超")]["cue"] == "结婚" and ("国籍", "中国") in kept
    assert ("丈夫", "中国") in _dropped(raw)


def test_a_city_of_one_unit_is_named_with_its_admin_suffix():
    text = "颐和园坐落在北京市海淀区，是清代的皇家园林。"
    t = _kept(_entry("颐和园", text, [("所在城市", "北京")]))[("所在城市", "北京")]
    assert (text[t["start"]:t["end"]], t["match"]) == ("北京市", "place")
    # Inside another name the city is still not named.
    raw = _entry("北京大学", "北京大学是一所综合性大学。", [("所在城市", "北京")])
    assert ("所在城市", "北京") in _dropped(raw)


def test_a_thousands_comma_ends_no_clause():
    text = "泰山南北长约60公里，海拔高度1,545米。"
    assert clause_span(text, text.find("海拔")) == (text.find("海拔"), len(text) - 1)
    t = _kept(_entry("泰山", text, [("海拔", "1,545米")]))[("海拔", "1,545米")]
    assert (text[t["start"]:t["end"]], t["cue"]) == ("1,545米", "海拔")
    assert clause_span("一,二", 0) == (0, 1)


def test_an_album_singer_who_also_produced_it_keeps_both_roles():
    """A person may sing an album and produce it: both relations take people,
    so the shared value asks neither for a cue of its own (one list of person
    relations, role_cues.PERSON_RELATIONS, serves every check)."""
    text = "《依然范特西》是周杰伦于2006年推出的专辑，制作人也是周杰伦。"
    kept = _kept(_entry("依然范特西", text, [("专辑歌手", "周杰伦"), ("制作人", "周杰伦")]))
    assert {("专辑歌手", "周杰伦"), ("制作人", "周杰伦")} <= set(kept)


def test_a_role_in_brackets_after_a_name_binds_that_name():
    """`汤尼（作曲）、孙仪（作词）`: each bracket says the role of the name
    before it; the cue of the name before does not reach past it."""
    text = "《月亮代表我的心》由汤尼（作曲）、孙仪（作词）写成，后经邓丽君演唱而流行。"
    raw = _entry("月亮代表我的心", text, [("作曲", "汤尼"), ("作词", "孙仪"), ("作曲", "孙仪"), ("作词", "汤尼")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == {("作曲", "汤尼"), ("作词", "孙仪")}
    assert kept[("作词", "孙仪")]["cue"] == "作词"
    assert "(作词)" in dropped[("作曲", "孙仪")] and "(作曲)" in dropped[("作词", "汤尼")]


def test_the_singer_whose_album_holds_the_song_is_not_the_album():
    """`收录于刘若英2000年发行的专辑《我等你》`: 刘若英 owns the album, 我等你
    is it. Without 的 (`收录在我等你专辑中`) the name before 专辑 is the album."""
    text = "《后来》由刘若英演唱，后收录于刘若英2000年发行的专辑《我等你》。"
    raw = _entry("后来", text, [("歌手", "刘若英"), ("所属专辑", "我等你"), ("所属专辑", "刘若英")])
    assert ("所属专辑", "我等你") in _kept(raw)
    assert "the singer whose album holds it" in _dropped(raw)[("所属专辑", "刘若英")]
    plain = _entry("后来", "《后来》是刘若英演唱的歌曲，收录在我等你专辑中。", [("所属专辑", "我等你")])
    assert ("所属专辑", "我等你") in _kept(plain)


def test_a_date_in_a_person_s_cell_does_not_make_the_role_a_dated_one():
    """A wrong cell (`主演 1993年1月1日`) is of another kind; it must not turn
    主演 into a relation whose cue binds dates, or `张国荣…主演` would stop
    telling the lead from the director."""
    text = "《霸王别姬》由陈凯歌执导，张国荣、张丰毅、巩俐主演，1993年1月1日在香港首映。"
    rows = [("导演", "陈凯歌"), ("主演", "张国荣"), ("上映时间", "1993年1月1日")]
    wrong = [("导演", "张国荣"), ("主演", "1993年1月1日")]
    raw = _entry("霸王别姬", text, rows + wrong)
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == set(rows)
    assert "主演" in dropped[("导演", "张国荣")]


def test_names_joined_by_an_ampersand_or_a_slash_share_the_credit_before_them():
    """`作词：徐世珍&吴辉福 作曲：JerryC`, `导演: A / B`: the list goes on past
    `&` and `/`, so the credit before the colon binds every name of it."""
    text = "电影《我的少女时代》主题曲《小幸运》 演唱：田馥甄 作词：徐世珍&吴辉福 作曲：JerryC"
    rows = [("歌手", "田馥甄"), ("作词", "徐世珍"), ("作词", "吴辉福"), ("作曲", "JerryC")]
    raw = _entry("小幸运", text, rows + [("作曲", "吴辉福")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == set(rows) and kept[("作词", "吴辉福")]["cue"] == "作词"
    assert "(作词)" in dropped[("作曲", "吴辉福")]


def test_an_ideographic_space_ends_a_credit():
    """Scraped credit lines are set apart by ideographic spaces
    (`作词：贝林(黄嘉谟)　作曲：晏如(刘雪庵)`): a credit on one side says
    nothing of the names on the other."""
    text = "《何日君再来》（1937年电影《三星伴月》插曲）　作词：贝林(黄嘉谟)　作曲：晏如(刘雪庵)　演唱：周璇"
    rows = [("作词", "黄嘉谟"), ("作曲", "刘雪庵"), ("歌手", "周璇")]
    raw = _entry("何日君再来", text, rows + [("作词", "刘雪庵"), ("作曲", "黄嘉谟")])
    assert set(_kept(raw)) == set(rows)
    dropped = _dropped(raw)
    assert "no cue of 作词" in dropped[("作词", "刘雪庵")] and "no cue of 作曲" in dropped[("作曲", "黄嘉谟")]


def test_the_one_character_keys_of_a_credit_line_bind_the_name_after_them():
    """`词：施人诚 曲：玉城千春 唱：刘若英`: a song's credit line keys its names
    by one character. Each key binds the name after its colon, so a name
    the entry gives the other credit is in another role; a key glued to the
    title before it (`后来词：`) is still a key."""
    text = "《后来》 词：施人诚 曲：玉城千春 唱：刘若英"
    rows = [("作词", "施人诚"), ("作曲", "玉城千春"), ("歌手", "刘若英")]
    raw = _entry("后来", text, rows + [("作曲", "施人诚"), ("作词", "刘若英")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == set(rows)
    assert kept[("作词", "施人诚")]["cue"] == "词" and kept[("歌手", "刘若英")]["cue"] == "唱"
    assert "(词)" in dropped[("作曲", "施人诚")] and "(唱)" in dropped[("作词", "刘若英")]
    glued = _entry("后来", "后来词：施人诚曲：玉城千春", [("作词", "施人诚"), ("作曲", "施人诚")])
    assert set(_kept(glued)) == {("作词", "施人诚")}


def test_credit_keys_after_a_slash_and_of_a_relation_the_entry_lacks():
    """`【词/林夕、曲/柳重言、唱/王菲】`: the slash keys a name as the colon
    does. The entry need not have the key's relation: the name after `唱/`
    is the singer, so no lyricist is read there."""
    text = "《红豆》【词/林夕、曲/柳重言、唱/王菲】收录于专辑《唱游》。"
    raw = _entry("红豆", text, [("作词", "林夕"), ("作曲", "柳重言"), ("作词", "王菲"), ("作曲", "林夕")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == {("作词", "林夕"), ("作曲", "柳重言")}
    assert "(唱)" in dropped[("作词", "王菲")] and "(词)" in dropped[("作曲", "林夕")]


def test_a_credit_key_is_never_the_end_of_a_longer_word():
    """`歌词：`, `主题曲：`, `主编：`, `合唱：`: the character ends another word
    before its colon and keys no credit; `作词：` is the table's own cue."""
    from transforms.role_cues import CREDIT_KEY_RE

    for line in ("歌词：月光下", "电视剧《还珠格格》主题曲：《当》", "主编：金庸", "合唱：群星", "作词：林夕", "词曲：罗大佑"):
        assert CREDIT_KEY_RE.search(line) is None, line
    assert [m.group() for m in CREDIT_KEY_RE.finditer("词：甲 曲/乙 主唱：丙 唱：丁")] == ["词", "曲", "主唱", "唱"]


def test_a_name_joined_to_the_song_s_title_by_a_dash_is_no_lyricist_or_composer():
    """`王菲 - 红豆 作词：林夕 作曲：柳重言`: a track listing's header names the
    singer beside the title, so the name there credits neither the words nor
    the music; the title may come first (`《红豆》——王菲`)."""
    for text in ("王菲 - 红豆 作词：林夕 作曲：柳重言", "《红豆》——王菲 作词：林夕 作曲：柳重言"):
        raw = _entry("红豆", text, [("作词", "林夕"), ("作曲", "柳重言"), ("作词", "王菲"), ("作曲", "王菲")])
        kept, dropped = _kept(raw), _dropped(raw)
        assert set(kept) == {("作词", "林夕"), ("作曲", "柳重言")}, text
        assert "the singer's header" in dropped[("作词", "王菲")] and "the singer's header" in dropped[("作曲", "王菲")]
    # a dash to another song's title heads that song, not this one
    from transforms.other_roles import singer_header

    assert singer_header("周杰伦 - 晴天", 0, 3, ("晴天",)) and not singer_header("周杰伦 - 晴天", 0, 3, ("七里香",))
    assert singer_header("《晴天》—周杰伦", 5, 8, ("晴天",)) and not singer_header("周杰伦-", 0, 3, ("晴天",))


def test_a_cast_said_to_take_part_or_to_appear_specially_is_the_cast():
    """`张国荣、巩俐等参加演出`, `冯小刚特别出演`: the cast list ends in
    `演出`, or an adverb stands between a name and its credit; neither
    name is the director's, who is named with 执导 before them."""
    text = "《霸王别姬》由陈凯歌执导，张国荣、巩俐等参加演出。"
    raw = _entry("霸王别姬", text, [("导演", "陈凯歌"), ("主演", "巩俐"), ("导演", "巩俐")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == {("导演", "陈凯歌"), ("主演", "巩俐")} and kept[("主演", "巩俐")]["cue"] == "演出"
    assert "(演出)" in dropped[("导演", "巩俐")]
    text = "《让子弹飞》由姜文执导，姜文、周润发、葛优主演，冯小刚特别出演。"
    raw = _entry("让子弹飞", text, [("导演", "姜文"), ("主演", "冯小刚"), ("导演", "冯小刚")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == {("导演", "姜文"), ("主演", "冯小刚")} and kept[("主演", "冯小刚")]["cue"] == "出演"
    assert "(出演)" in dropped[("导演", "冯小刚")]


def test_a_parent_named_as_a_woman_is_no_father_and_as_a_man_no_mother():
    """`父亲宋嘉树，母亲倪桂珍`, `梁启超与妻子李蕙仙之子`: the word right before
    a name says the person's sex, so the mother's name states no father and
    the father's no mother, whichever kinship cue the clause holds."""
    raw = _entry("宋庆龄", "宋庆龄生于上海，父亲宋嘉树，母亲倪桂珍。",
                 [("父亲", "宋嘉树"), ("母亲", "倪桂珍"), ("父亲", "倪桂珍"), ("母亲", "宋嘉树")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == {("父亲", "宋嘉树"), ("母亲", "倪桂珍")}
    assert "named as a woman" in dropped[("父亲", "倪桂珍")] and "named as a man" in dropped[("母亲", "宋嘉树")]
    raw = _entry("梁思成", "梁思成是梁启超与妻子李蕙仙之子。", [("父亲", "梁启超"), ("母亲", "李蕙仙"), ("父亲", "李蕙仙")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == {("父亲", "梁启超"), ("母亲", "李蕙仙")}
    assert "named as a woman: 妻子李蕙仙" in dropped[("父亲", "李蕙仙")]


def test_names_listed_with_commas_share_the_credit_after_the_last():
    """`张国荣，张丰毅，巩俐主演`: a list may be written with commas, each name
    a clause of its own; the credit after the last name binds them all. A
    name alone before its own story (`张国荣，1956年生于香港`) starts no list."""
    text = "《霸王别姬》由陈凯歌执导，芦苇、李碧华编剧，张国荣，张丰毅，巩俐主演。"
    raw = _entry("霸王别姬", text, [("导演", "陈凯歌"), ("主演", "张丰毅"), ("编剧", "芦苇"), ("导演", "张丰毅")])
    kept, dropped = _kept(raw), _dropped(raw)
    assert set(kept) == {("导演", "陈凯歌"), ("主演", "张丰毅"), ("编剧", "芦苇")}
    assert kept[("主演", "张丰毅")]["cue"] == "主演" and "(主演)" in dropped[("导演", "张丰毅")]
    from transforms.roles import _comma_list_end
    from transforms.text import clause_span

    story = "张国荣，1956年生于香港，歌手、演员。"
    assert _comma_list_end(story, *clause_span(story, 0), 0, 3) is None


def test_an_executive_producer_is_no_producer():
    """`监制` is a credit of its own (executive producer): it binds the name
    as that credit, never as 制片人."""
    text = "《英雄本色》由徐克监制、吴宇森导演，周润发、狄龙等主演。"
    raw = _entry("英雄本色", text, [("制片人", "徐克"), ("导演", "吴宇森")])
    assert "监制" in _dropped(raw)[("制片人", "徐克")]
    text = "《英雄本色》由徐克担任制片人、吴宇森导演。"
    assert _kept(_entry("英雄本色", text, [("制片人", "徐克")]))[("制片人", "徐克")]["support_score"] == 1.0


def test_the_singer_who_owns_the_album_is_not_its_producer():
    """`是陈绮贞第三张专辑，由钟成虎担任制作人`: the name before `第N张…专辑`
    owns the album (it sings it); the producer is named by its own cue."""
    text = "《Groupies吉他手》是陈绮贞第三张音乐专辑，由钟成虎担任制作人。"
    raw = _entry("Groupies吉他手", text, [("制作人", "陈绮贞"), ("制作人", "钟成虎"), ("专辑歌手", "陈绮贞")])
    assert "the singer whose album it is" in _dropped(raw)[("制作人", "陈绮贞")]
    kept = _kept(raw)
    assert ("制作人", "钟成虎") in kept and ("专辑歌手", "陈绮贞") in kept


def test_a_company_that_produced_the_film_is_not_its_distributor():
    """`由皮克斯出品` credits the producer, `由博伟发行` the distributor; `出品并发行`
    credits both."""
    text = "《海底总动员》由皮克斯动画工作室出品的动画电影。"
    raw = _entry("海底总动员", text, [("发行公司", "皮克斯动画工作室"), ("出品公司", "皮克斯动画工作室")])
    assert "the producer" in _dropped(raw)[("发行公司", "皮克斯动画工作室")]
    assert ("出品公司", "皮克斯动画工作室") in _kept(raw)
    text = "《海底总动员》由博伟影业发行。"
    raw = _entry("海底总动员", text, [("出品公司", "博伟影业"), ("发行公司", "博伟影业")])
    assert "the distributor" in _dropped(raw)[("出品公司", "博伟影业")]
    assert _kept(raw)[("发行公司", "博伟影业")]["cue"] == "发行"
    text = "《海底总动员》由华特迪士尼影片公司出品并发行。"
    assert ("发行公司", "华特迪士尼影片公司") in _kept(_entry("海底总动员", text, [("发行公司", "华特迪士尼影片公司")]))
