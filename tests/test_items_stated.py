"""A distractor the asked entity's text states in the asked role is turned away (items/stated.py).

The pages are written here, with real facts: 莱昂纳多·迪卡普里奥 is an actor and a
producer born in Los Angeles; 林宥嘉 sang 《想自由》, with words by 姚若龙 and
music by 郑楠.
"""
from __future__ import annotations

from pipeline.items_embed import embed_all, read_vectors
from pipeline.items_stage import _Scorer
from transforms.items.config import ItemsConfig
from transforms.items.generate import group_items
from transforms.items.graph import freq_bin
from transforms.items.stated import TEXT_RECORD, StatedInText, page_text_record
from transforms.text import normalise

LEO = "莱昂纳多·迪卡普里奥"
LEO_TEXT = f"{LEO}1974年生于美国加利福尼亚州的洛杉矶。他做演员，同时兼任制作人，曾主演《泰坦尼克号》。"
LEO_TRIPLES = (("职业", "演员"), ("出生地", "洛杉矶"), ("国籍", "美国"), ("代表作品", "泰坦尼克号"))
SONG_TEXT = "《想自由》收进林宥嘉的专辑《大小说家》，林宥嘉演唱，姚若龙作词，郑楠作曲。"


def test_a_name_the_text_states_in_the_asked_role_is_stated():
    leo = StatedInText(LEO, None, LEO_TEXT, LEO_TRIPLES)
    assert leo("制作人", "职业")  # `兼任制作人`: his occupation, missing from the infobox
    assert leo("加利福尼亚州", "出生地")  # where Los Angeles is: a second right answer
    assert not leo("导演", "职业")  # not in the text: the graph's word stands
    assert not leo("泰坦尼克号", "职业")  # named, as a film he starred in


def test_a_name_the_text_gives_another_role_stays_a_distractor():
    song = StatedInText("想自由", None, SONG_TEXT, (("歌手", "林宥嘉"), ("填词", "姚若龙"), ("谱曲", "郑楠")))
    assert song("姚若龙", "填词")
    assert not song("林宥嘉", "填词")  # `林宥嘉演唱`: the singer, a hard wrong answer
    assert not song("郑楠", "填词")  # `郑楠作曲`
    assert not song("《大小说家》", "填词")


def test_page_text_record_keys_the_text_by_the_entity_name():
    pair = {"pair_id": "p1", "entity": LEO, "subtitle": None, "text": LEO_TEXT,
            "triples": [{"relation": r, "tail": t} for r, t in LEO_TRIPLES]}
    ((key, (kind, pair_id, page)),) = page_text_record(pair)
    assert (kind, pair_id, page[0], page[3][0]) == (TEXT_RECORD, "p1", LEO, ("职业", "演员"))
    assert key == normalise(LEO)
    assert page_text_record({**pair, "text": ""}) == []


OCCUPATIONS = ["制作人", "歌手", "作家", "主持人", "模特", "导演", "编剧", "配音员", "摄影师", "吉他手"]


def test_the_question_never_offers_what_the_page_states(tmp_path):
    """Asked for 演员, the options drew 制作人 from the 职业 pool; his page says
    he is one. With the page, 制作人 is turned away and counted, and the nine
    others are the options; with one candidate fewer, nine are too few and the
    triple is not asked. Without a page (no text to ask) 制作人 is offered."""
    path = embed_all(sorted({LEO, "演员", *OCCUPATIONS}), "use-m3", str(tmp_path / "cache"),
                     str(tmp_path / "vectors.arrow"))
    index, matrix = read_vectors(path)
    records = [("out", ("p_leo", LEO, None, "person", "职业", "演员", "other", "HS", "train", True))]
    cfg = ItemsConfig(band_low=0.0, band_high=0.99, tasks=("qa",))
    page = {"p_leo": StatedInText(LEO, None, LEO_TEXT, LEO_TRIPLES)}

    def ask(pool: list[str], texts) -> tuple[list[dict], dict[str, int]]:
        scorer = _Scorer(index, matrix, {("rel", "职业", freq_bin(1)): [(o, "other") for o in pool]}, 0.0)
        counts: dict[str, int] = {}
        items = group_items(LEO, records, {}, scorer, cfg, lambda k, n: counts.__setitem__(k, counts.get(k, 0) + n),
                            texts)
        return items, counts

    (item,), counts = ask(OCCUPATIONS, page)
    assert set(item["options"]) == {"演员", *OCCUPATIONS} - {"制作人"}
    assert counts["rejected|stated_in_text"] == 1
    items, counts = ask(OCCUPATIONS[:9], page)
    assert items == [] and counts["skipped|too_few_distractors"] == 1
    (blind,), _ = ask(OCCUPATIONS[:9], None)
    assert set(blind["options"]) == {"演员", *OCCUPATIONS[:9]}
