"""A work's kind and a person's field among the options (transforms/items/kinds.py):
films with films, songs with songs, singers with singers.

Before it, every work was one type: a singer's 代表作品 offered films, a
director's offered albums, and a reader struck them out unread. Facts here
are real (张艺谋 directs films, 周杰伦 sings 七里香, 《霸王别姬》 is a film
by 陈凯歌), the sentences our own.
"""
from __future__ import annotations

from transforms.items.graph import NameSummary, edges_of, name_summary, pool_entries
from transforms.items.kinds import compatible, option_kind, person_field, place_kind, work_kind


def _pair(entity, text, triples, entity_type="work"):
    return {"pair_id": f"p_{entity}", "entity": entity, "entity_type": entity_type, "text": text,
            "triples": [{"relation": r, "tail": t, "tail_type": tt} for r, t, tt in triples],
            "domain": "HS", "split": "eval", "in_subset": True}


def test_a_work_s_kind_comes_from_its_relations_then_its_defining_phrase():
    film = _pair("霸王别姬", "《霸王别姬》是陈凯歌执导的电影，1993年上映。", [("导演", "陈凯歌", "person")])
    assert work_kind(film) == "screen"
    # 发行时间 says nothing (records and films both have one): the phrase's head noun does
    song = _pair("青花瓷", "《青花瓷》是周杰伦演唱的一首歌曲，2007年发行。", [("发行时间", "2007年", "date")])
    assert work_kind(song) == "music"
    novel = _pair("边城", "《边城》是沈从文创作的中篇小说。", [("出版时间", "1934年", "date")])
    assert work_kind(novel) == "literature"
    # relations of two kinds, and a phrase that names none: unknown, not a guess
    mixed = _pair("某作品", "《某作品》是一部作品。", [("导演", "甲", "person"), ("作词", "乙", "person")])
    assert work_kind(mixed) is None


def test_a_person_s_field_is_the_kind_of_their_works():
    assert person_field(_pair("周杰伦", "周杰伦是华语流行乐歌手。", [("职业", "歌手", "other")], "person")) == "music"
    zhang = _pair("张艺谋", "张艺谋，1950年出生于陕西西安，中国内地导演、摄影师。", [], "person")
    assert person_field(zhang) == "screen"
    # two fields: no kind; a calling of someone else in the opening is not theirs
    assert person_field(_pair("王菲", "王菲，1969年出生于北京，流行乐女歌手、演员。", [], "person")) is None
    assert person_field(_pair("某人", "某人，出生于上海，其父为电影演员，是一名歌手。", [], "person")) == "music"
    # an opera performer's works are plays, not poems or films: 京剧演员 is of the stage
    mei = _pair("梅兰芳", "梅兰芳，字畹华，京剧表演艺术家。", [("代表作品", "贵妃醉酒", "work")], "person")
    assert person_field(mei) == "stage" and edges_of(mei)[0][6] == "work:stage"
    assert person_field(_pair("言菊朋", "言菊朋，京剧演员，工老生。", [], "person")) == "stage"
    assert work_kind(_pair("贵妃醉酒", "《贵妃醉酒》是一出京剧剧目。", [])) == "stage"


def test_option_kinds_of_heads_and_tails():
    assert option_kind("work", head_kind="literature") == "work:literature"
    assert option_kind("work", "所属专辑") == "work:music"  # whoever the head
    assert option_kind("work", "代表作品", "person", "screen") == "work:screen"
    assert option_kind("work", "代表作品", "person", None) == "work"  # a person of two fields
    assert option_kind("work", "代表作品", "organisation", "screen") == "work"
    # a person's field: their page's, or the credit they are the value of
    assert option_kind("person", head_kind="music") == "person:music"
    assert option_kind("person", "作曲", "work", "screen") == "person:music"  # 作曲 credits a musician
    assert option_kind("person", "主演") == "person:screen" and option_kind("person", "作者") == "person:literature"
    assert option_kind("person", "父亲") == "person"  # kin says nothing of a field
    # a place is a country by its name or as a nationality, else a place inside one
    assert option_kind("place", "出生地", "person", "music", name="伦敦") == "place:local"
    assert option_kind("place", "出生地", name="英国") == "place:country"
    assert option_kind("place", "国籍", name="苏格兰") == "place:country"
    assert option_kind("place", name="北京") == "place:local" and option_kind("place", name="日本") == "place:country"
    # a gold of a known kind takes its kind only; a gold of unknown kind any work
    assert compatible("work:music", "work:music") and not compatible("work:screen", "work:music")
    assert not compatible("work", "work:music")
    assert compatible("work:screen", "work") and not compatible("person", "work")


