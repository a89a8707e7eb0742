"""Longer names that jieba cannot see, and that a mention must not be cut from.

The segmentation of transforms/mentions.py knows dictionary words and the
entry's own names. Five kinds of name escape both, and a value inside them
is not stated (docs/alignment.md, rule 4):

- a title in 《》 that holds more than the value: `《上海大学学报（自然科学版）》`
  does not state `类别 自然科学`, `《巴黎最后的探戈》` not `拍摄地点 巴黎`
  (the part before a closing bracket, and the bracket's content, are names
  of the work too: `《上五楼的快活(豪华版)》` states `上五楼的快活`, as the
  title before a subtitle does: `《香水：一个谋杀犯的故事》` states `香水`);
- an award or event numbered by its edition, `第N届…奖/节/榜/赛`:
  `第57届德国电影奖` does not state `制片地区 德国`, `第2届全球流行音乐金榜`
  not `音乐风格 流行`;
- an event or chart named by its year or by the music it ranks:
  `2009年度北京流行音乐典礼`, `原创音乐流行榜` do not state `音乐风格 流行`;
- an award named by the guild or academy that gives it: `美国制片人工会奖`
  does not state `职业 制片人`;
- a quoted name of an institution, award, programme or show (“…大学联盟”,
  “…年度最佳音乐电视奖”, “诺亚方舟世界巡回演唱会” does not state the work
  `诺亚方舟`), or of an honour or a project the text calls one (“…女歌手”称号,
  “顶美鸟巢-空中走廊”项目: each quoted occurrence of it is the name); quotes
  around a plain phrase (“环保纪录片”) are emphasis, not a name, and do not count.

A relation whose values are awards or honours (`主要奖项`, `主要成就`) is
exempt: its value is often a piece of the award's full name.
"""
from __future__ import annotations

import re
from functools import lru_cache

_TITLE = re.compile(r"《([^《》\n]{1,80})》")
_EDITION = re.compile(r"第[0-9０-９一二三四五六七八九十百零〇两]+(?:届|屆)"
                      r"[^，。；;、,\n《》“”\"（）()]{1,24}?(?:奖|獎|节|榜|赛|盛典|典礼|展)")
# Events and charts named by their year (`N年度`), or by the music they rank, hold what they
# name: `2009年度北京流行音乐典礼`, `中国原创音乐流行榜` do not state `音乐风格 流行`.
_YEAR_EVENT = re.compile(r"[0-9]{4}年度[^，。；;、,\n《》“”\"（）()的]{1,16}?(?:奖|獎|节(?!目)|榜|盛典|典礼|大赏)")
_CHART = re.compile(r"[\u4e00-\u9fff]{0,8}?(?:音乐|流行|金曲|歌曲)(?:排行榜|榜|典礼|盛典|大赏|节)")
# Awards named by the body that gives them: `美国制片人工会奖` does not state
# `职业 制片人`, `纽约影评人协会奖` not `国籍 美国`.
_GUILD_AWARD = re.compile(r"[\u4e00-\u9fff]{2,10}?(?:工会|公会|协会|学会|学院)奖")
_QUOTED = re.compile(r"[“「『]([^“”「」『』\n]{2,60})[”」』]")
_NAME_END = re.compile(r"(?:奖|獎|节|榜|赛|盛典|典礼|大学|学院|学校|公司|集团|联盟|协会|学会|委员会|中心|"
                       r"研究所|研究院|实验室|工程|计划|基地|项目|乐团|乐队|剧团|电视台|电台|"
                       r"演唱会|音乐会|巡演|巡回演出|演出|展览|晚会)$")
# What a quoted honour or project is called after its name (`获得“…最受欢迎女歌手”称号`,
# `“顶美鸟巢-空中走廊”项目`).
_KIND_AFTER = re.compile(r"(?:称号|荣誉|头衔|奖|项目|工程)")
_SUBTITLE = re.compile(r"(?<=[^\s：:])\s*[：:]")
_BRACKETED = re.compile(r"[（(]([^（）()]+)[）)]$")
_ITEM_SEP = re.compile(r"[、，,/／]")
_AWARD_RELATION = re.compile(r"奖|成就|荣誉|提名|称号")

# The patterns above, each with what every match of it must hold: most texts
# hold none, and a pattern that opens with a lazy run of characters
# (_CHART, _GUILD_AWARD) costs a try at every position of the text.
_NAME_RXS = ((_EDITION, re.compile("[届屆]")), (_YEAR_EVENT, re.compile("年度")),
             (_CHART, re.compile("(?:音乐|流行|金曲|歌曲)(?:排行榜|榜|典礼|盛典|大赏|节)")),
             (_GUILD_AWARD, re.compile("(?:工会|公会|协会|学会|学院)奖")))


@lru_cache(maxsize=256)
def name_spans(text: str) -> tuple[tuple[int, int], ...]:
    """[start, end) of every title content, edition- or year-numbered event
    name, chart name and quoted institution name of the text (one list item
    each)."""
    out: list[tuple[int, int]] = []
    for m in _TITLE.finditer(text):
        out.append(m.span(1))
        for b in _BRACKETED.finditer(m.group(1)):  # 《小号练习中（ラッパ练习中）》: two names of one work
            out.append((m.start(1), m.start(1) + b.start()))
            out.append((m.start(1) + b.start(1), m.start(1) + b.end(1)))
        sub = _SUBTITLE.search(m.group(1))
        if sub:  # 《香水：一个谋杀犯的故事》: the title before its subtitle names the work too
            out.append((m.start(1), m.start(1) + sub.start()))
    for rx, needed in _NAME_RXS:
        if needed.search(text):
            out.extend(m.span() for m in rx.finditer(text))
    quoted = list(_QUOTED.finditer(text))
    # “…台湾区最受欢迎女歌手”称号: one honour's name, wherever it is quoted
    kinds = {m.group(1) for m in quoted if _KIND_AFTER.match(text, m.end())}
    for m in quoted:
        if m.group(1) in kinds:
            out.append(m.span(1))
            continue
        base = m.start(1)
        for item in _ITEM_SEP.split(m.group(1)):
            k = text.find(item, base)
            if _NAME_END.search(item.strip()):
                out.append((k, k + len(item)))
            base = k + len(item)
    return tuple(sorted(set(out)))


def inside_longer_name(text: str, start: int, end: int, relation: str | None = None) -> str | None:
    """The longer name that holds text[start:end] strictly inside it, or None."""
    if relation and _AWARD_RELATION.search(relation):
        return None
    holding = [(a, b) for a, b in name_spans(text) if a <= start and end <= b]
    if not holding:
        return None  # most mentions: no name holds them, and the mention need not be sliced
    mention = text[start:end].strip()
    if any(text[a:b].strip() == mention for a, b in holding):
        return None  # the mention is one of the names (`《上五楼的快活(豪华版)》` names 上五楼的快活)
    return text[holding[-1][0]:holding[-1][1]]
