"""The aligner's work on a hostile text is bounded (issue 10, with issue 11's hostile input).

A text within `cleaning.max_text_length` can still name one value thousands
of times, hold thousands of cues in one clause, or be a comma list of
thousands of names. Each mention's role is read from its clause, so without
bounds one such entry cost the square of its length (14 s for a 9,600-character
credit line of `词：曲：唱：`, 4 s for `张三，` repeated). These tests count
the work, not the time (the machines are noisy): each fails on the code
before the bounds.
"""
from __future__ import annotations

import pytest

from transforms import align, roles
from transforms.pairs import validate_raw_entry
from transforms.redundancy import CleaningConfig, clean_entry


def _entry(text: str, rows: list[tuple[str, str]]) -> dict:
    raw = {"url": "https://baike.example/item/某片/1", "source": "baidu", "lemma_id": "1", "title": "某片",
           "subtitle": None, "summary": text,
           "infobox": [{"name": r, "value": v, "value_links": []} for r, v in rows],
           "links": [], "tags": [], "depth": 0, "seed": "x", "fetched_at": "2026-01-01T00:00:00Z"}
    entry, errors = validate_raw_entry(raw)
    assert entry is not None, errors
    return entry


def _counting(monkeypatch, module, name: str) -> list[int]:
    calls = [0]
    real = getattr(module, name)

    def counted(*args, **kwargs):
        calls[0] += 1
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, counted)
    return calls


def _accounted(entry: dict) -> dict:
    """Every triple is kept or dropped with a reason: the bounds lose nothing silently."""
    res = clean_entry(entry, CleaningConfig())
    kept = (res.pair or {}).get("triples", [])
    assert len(kept) + len(res.dropped_triples) == len(entry["infobox"])
    assert all(reason and detail for _, reason, detail in res.dropped_triples)
    return {t["tail"]: t for t in kept}


def test_a_value_named_thousands_of_times_has_the_role_of_its_first_mentions_read(monkeypatch):
    text = "张三，" * 3000  # 9,000 characters, within max_text_length
    calls = _counting(monkeypatch, align._roles, "name_role")
    kept = _accounted(_entry(text, [("主演", "张三"), ("导演", "李四")]))
    # the exact level's candidates, then the alias level's, each cut at MAX_MENTIONS
    assert calls[0] <= 2 * align.MAX_MENTIONS
    assert kept["张三"]["start"] == 0  # the earliest mention still wins on equal evidence


def test_a_clause_of_thousands_of_credit_keys_joins_only_the_nearby_ones(monkeypatch):
    text = "词：曲：唱：" * 1600
    groups = _counting(monkeypatch, roles, "_left_group")
    joins = _counting(monkeypatch, roles, "_joins")
    _accounted(_entry(text, [("作词", "词曲"), ("歌手", "王菲")]))
    assert groups[0] > 0
    # cues more than _LIST_REACH characters off are never looked at: a few per
    # group, where the whole clause (thousands) was walked for each
    assert joins[0] <= groups[0] * roles._LIST_REACH


def test_a_comma_list_of_thousands_of_names_is_followed_only_so_far(monkeypatch):
    text = "张三，" * 3300
    lists = _counting(monkeypatch, roles, "_comma_list_end")
    clauses = _counting(monkeypatch, roles, "clause_span")
    _accounted(_entry(text, [("主演", "张三")]))
    assert lists[0] > 0
    # name_role reads its own clause (twice at most) and the list, up to its reach
    assert clauses[0] <= lists[0] * (roles._COMMA_LIST_REACH + 4)


@pytest.mark.parametrize("names", [3, 30])
def test_a_cast_list_written_with_commas_still_binds_every_name_to_its_cue(names):
    """The reach leaves real lists whole: the last of 30 bare names before `主演` is bound."""
    cast = [f"{a}{b}" for a in "赵钱孙李周吴郑王冯陈" for b in "甲乙丙"][:names]
    text = "《某片》由某导演执导，" + "，".join(cast) + "主演。"
    kept = _accounted(_entry(text, [("主演", cast[0]), ("主演", cast[-1])]))
    assert {kept[cast[0]]["cue"], kept[cast[-1]]["cue"]} == {"主演"}
    assert kept[cast[0]]["support_score"] == kept[cast[-1]]["support_score"] == 1.0


