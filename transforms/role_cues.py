"""The cue tables of the role check (transforms/roles.py), kept apart as data.

Which words cue which relation, which relations must be said of the
entity's kind of thing (a nationality of a person, a genre of a work), and
which need their cue in the mention's sentence. Each entry was found on the
labelled set (docs/alignment.md); the logic that reads them is in roles.py.
"""
from __future__ import annotations

import re

# Relations whose values are awards or honours (主要奖项, 获得奖项, 主要成就).
AWARD_RELATION = re.compile(r"奖|成就|荣誉")
# Relations whose values are occupations, each a word (`演员`, `音乐人`).
OCCUPATION_RELATIONS = frozenset({"职业", "身份"})
# Where a sight is: its street address or its place.
ADDRESS_RELATIONS = frozenset({"地址", "详细地址", "位置", "地理位置"})
# Relations whose values are a song's singer.
SINGER_RELATIONS = frozenset({"歌手", "歌曲原唱", "演唱歌手", "演唱者", "原唱", "专辑歌手"})
# Relations whose values are the schools a person studied at.
ALMA_MATER = frozenset({"毕业院校", "毕业学校", "母校"})

# Canonical relation -> cue words. Relations are matched by name, after
# stripping the suffixes in roles._STEM_SUFFIXES; the relation name and its stem are
# always cues of their own.
_FOUNDED = ("创办", "创建", "成立", "组建", "建立", "始建", "建校", "创立", "诞生", "建于", "兴建", "建成", "落成")
CUE_TABLE: dict[str, tuple[str, ...]] = {
    "导演": ("执导", "导演", "指导", "编导", "自导"),
    # An animated film's cast are its voices (`由A、B配音的动画片`); a cast
    # list may end `等参加演出`.
    "主演": ("主演", "出演", "演员", "领衔", "饰演", "参演", "联袂", "扮演", "饰", "配音", "自演", "演出"),
    "编剧": ("编剧", "剧本", "编写", "编导", "执笔"),
    # The main character of a work is said to be its lead (`女主角`, `主人公`),
    # not merely a part someone plays in it.
    "主角": ("主角", "主人公", "男主", "女主"),
    "原著": ("原著", "改编自", "小说", "原作"),
    # `词曲` is both a song's words and its music (`光良词曲创作并演唱`, `词曲：罗大佑`).
    "作词": ("作词", "填词", "词作", "词曲"),
    "填词": ("作词", "填词", "词作", "词曲"),
    "作曲": ("作曲", "谱曲", "曲作", "词曲"),
    "谱曲": ("作曲", "谱曲", "曲作", "词曲"),
    "编曲": ("编曲",),
    "歌手": ("演唱", "原唱", "歌手", "演绎"),
    "歌曲原唱": ("演唱", "原唱", "歌手", "演绎"),
    "演唱歌手": ("演唱", "原唱", "歌手", "演绎"),
    "演唱者": ("演唱", "原唱", "歌手"),
    "专辑歌手": ("演唱", "歌手", "专辑", "发行", "推出"),  # `是王菲发行的一张粤语专辑`
    "制作人": ("制作人",),
    "音乐风格": ("风格", "曲风", "歌曲", "音乐", "单曲", "元素", "唱法", "乐曲"),
    "制片地区": ("电影", "影片", "剧情片", "动画片", "纪录片", "出品", "制片"),
    # `监制` (executive producer) is a credit of its own, no 制片人 (docs/alignment.md, conventions).
    "制片人": ("制片", "制作"),
    "出品公司": ("出品", "制作", "出品方"),
    # A film's distributor releases it (`由焦点电影公司发行`); `出品` credits its producer.
    "发行公司": ("发行",),
    "所属专辑": ("专辑", "收录"),
    "发行时间": ("发行", "推出", "发布"),
    # A film's release is also said as its 发行 or 推出 (`于2015年7月10日推出的一部动画片`).
    "上映时间": ("上映", "公映", "首映", "播出", "首播", "开播", "播映", "上线", "发行", "推出", "定档"),
    # A co-production is a production (`一部2002年美德合拍的间谍片`).
    "出品时间": ("出品", "合拍"),
    "拍摄日期": ("拍摄", "开拍", "开机", "杀青"),
    "拍摄时间": ("拍摄", "开拍", "开机", "杀青"),
    "拍摄地点": ("拍摄", "取景", "开拍", "实景"),
    "创办时间": _FOUNDED,
    "成立时间": _FOUNDED,
    "成立日期": _FOUNDED,
    "创刊时间": ("创刊",),
    "逝世日期": ("逝世", "去世", "病逝", "牺牲", "辞世", "卒", "遇害"),
    "出生日期": ("出生", "生于"),
    "出生地": ("出生", "生于"),
    "籍贯": ("籍贯", "祖籍"),
    "毕业院校": ("毕业", "就读", "考入", "学位", "学习", "肄业"),
    "曲目数量": ("曲目", "歌曲", "收录"),
    "歌曲数量": ("曲目", "歌曲", "收录"),
    "代表作品": ("作品", "代表作", "出演", "主演", "执导", "导演", "演唱", "发行", "创作", "提名", "凭借"),
    "主要作品": ("作品", "代表作", "出演", "主演", "执导", "导演", "演唱", "发行", "创作", "提名", "凭借"),
    "主要奖项": ("获得", "获", "荣获", "奖"),
    "获得奖项": ("获得", "获", "荣获", "奖"),
    "主要成就": ("获得", "获", "荣获", "当选", "成就"),
    # A spouse is also named from the other side (`X是Y的妻子` states X's 丈夫 Y).
    "妻子": ("妻子", "结婚", "夫人", "太太", "嫁", "老婆", "娶", "丈夫", "老公"),
    "丈夫": ("丈夫", "结婚", "嫁", "先生", "老公", "妻子", "夫人", "老婆", "皇后"),
    "父亲": ("父亲", "之子", "之女", "儿子", "女儿", "爸爸", "老爸"),
    "母亲": ("母亲", "之子", "之女", "儿子", "女儿", "妈妈"),
    "董事长": ("董事长",),
    "创始人": ("创始人", "创办", "创建", "创立", "创始", "成立"),  # `1999年马云成立阿里巴巴集团`
    "校长": ("校长",),
    "现任校长": ("校长",),
    "作者": ("作者", "著", "创作", "写"),
    "主持人": ("主持",),
    "嘉宾": ("嘉宾",),
    "主管单位": ("主管",),
    "主管部门": ("主管", "属"),
    "主办单位": ("主办",),
    # A company's seat is also where it was founded or where it lies (`成立于德国`, `位于杭州`).
    "总部地点": ("总部", "厂址", "社址", "会址", "位于", "坐落", "座落", "地处", "设在", "落户", "成立于", "创立于", "创办于"),
    "连载网站": ("连载",),
    "出版社": ("出版",),
    "简称": ("简称",),
    # A nationality is said as an attribute of what the person is: 英国导演, 印度模特.
    "国籍": ("国籍", "籍", "演员", "导演", "歌手", "作家", "模特", "学家", "编剧", "企业家", "运动员",
           "政治家", "艺术家", "画家", "诗人", "音乐人", "主持人", "球员", "男星", "女星", "明星", "商人",
           "声优", "艺人", "作曲家", "音乐家", "制片人", "制作人", "乐队", "组合", "偶像", "舞者", "配音",
           "来自", "国家", "国家及地区"),
    "民族": ("族",),
}
# Relations whose cues are nouns the value qualifies (`英国导演`, `一部美国电影`):
# when such a noun stands in the mention's clause without binding it, the
# value qualifies something else (`日本老电影里…出演最多的女星`). A clause with no
# cue at all stays neutral.
BOUND_IN_CLAUSE = frozenset({"国籍", "制片地区"})
# A person's part in a work (cue_index.ROLE_VERBS mark these even when the entry lacks the part).
CREDIT_RELATIONS = frozenset({"导演", "编剧", "主演", "作词", "填词", "作曲", "谱曲", "编曲", "歌手", "演唱者",
                              "歌曲原唱", "原唱", "演唱歌手", "制作人", "制片人", "监制", "出品人"})
