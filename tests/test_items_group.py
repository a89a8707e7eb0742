"""One name's group, end to end through the real embedder: where each origin comes from.

`group_items` is what the AskQuestions step runs per normalised name. Here a
group is written by hand (real facts): two people named 李娜 (the tennis
player born in 湖北武汉, the singer born in 山东济南) and 曹雪芹 as the author
of 红楼梦. Similarities come from the real USE embedder through the stage's
own vector file and faiss pools.
"""
from __future__ import annotations

import pytest

from pipeline.items_embed import embed_all, read_vectors
from pipeline.items_stage import _Scorer
from transforms.items.config import ItemsConfig
from transforms.items.generate import group_items
from transforms.items.graph import freq_bin
from transforms.items.numeric import variants

COUNTRIES = ["美国", "日本", "法国", "德国", "英国", "意大利", "俄罗斯", "巴西", "印度", "韩国"]
WORKS = ["西游记", "水浒传", "三国演义", "呐喊", "骆驼祥子", "围城", "边城", "子夜", "茶馆", "雷雨"]
PLACES = ["浙江绍兴", "四川江油", "河南巩县", "江苏南京", "湖南长沙"]


def _edge(pair_id, entity, subtitle, relation, tail, tail_type, entity_type="person"):
    return (pair_id, entity, subtitle, entity_type, relation, tail, tail_type, "HS", "eval", True)


@pytest.fixture(scope="module")
def scorer(tmp_path_factory):
    d = tmp_path_factory.mktemp("vectors")
    pools = {("rel", "国籍", freq_bin(1)): [(c, "place") for c in COUNTRIES],
             ("rel", "出生地", freq_bin(1)): [(p, "place") for p in PLACES],
             ("type", "place", freq_bin(1)): [(p, "place") for p in PLACES + COUNTRIES[:3]],
             ("head", "作者", freq_bin(0)): [(w, "work") for w in WORKS],
             ("type", "work", freq_bin(0)): [(w, "work") for w in WORKS[:5]]}
    strings = {"李娜", "中国", "北京", "湖北武汉", "山东济南", "红楼梦", "曹雪芹", "石头记", *COUNTRIES, *WORKS, *PLACES}
    strings |= {v for s in list(strings) for v in variants(s, None)}
    path = embed_all(sorted(strings), "use-m3", str(d / "cache"), str(d / "vectors.arrow"))
    index, matrix = read_vectors(path)
    return _Scorer(index, matrix, pools, 0.0)


def test_polysemy_and_neighbour_origins_and_the_other_senses_values(scorer):
    records = [("out", _edge("p_tennis", "李娜", "网球运动员", "出生地", "湖北武汉", "place")),
               ("out", _edge("p_tennis", "李娜", "网球运动员", "国籍", "中国", "place")),
               ("out", _edge("p_singer", "李娜", "歌手", "出生地", "山东济南", "place"))]
    hops = {"中国": {"name": "中国", "type": "place", "count": 1, "aliases": frozenset({"中华人民共和国"}),
                     "neighbours": [("北京", "place")]}}
    counts: dict[str, int] = {}
    cfg = ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa",))
    items = group_items("李娜", records, hops, scorer, cfg, lambda k, n: counts.__setitem__(k, counts.get(k, 0) + n))
    by_relation = {(i["relation"], i["pair_id"]): i for i in items}
    birth = by_relation[("出生地", "p_singer")]
    # Two senses of one name: the question shows which one.
    assert birth["question"] == "李娜（歌手）出生在哪里？"
    origins = dict(zip([o for i, o in enumerate(birth["options"]) if i != birth["answer_index"]],
                       birth["distractor_origins"]))
    assert origins.get("中国") == "polysemy"  # the player's nationality: a place, not the singer's birthplace
    assert origins.get("北京") == "neighbour"  # 2-hop, through 中国
    assert "same_relation" in origins.values()
    # The player's birthplace is never offered: (李娜, 出生地, 湖北武汉) is in the
    # graph, and the question cannot tell the senses apart by its relation alone.
    assert "湖北武汉" not in birth["options"]
    assert counts.get("rejected|true_answer", 0) >= 1
    # A nationality is a country: its options are other nationalities only, never
    # her own birthplace, the other 李娜's, or a town two hops away (typed `place`
    # all the same, they told the country apart from the towns).
    nationality = by_relation[("国籍", "p_tennis")]
    assert set(nationality["distractor_origins"]) == {"same_relation"}
    assert not {"湖北武汉", "山东济南", "北京"} & set(nationality["options"])


