"""A name's kind read off its own page, end to end through the items stage
(transforms/items/kinds.py, graph.py, generate.py).

Read from a DuIE build's items: 纽埃, a state no list of sovereign states
holds, was typed a town, so `阿洛菲是哪个国家的首都？` offered villages and
districts, and `立陶宛的首都是哪座城市？` offered 纽埃 among the towns; and a
book whose page states only its 作者 (DuIE's `图书作品 作者 人物`) was of no
known kind, so `下列哪部作品的作者是海飞？` offered films. Facts are real (the
capitals below, 海飞 wrote 麻雀, the novels' and films' makers), the
sentences our own. Pools are made as the stage makes them: each page's edges
(edges_of), each name's summary (NameSummary) and its pool entries.
"""
from __future__ import annotations

import pytest

from pipeline.items_stage import _Scorer
from transforms.items.config import ItemsConfig
from transforms.items.generate import group_items
from transforms.items.graph import NameSummary, edges_of, keyed_edges, pool_entries
from transforms.items.kinds import place_kind, work_kind
from tests.items_fixtures import embedded

# Capitals of states in resources/countries.txt, and of three it does not hold:
# two self-governing states of the Pacific and a kingdom of the past.
LISTED = {"法国": "巴黎", "日本": "东京", "德国": "柏林", "意大利": "罗马", "埃及": "开罗", "秘鲁": "利马",
          "泰国": "曼谷", "肯尼亚": "内罗毕", "挪威": "奥斯陆", "斐济": "苏瓦", "立陶宛": "维尔纽斯"}
UNLISTED = {"纽埃": "阿洛菲", "库克群岛": "阿瓦鲁阿", "大理国": "羊苴咩城"}
# Birthplaces, towns: 鲁迅 绍兴, 苏轼 眉山, 杜甫 巩县, 孟浩然 襄阳, 陆游 山阴, 辛弃疾 历城,
# 欧阳修 绵州, 王维 祁县, 白居易 新郑, 李清照 章丘.
BORN = {"鲁迅": "绍兴", "苏轼": "眉山", "杜甫": "巩县", "孟浩然": "襄阳", "陆游": "山阴", "辛弃疾": "历城",
        "欧阳修": "绵州", "王维": "祁县", "白居易": "新郑", "李清照": "章丘"}
# Books whose pages state only their author, as DuIE's do; films by their director.
BOOKS = {"麻雀": "海飞", "围城": "钱锺书", "边城": "沈从文", "骆驼祥子": "老舍", "子夜": "茅盾", "呐喊": "鲁迅",
         "白鹿原": "陈忠实", "平凡的世界": "路遥", "活着": "余华", "穆斯林的葬礼": "霍达", "尘埃落定": "阿来"}
FILMS = {"霸王别姬": "陈凯歌", "红高粱": "张艺谋", "让子弹飞": "姜文", "卧虎藏龙": "李安", "花样年华": "王家卫",
         "无间道": "刘伟强", "英雄": "张艺谋", "小武": "贾樟柯", "悲情城市": "侯孝贤", "桃姐": "许鞍华", "喜宴": "李安"}


def _pair(entity, entity_type, text, triples):
    return {"pair_id": f"p_{entity}", "entity": entity, "entity_type": entity_type, "text": text,
            "triples": [{"relation": r, "tail": t, "tail_type": tt} for r, t, tt in triples],
            "domain": "NE", "split": "eval", "in_subset": True}


def _pages():
    pages = [_pair(c, "place", f"{cap}是{c}的首都。", [("首都", cap, "place")]) for c, cap in {**LISTED, **UNLISTED}.items()]
    pages += [_pair(p, "person", f"{p}生于{town}。", [("出生地", town, "place")]) for p, town in BORN.items()]
    # a book's page: no defining phrase with a kind's noun, nothing but its author
    pages += [_pair(b, "work", f"{a}的《{b}》，读者众多。", [("作者", a, "person")]) for b, a in BOOKS.items()]
    pages += [_pair(f, "work", f"{d}的《{f}》，观众众多。", [("导演", d, "person")]) for f, d in FILMS.items()]
    return pages


def _graph():
    """Every name's group (its records) and the pools, as the stage builds them from the pages' edges."""
    groups: dict[str, list] = {}
    for page in _pages():
        for edge in edges_of(page):
            for key, record in keyed_edges(edge):
                groups.setdefault(key, []).append(record)
    pools: dict[tuple, list] = {}
    for key, records in groups.items():
        acc = NameSummary(10, 0)
        for side, edge in records:
            acc.add(side, edge)
        for pool_key, (_, text, typed) in pool_entries(key, acc, acc.result(), 0):
            pools.setdefault(pool_key, []).append((text, typed))
    return groups, pools


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    d = tmp_path_factory.mktemp("kind_by_page")
    groups, pools = _graph()
    strings = sorted({t for p in _pages() for t in (p["entity"], *(x["tail"] for x in p["triples"]))})
    vectors = embedded(strings, d)
    scorer = _Scorer(*vectors, pools, 0.0)
    cfg = ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa",), eval_per_query=0)
    items = []
    for key, records in sorted(groups.items()):
        items += group_items(key, records, {}, scorer, cfg, lambda k, n: None)
    return {i["question"]: i for i in items}


def test_a_state_no_list_holds_is_a_country_by_its_page():
    # a capital, an anthem, a head of state: only a state's page names them
    niue = _pair("纽埃", "place", "纽埃位于南太平洋，首都阿洛菲。", [("首都", "阿洛菲", "place")])
    assert place_kind(niue) == "country" and edges_of(niue)[0][3] == "place:country"
    kingdom = _pair("大理国", "place", "大理国是宋代云南的一个王国。", [])  # by its defining phrase
    assert place_kind(kingdom) == "country"
    # the capital itself stays a town
    assert edges_of(niue)[0][6] == "place:local"


def test_a_country_is_asked_among_countries_and_offered_for_no_town(built):
    towns = set(BORN.values()) | set(LISTED.values()) | set(UNLISTED.values())
    countries = set(LISTED) | set(UNLISTED)
    for country, capital in UNLISTED.items():
        item = built[f"{capital}是哪个国家的首都？"]
        assert item["answer"] == country
        assert set(item["options"]) <= countries, item["options"]  # no town beside the country
    for capital in LISTED.values():
        question = next(q for q, i in built.items() if i["answer"] == capital)
        options = set(built[question]["options"])
        assert options <= towns and not options & countries, (question, options)


def test_a_book_whose_page_states_only_its_author_is_asked_among_books(built):
    book = _pair("麻雀", "work", "海飞的《麻雀》，读者众多。", [("作者", "海飞", "person")])
    assert work_kind(book) == "literature" and edges_of(book)[0][3] == "work:literature"
    # a film's page crediting the novel's author beside its director stays a film
    film = _pair("活着", "work", "张艺谋的《活着》，观众众多。", [("导演", "张艺谋", "person"), ("作者", "余华", "person")])
    assert work_kind(film) == "screen"
    item = built["下列哪部作品的作者是海飞？"]
    assert item["answer"] == "麻雀"
    assert set(item["options"]) <= set(BOOKS) and not set(item["options"]) & set(FILMS), item["options"]