def test_edges_carry_the_kinds():
    zhang = _pair("张艺谋", "张艺谋，中国内地导演、摄影师。", [("代表作品", "红高粱", "work"), ("出生地", "陕西西安", "place")],
                  "person")
    edges = {e[4]: e for e in edges_of(zhang)}
    assert edges["代表作品"][6] == "work:screen" and edges["出生地"][6] == "place:local"
    assert edges["代表作品"][3] == "person:screen"  # his page tells his field
    film = _pair("霸王别姬", "《霸王别姬》是陈凯歌执导的电影。", [("导演", "陈凯歌", "person")])
    assert edges_of(film)[0][3] == "work:screen"


def test_a_place_is_a_country_a_site_or_a_town():
    # `梅兰芳出生在哪里？` offered 长城 and 京沪高速铁路 beside 北京: a site is no one's birthplace
    wall = _pair("长城", "长城是中国古代修筑的大型军事防御工程。", [("外文名", "The Great Wall", "other")], "place")
    city = _pair("深圳", "深圳市是广东省辖副省级市。", [("下辖地区", "福田区、南山区", "place")], "place")
    assert place_kind(wall) == "site" and place_kind(city) == "local"
    # a reserve says so by its name when its page states nothing else
    assert place_kind(_pair("卧龙国家级自然保护区", "卧龙国家级自然保护区位于四川省汶川县。", [], "place")) == "site"
    assert edges_of(wall)[0][3] == "place:site" and edges_of(city)[0][3] == "place:local"
    # a peak's or a lake's page gives its altitude or its water; a village gives its altitude too
    peak = _pair("黄山", "黄山的最高峰莲花峰海拔1864米。", [("海拔", "1864米", "number")], "place")
    village = _pair("某乡", "某乡地处山区。", [("海拔", "1200米", "number")], "place")
    assert place_kind(peak) == "site" and place_kind(village) is None
    # the city a place is in: a sight's (维多利亚港 所在城市 香港), not a town's
    assert place_kind(_pair("维多利亚港", "维多利亚港是香港的海港。", [("所在城市", "香港", "place")], "place")) == "site"
    assert option_kind("place", "所在城市", name="都城隍庙") == "place:site"
    assert option_kind("place", "出生地", name="京沪高速铁路") == "place:site"
    assert option_kind("place", "周边景点", name="圆明园") == "place:site"  # a sight, whatever its name
    # towns whose names end like a site's do not: 佛山, 黑龙江, 金陵
    assert {option_kind("place", "出生地", name=n) for n in ("佛山", "黑龙江", "金陵", "北京")} == {"place:local"}
    assert not compatible("place:site", "place:local") and not compatible("place:local", "place:country")


def test_an_alias_is_asked_among_aliases_and_never_offered_as_a_thing():
    # 京剧's 京戏 was offered as 梅兰芳's 代表作品 and 深圳's 鹏城 as a birthplace;
    # `李白的别名是什么？` offered 曹操 and 唐太宗 beside 诗圣
    assert option_kind("person", "别名", "person", name="诗仙") == "person:alias"
    assert option_kind("work", "别名", "work", name="京戏") == "work:alias"
    assert option_kind("other", "别名", name="某名") == "other"  # an untyped name has no pool of its own
    assert compatible("person:alias", "person:alias")
    assert not compatible("person:alias", "person") and not compatible("person", "person:alias")
    assert not compatible("work:alias", "work")  # a gold of unknown kind takes any work but an alias
    # an alias enters its own pool only, not its type's
    opera = _pair("京剧", "京剧又称京戏，是中国的戏曲剧种。", [("别名", "京戏", "work")])
    edge = edges_of(opera)[0]
    acc = NameSummary(10, 0)
    acc.add("in", edge)
    summary = acc.result()
    assert summary == name_summary([("in", edge)], 10, 0) and summary["type"] == "work:alias"
    pools = {key[:2] for key, _ in pool_entries("京戏", acc, summary, 0)}
    assert pools == {("type", "work:alias"), ("rel", "别名")}
    # a name the graph also uses as a thing is one: HBO, twice a company's 简称 and once a series' 出品公司
    hbo = [("in", edges_of(_pair(company, f"{company}简称HBO。", [("简称", "HBO", "organisation")],
                                 "organisation"))[0]) for company in ("美国家庭影院", "家庭影院频道")]
    assert name_summary(hbo, 10, 0)["type"] == "organisation:alias"
    hbo.append(("in", edges_of(_pair("通灵少女", "《通灵少女》由HBO出品。", [("出品公司", "HBO", "organisation")]))[0]))
    assert name_summary(hbo, 10, 0)["type"] == "organisation"