def test_head_question_excludes_the_gold_alias(scorer):
    records = [("in", _edge("p_hlm", "红楼梦", None, "作者", "曹雪芹", "person", entity_type="work"))]
    # 红楼梦 tells its neighbours its other name, and names it among its own neighbours
    # (its 别名 value), so 石头记 is the first 2-hop candidate of 曹雪芹's question.
    hops = {"红楼梦": {"name": "红楼梦", "type": "work", "count": 0, "aliases": frozenset({"石头记"}),
                       "neighbours": [("石头记", "work")]}}
    counts: dict[str, int] = {}
    cfg = ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa", "kgc"))
    items = group_items("曹雪芹", records, hops, scorer, cfg, lambda k, n: counts.__setitem__(k, counts.get(k, 0) + n))
    assert {i["task"] for i in items} == {"qa", "kgc"}
    for item in items:
        assert item["asked"] == "head" and item["answer"] == "红楼梦"
        assert "石头记" not in item["options"]  # another name of the gold
        assert set(item["options"]) - {"红楼梦"} <= set(WORKS)
    assert {i["question"] for i in items} == {"下列哪部作品的作者是曹雪芹？", "(?, 作者, 曹雪芹)"}
    assert counts["rejected|gold_alias"] >= 1


FILMS = ["霸王别姬", "红高粱", "活着", "卧虎藏龙", "让子弹飞", "花样年华", "英雄", "阳光灿烂的日子", "大红灯笼高高挂",
         "饮食男女"]
SONGS = ["稻香", "青花瓷", "十年", "后来", "童话", "吻别", "同桌的你", "千里之外", "小幸运", "夜曲"]


@pytest.fixture(scope="module")
def work_scorer(tmp_path_factory):
    """The pools of 代表作品 and of works hold films and songs, each typed by its kind."""
    d = tmp_path_factory.mktemp("work_vectors")
    typed = [(f, "work:screen") for f in FILMS] + [(s, "work:music") for s in SONGS]
    pools = {("rel", "代表作品", freq_bin(1)): typed,
             ("type", "work:music", freq_bin(1)): [(s, "work:music") for s in SONGS],
             ("type", "work:screen", freq_bin(1)): [(f, "work:screen") for f in FILMS],
             ("type", "work", freq_bin(1)): typed}
    strings = {"周杰伦", "七里香", "某导演", "菊豆", *FILMS, *SONGS}
    path = embed_all(sorted(strings), "use-m3", str(d / "cache"), str(d / "vectors.arrow"))
    index, matrix = read_vectors(path)
    return _Scorer(index, matrix, pools, 0.0)


def test_a_singer_s_work_is_asked_among_songs_and_an_unknown_kind_among_all_works(work_scorer):
    cfg = ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa",))
    counts: dict[str, int] = {}
    count = lambda k, n: counts.__setitem__(k, counts.get(k, 0) + n)  # noqa: E731
    # 周杰伦 is a singer (items/kinds.person_field): his 代表作品 is a song
    singer = [("out", _edge("p_jay", "周杰伦", None, "代表作品", "七里香", "work:music"))]
    (item,) = group_items("周杰伦", singer, {}, work_scorer, cfg, count)
    assert set(item["options"]) - {"七里香"} <= set(SONGS)
    assert counts["rejected|other_type"] >= 1  # the films of the same relation's pool were looked at
    # a person whose field is unknown: their work may stand among films and songs alike
    unknown = [("out", _edge("p_dir", "某导演", None, "代表作品", "菊豆", "work"))]
    (item,) = group_items("某导演", unknown, {}, work_scorer, cfg, count)
    others = set(item["options"]) - {"菊豆"}
    assert others <= set(FILMS) | set(SONGS) and others & set(FILMS) and others & set(SONGS)
    # ... unless the work's own page tells its kind (its name's summary): 《菊豆》 is a film
    hops = {"菊豆": {"name": "菊豆", "type": "work:screen", "count": 1, "aliases": frozenset(), "neighbours": []}}
    (item,) = group_items("某导演", unknown, hops, work_scorer, cfg, count)
    assert set(item["options"]) - {"菊豆"} <= set(FILMS)