# A credit written two ways is one role (填词 for 作词, 演唱者 for 歌手): the items
# stage asks it among the values of either (transforms/items/graph.py).
CREDIT_ROLE = {"填词": "作词", "谱曲": "作曲", "演唱者": "歌手", "歌曲原唱": "歌手", "原唱": "歌手", "演唱歌手": "歌手"}


def role_of(relation: str) -> str:
    """The role a relation names: a credit written two ways is one (CREDIT_ROLE)."""
    return CREDIT_ROLE.get(relation, relation)


# Relations whose values are people. A person never fills a date's or an
# album's role, nor they a person's (align_kinds); and the noun a nationality
# qualifies (`日本女演员`) says nothing of a name listed before it
# (`邓超与中国女演员孙俪结婚`).
# Kin of one sex: a woman is no father, husband or son, a man no mother, wife
# or daughter (align_kinds reads the value's title, other_roles the word before it).
MALE_KIN = frozenset({"父亲", "丈夫", "儿子"})
FEMALE_KIN = frozenset({"母亲", "妻子", "女儿"})
KIN_RELATIONS = MALE_KIN | FEMALE_KIN
PERSON_RELATIONS = CREDIT_RELATIONS | KIN_RELATIONS | {"作者", "董事长", "创始人", "校长", "现任校长", "总经理", "嘉宾",
                                                       "主持人", "配音", "主角", "专辑歌手"}