def test_a_clause_of_thousands_of_cues_is_read_near_each_mention(monkeypatch):
    """`甲主演乙主演…` over 9,900 characters is one clause of 2,475 cues: each
    mention reads the nearest `_CUE_REACH` on either side, not all of them
    (1,000 rows took 0.86 s, the clause read whole by each)."""
    names = [a + b for a in "张王李赵刘陈杨黄周吴徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹"
             for b in "张王李赵刘陈杨黄周吴徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘于蒋蔡余杜叶程苏魏吕丁任沈姚卢姜崔钟谭陆汪范金石廖贾夏韦付方白邹"]
    text = "主演".join(names[:2475])
    rows = [("主演", n) for n in names[:1000]]
    separators = _counting(monkeypatch, roles, "_separator")
    kept = _accounted(_entry(text, rows))
    assert len(kept) == 1000 and {t["cue"] for t in kept.values()} == {"主演"}
    # one look at each cue right of a mention, within reach, and one at the cue left of it
    assert separators[0] <= len(rows) * (2 * 64 + 2)  # roles._CUE_REACH


def test_a_sentence_of_hundreds_of_dates_binds_each_to_its_own_clause(monkeypatch):
    """Each cue binds the nearest date of its clause, found once per sentence
    (the sentence's dates were read by every cue of every mention: 900 dates
    took 1.3 s). A date of an 出品 clause is no 上映时间, and the other way
    round, at every place in the list."""
    dates = [f"{1900 + i // 12}年{i % 12 + 1}月{i % 28 + 1}日" for i in range(400)]
    # the cue opens its clause, the date ends it: the date nearest the cue is the one before it, of the
    # clause before, and only the clause tells them apart
    text = "，".join(f"{'上映' if i % 2 else '出品'}在这一年里一个晴朗的日子{d}" for i, d in enumerate(dates)) + "。"
    rows = [("上映时间", d) for d in dates[1::2]] + [("出品时间", d) for d in dates[::2]]
    rows += [("上映时间", dates[0]), ("出品时间", dates[-1])]  # each in the other's clause
    clauses = _counting(monkeypatch, roles, "clause_span")
    res = clean_entry(_entry(text, rows), CleaningConfig())
    kept = {(t["relation"], t["tail"]): t for t in (res.pair or {}).get("triples", [])}
    assert len(kept) == 400
    assert {t["cue"] for (rel, _), t in kept.items() if rel == "上映时间"} == {"上映"}
    assert {t["cue"] for (rel, _), t in kept.items() if rel == "出品时间"} == {"出品"}
    dropped = {(t["relation"], t["tail"]) for t, _, _ in res.dropped_triples}
    assert dropped == {("上映时间", dates[0]), ("出品时间", dates[-1])}
    # each cue's clause is read once for the sentence, not once per mention (47,362 reads before)
    assert clauses[0] <= 2 * len(dates)


def test_a_long_landmark_cell_tries_a_bounded_number_of_tails(monkeypatch):
    """A `…侧` address tries ever-shorter tails of its landmark, and each tail
    compiled its own pattern of the side: a 4,000-character cell took 9.7 s
    (session 41's review). The text's sides are found once, and a landmark's
    name is bounded (`addresses._LONGEST_LANDMARK`)."""
    from transforms import addresses
    sides = _counting(monkeypatch, addresses, "_side")
    text = "某园西侧，" * 1000
    assert addresses.address_spans("北京市海淀区" + "寺" * 4000 + "西侧", text) == []
    assert sides[0] <= 1  # once per cell, not once per tail (3,999 before)
    # a short cell still finds its landmark's side
    text = "圆明园在颐和园以东，两园相距不过两公里。"
    assert [text[j:k] for j, k in addresses.address_spans("北京市海淀区颐和园东侧", text)] == ["颐和园以东"]