MOTHERS = ["长孙皇后", "武则天", "孝庄文皇后", "马皇后", "窦太后", "王政君", "卫子夫", "吕雉", "薄姬", "阴丽华"]
MEN = ["李世民", "朱元璋", "刘邦", "刘彻", "曹操", "刘备", "孙权", "赵匡胤", "杨坚", "李渊"]


def test_a_mother_is_asked_among_mothers_never_among_men(tmp_path):
    """Kin relations draw on their own values only (RELATION_POOL_ONLY): the
    mothers of the graph are women; the people of its type pool are not."""
    pools = {("rel", "母亲", freq_bin(1)): [(m, "person") for m in MOTHERS],
             ("type", "person", freq_bin(1)): [(m, "person") for m in MEN]}
    path = embed_all(sorted({"李治", "长孙皇后", *MOTHERS, *MEN}), "use-m3", str(tmp_path / "cache"),
                     str(tmp_path / "vectors.arrow"))
    index, matrix = read_vectors(path)
    records = [("out", _edge("p_lz", "李治", None, "母亲", "长孙皇后", "person")),
               ("out", _edge("p_lz", "李治", None, "父亲", "李世民", "person"))]
    cfg = ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa",))
    items = group_items("李治", records, {}, _Scorer(index, matrix, pools, 0.0), cfg, lambda k, n: None)
    (mother,) = [i for i in items if i["relation"] == "母亲"]
    assert set(mother["options"]) == set(MOTHERS) and set(mother["distractor_origins"]) == {"same_relation"}
    assert not [i for i in items if i["relation"] == "父亲"]  # no fathers in the pool: not asked


DIRECTORS = ["张艺谋", "陈凯歌", "冯小刚", "姜文", "王家卫", "李安", "吴宇森", "贾樟柯", "侯孝贤", "许鞍华"]
ACTORS = ["巩俐", "章子怡", "周迅", "梁朝伟", "刘德华", "周润发", "张曼玉", "葛优", "孙俪", "胡歌"]
LYRICISTS = ["方文山", "林夕", "黄伟文"]
SINGERS = ["王菲", "陈奕迅", "孙燕姿", "蔡依林", "林俊杰", "张学友", "刘若英", "梁静茹", "莫文蔚", "李宗盛"]


def test_a_credit_is_asked_among_its_role_and_a_rare_one_among_its_field(tmp_path):
    """A director was asked among actors (孙俪 and 胡歌 for 龙门飞甲's 导演): every
    person of the screen is one kind. A credit now draws on its relation's values
    (written either way: 填词 is 作词); only one too rare for nine, three
    lyricists here, is asked among the people of its field, and counted."""
    pools = {("rel", "导演", freq_bin(1)): [(d, "person:screen") for d in DIRECTORS],
             ("type", "person:screen", freq_bin(1)): [(a, "person:screen") for a in ACTORS],
             ("rel", "作词", freq_bin(1)): [(w, "person:music") for w in LYRICISTS],
             ("type", "person:music", freq_bin(1)): [(s, "person:music") for s in SINGERS]}
    path = embed_all(sorted({"龙门飞甲", "徐克", "李连杰", "晴天", "周杰伦", *DIRECTORS, *ACTORS, *LYRICISTS,
                             *SINGERS}), "use-m3", str(tmp_path / "cache"), str(tmp_path / "vectors.arrow"))
    index, matrix = read_vectors(path)
    scorer = _Scorer(index, matrix, pools, 0.0)
    cfg = ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa",))
    film = [("out", _edge("p_lmfj", "龙门飞甲", None, "导演", "徐克", "person:screen", "work")),
            ("out", _edge("p_lmfj", "龙门飞甲", None, "主演", "李连杰", "person:screen", "work"))]
    items = group_items("龙门飞甲", film, {}, scorer, cfg, lambda k, n: None)
    (director,) = [i for i in items if i["relation"] == "导演"]
    assert set(director["options"]) - {"徐克"} <= set(DIRECTORS)
    assert set(director["distractor_origins"]) == {"same_relation"}
    counts: dict[str, int] = {}
    song = [("out", _edge("p_qt", "晴天", None, "填词", "周杰伦", "person:music", "work"))]
    (lyricist,) = group_items("晴天", song, {}, scorer, cfg, lambda k, n: counts.__setitem__(k, counts.get(k, 0) + n))
    assert set(LYRICISTS) <= set(lyricist["options"])  # the 作词 pool serves 填词
    assert len(set(lyricist["options"]) & set(SINGERS)) == 6 and counts["widened|credit_among_its_field"] == 1