# What such a value qualifies when it is theirs, a few characters on: a person
# (`中国著名建筑师`, `苏格兰人`) or a work (`香港动作片`).
QUALIFIED = {
    "国籍": re.compile(r"[\u4e00-\u9fff]{0,8}?(?:师|家|员|手|人|者|星|优|士|官|长|总统|总理|首相|国王|女王|王子|公主"
                     r"|乐队|乐团|组合)"),
    "制片地区": re.compile(r"[\u4e00-\u9fff]{0,8}?(?:片|剧|电影|影片|动画|纪录)"),
}
# What a country qualifies when it is not a person's nationality: a work, a
# time or a doctrine of that country (`中国当代电视剧`, `中国特色社会主义`).
QUALIFIES_A_THING = {
    "国籍": re.compile(r"(?:当代|现代|近代|古代|古典|传统)?(?:电视剧|电影|影视剧|影片|特色|社会主义|历史|文化|文学|传统|风格)"),
}
# A character that someone is said to play (`王宝强饰演了执着的新兵许三多`) is a
# part of the work, not said to be its lead: unless a cue of 主角 binds it.
PART_PLAYED = {"主角": re.compile(r"(?:饰演|扮演|饰)[^，。；;]{0,12}$")}
# The one-character keys of a song's credit line (`词：甲 曲：乙 唱：丙`,
# `【词/甲、曲/乙】`): cues of their credit only before a colon or a slash,
# and never as the end of a longer word (`歌词：`, `主题曲：`, `主编：` are no
# credits; `编` is left out for that reason). Outside such a line the
# characters are too common to count.
_SONG_SINGERS = tuple(sorted(SINGER_RELATIONS - {"专辑歌手"}))  # an album's singer is keyed by no song's line
CREDIT_KEYS = {"词": ("作词", "填词"), "曲": ("作曲", "谱曲"), "唱": _SONG_SINGERS, "主唱": _SONG_SINGERS}
CREDIT_KEY_RE = re.compile(r"(?<![作填歌台讲祝致誓奖献贺幕题念颂宋诗唱说名动代量副连助叹键挽悼答谢])词(?=\s*[：:/／])"
                           r"|(?<![作谱编歌词题插舞乐名金组序戏单新选神首尾头奏响夜元散琴唱])曲(?=\s*[：:/／])"
                           r"|主唱(?=\s*[：:])"
                           r"|(?<![演原翻合主领独伴和对说传歌清轮齐重])唱(?=\s*[：:/／])")
# Relations stated only by a mention their cue binds: style words are common
# adjectives of music texts (`流行组合`, `摇滚乐队`, `民谣歌手`), and a song's
# style is said of the song (`一首流行歌曲`, `曲风以摇滚为主`).
BOUND_ONLY = frozenset({"音乐风格", "类型"})
# A genre is said of the work (`一部动作片`, `科幻冒险电影`, `综合性大学`), or the
# value is itself the noun (`爱情片`); `同名科幻漫画` is the genre of the
# comic a film is based on, `打斗场面的故事` a scene.
_GENRE_NOUN = r"(?:片|电影|影片|剧|故事|动画|大学|学院|学校|公司|企业|歌曲|专辑|小说|游戏|节目|杂志|期刊)"
# `亚洲奇幻电影节` names a festival, not the genre of a film.
QUALIFIED["类型"] = re.compile(r"[\u4e00-\u7683\u7685-\u9fff、]{0,5}?" + _GENRE_NOUN + "(?![节奖展])")  # never across 的
SELF_QUALIFIED = {"类型": re.compile(_GENRE_NOUN + "$")}
# Relations of a secondary event of a work (its shooting): a date or place with
# no cue of that event in its sentence is another event's (`该片以2014年…为背景`,
# `两人在巴黎重逢`), while a birth date or a founding date is what a bare date
# of a person's or an institution's page usually is.
SENTENCE_CUE_ONLY = frozenset({"拍摄日期", "拍摄时间", "拍摄地点", "拍摄地", "取景地", "取景地点",
                               "作词", "填词", "作曲", "谱曲", "编曲", "制作人", "主唱",
                               "乐队成员", "组合成员", "成员"})
# A song's credits: a name in a sentence that says nothing of words or music
# (`演唱了张悬的《宝贝》`) is not its lyricist or composer. Any of these words in
# the sentence is enough (`词：林夕`, `词曲创作`, `X词Y曲`); they need not bind.
_LYRICS = re.compile(r"词|创作|打造|写")
_MUSIC = re.compile(r"作曲|谱曲|词曲|曲作|[写供谱]曲|的曲|曲\s*[：:]|[\u4e00-\u9fff]{2,4}曲[\u4e00-\u9fff]{2,4}演唱|创作|打造|写")
SENTENCE_EVIDENCE = {"作词": _LYRICS, "填词": _LYRICS, "作曲": _MUSIC, "谱曲": _MUSIC,
                     "编曲": re.compile(r"编曲|编\s*[：:]"), "制作人": re.compile(r"制作|监制")}
# A band's members are said to be in it (`由A、B组成`, `主唱A`, `加入`): the
# songwriter of an album's songs (`李志先生…所写`) is not one of them.
_MEMBERS = re.compile(r"成员|组成|组建|成立|加入|主唱|吉他|贝斯|鼓手|键盘|乐手|队长|团员|退出|离开")
SENTENCE_EVIDENCE.update({"乐队成员": _MEMBERS, "组合成员": _MEMBERS, "成员": _MEMBERS})
