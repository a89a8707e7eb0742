"""A work's kind and a person's field among the options (transforms/items/kinds.py):
films with films, songs with songs, singers with singers.

Before it, every work was one type: a singer's 代表作品 offered films, a
director's offered albums, and a reader struck them out unread. Facts here
are real (张艺谋 directs films, 周杰伦 sings 七里香, 《霸王别姬》 is a film
by 陈凯歌), the sentences our own.
"""
from __future__ import annotations

from transforms.items.graph import edges_of
from transforms.items.kinds import compatible, option_kind, person_field, work_kind


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