PROVINCES = ["河北", "山西", "辽宁", "吉林", "江苏", "浙江", "安徽", "福建", "江西", "山东", "河南", "湖北", "湖南",
             "广东", "四川", "贵州"]


def test_one_eval_query_gives_at_most_eval_per_query_items_and_train_all(tmp_path):
    """蜡梅 grows in six provinces: six questions of one text, each with
    another gold. The eval split asks two of them (seeded: the same two on a
    rerun), the rest are counted; train asks all six, and so does eval with
    the cap off."""
    pools = {("rel", "地理分布", freq_bin(1)): [(p, "place") for p in PROVINCES]}
    path = embed_all(sorted({"蜡梅", *PROVINCES}), "use-m3", str(tmp_path / "cache"), str(tmp_path / "vectors.arrow"))
    index, matrix = read_vectors(path)
    scorer = _Scorer(index, matrix, pools, 0.0)
    grows = ["河南", "湖北", "湖南", "四川", "贵州", "浙江"]

    def ask(split: str, **cfg) -> tuple[list[str], dict[str, int]]:
        records = [("out", _edge("p_lm", "蜡梅", None, "地理分布", p, "place", "species")[:8] + (split, True))
                   for p in grows]
        counts: dict[str, int] = {}
        items = group_items("蜡梅", records, {}, scorer, ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa",), **cfg),
                            lambda k, n: counts.__setitem__(k, counts.get(k, 0) + n))
        assert {i["question"] for i in items} == {"下列哪一项是蜡梅的地理分布？"}
        return sorted(i["tail"] for i in items), counts

    asked, counts = ask("eval")
    assert len(asked) == 2 and set(asked) <= set(grows) and counts["skipped|query_capped"] == 4
    assert ask("eval")[0] == asked
    assert len({tuple(ask("eval", seed=s)[0]) for s in range(6)}) > 1  # seeded, not the first two by name
    train, counts = ask("train")
    assert train == sorted(grows) and "skipped|query_capped" not in counts
    assert ask("eval", eval_per_query=0)[0] == sorted(grows)
    with pytest.raises(ValueError, match="eval_per_query"):
        ItemsConfig(eval_per_query=-1)


# A hub: 中国 as the 国籍 of 300 people (names of our own, two characters
# each) and with one value of its own (首都 北京).
HUB_PEOPLE = [f"{a}{b}" for a in "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨朱秦尤许" for b in "一二三四五六七八九十甲乙丙丁戊"][:300]


def _hub_candidates(tmp_path, monkeypatch, limit: int, two_hop: int = 0) -> list[dict[str, int]]:
    """The origins of the candidates each question of the hub's group was given."""
    from transforms.items import generate

    seen: list[dict[str, int]] = []
    real_choose = generate.choose

    def choose(draft, *args, **kwargs):
        origins: dict[str, int] = {}
        for c in draft.candidates:
            origins[c[2]] = origins.get(c[2], 0) + 1
        seen.append(origins)
        return real_choose(draft, *args, **kwargs)

    monkeypatch.setattr(generate, "choose", choose)
    path = embed_all(sorted({"中国", "北京", "上海", *PROVINCES, *HUB_PEOPLE}), "use-m3", str(tmp_path / "cache"),
                     str(tmp_path / "vectors.arrow"))
    index, matrix = read_vectors(path)
    scorer = _Scorer(index, matrix, {("rel", "首都", freq_bin(1)): [(p, "place") for p in PROVINCES]}, 0.0)
    records = [("out", _edge("p_cn", "中国", None, "首都", "北京", "place", "place"))]
    records += [("in", _edge(f"p_{i}", name, None, "国籍", "中国", "place")) for i, name in enumerate(HUB_PEOPLE)]
    # each person's own neighbours, as their hop messages give them
    hops = {name: {"name": name, "type": "person", "count": 1, "aliases": frozenset(),
                   "neighbours": [("上海", "place")]} for name in HUB_PEOPLE[:two_hop]}
    group_items("中国", records, hops, scorer, ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa",),
                                                         one_hop_limit=limit), lambda k, n: None)
    return seen


def test_a_hub_s_questions_draw_on_a_seeded_sample_of_its_edges_not_on_all(tmp_path, monkeypatch):
    """Each question of a group looked at every edge of it: 中国's questions
    at every person of that nationality, which at a corpus's scale is the
    square of millions. Beyond one_hop_limit the 1-hop and the 2-hop names are
    a seeded sample, the same on every question and every rerun."""
    asked = _hub_candidates(tmp_path, monkeypatch, limit=128, two_hop=300)
    assert asked  # 首都 北京 was asked (the people's heads are not: 国籍 has 300 of them)
    for origins in asked:
        # 1-hop: the 128 sampled heads; 2-hop: 上海 from each of 128 sampled people
        assert origins["neighbour"] == 128 + 128
    everything = _hub_candidates(tmp_path / "all", monkeypatch, limit=0, two_hop=300)
    assert all(origins["neighbour"] == 300 + 300 for origins in everything)
    with pytest.raises(ValueError, match="one_hop_limit"):
        ItemsConfig(one_hop_limit=-1)


def test_one_hop_sample_keeps_a_small_group_whole_and_samples_a_large_one_the_same_way_each_time():
    from transforms.items.group_input import one_hop_sample, read_group

    edges = [_edge(f"p_{i}", name, None, "国籍", "中国", "place") for i, name in enumerate(HUB_PEOPLE)]
    assert one_hop_sample(edges[:128], 128, 0) == edges[:128]
    sample = one_hop_sample(edges, 128, 0)
    assert len(sample) == 128 and sample == one_hop_sample(edges, 128, 0)
    assert sample == [e for e in edges if e in sample]  # in the group's own order
    assert sample != one_hop_sample(edges, 128, 1)  # seeded
    # read as a stream, the group's in-edges give the same sample in any order
    ordered = sorted(edges, key=lambda e: (e[0], e[4], e[1]))
    assert read_group([("in", e) for e in reversed(edges)], 128, 0).ins_sample == one_hop_sample(ordered, 128, 0)
    hops = [("hop", name, {}) for name in HUB_PEOPLE]
    assert read_group(hops[:5], 128, 0).hop_keys == sorted(HUB_PEOPLE[:5])
    keys = read_group(hops + hops[:50], 128, 0).hop_keys  # a neighbour named twice is one
    assert len(keys) == 128 == len(set(keys)) and keys == sorted(keys)
    assert keys == read_group(list(reversed(hops)), 128, 0).hop_keys != read_group(hops, 128, 1).hop_keys


def test_a_hub_s_heads_are_counted_once_per_relation_not_once_per_head(monkeypatch):
    """Whether a head question has one answer (templates.head_askable) hangs
    on how many heads its relation has: counted for each in-edge, that was
    the square of a hub's heads (4.9 s for a name of 8,000 heads, hours for
    中国 with a corpus's millions)."""
    from transforms.items import generate, group_input

    calls = [0]
    real = generate.normalise

    def counted(text):
        calls[0] += 1
        return real(text)

    monkeypatch.setattr(generate, "normalise", counted)
    monkeypatch.setattr(group_input, "normalise", counted)

    class NoScores:
        def similar(self, gold, texts):
            return {t: 0.5 for t in texts}

        def pool(self, pool_key, gold):
            return []

    heads = [f"{a}{b}{c}" for a in "赵钱孙李周吴郑王" for b in "一二三四五六七八九十" for c in "甲乙丙丁戊己庚辛壬癸"]
    # 800 works of one author (a hub of the 作者 relation, which has a head question)
    records = [("in", _edge(f"p_{i}", f"《{h}集》", None, "作者", "某作家", "person", "work"))
               for i, h in enumerate(heads)]
    counts: dict[str, int] = {}
    group_items("某作家", records, {}, NoScores(), ItemsConfig(tasks=("qa",)),
                lambda k, n: counts.__setitem__(k, counts.get(k, 0) + n))
    assert counts["skipped|head_not_unique"] == len(heads)  # which of 800 works? no one answer
    assert calls[0] <= 4 * len(heads)
