"""Other surface forms of a value that Baike texts use (issue 10 §3).

Each form is a matching level of its own, named in a triple's `match` and
switched on or off in `AlignConfig`:

- `demonym`: `上海人` states `出生地 上海市` (a place, its admin suffix
  dropped, followed by 人 as the native of it);
- `place`: `出生于苏州` states `出生地 中国江苏省苏州市`; the country and
  the larger units before the last one only locate it (transforms/places.py;
  an address has rules of its own, transforms/addresses.py);
- `list_item`: `是北方大学联盟、东部高校联盟成员高校` states
  `属性 北方大学联盟成员`: the suffix closing a list belongs to each item;
- `paraphrase`: `教育部与浙江省人民政府共建高校` states `属性 省部共建大学`,
  `音乐创作人` states `职业 音乐人` (OCCUPATION_SYNONYMS), `国语专辑` states
  `专辑语言 中文` (LANGUAGE_SYNONYMS), and `北伐战争…参加了`
  states `主要成就 参加北伐战争` (a deed: its object, its verb in the sentence);
- `lifespan`: `曹渊（1902—1926）` states `出生日期 1902年` and
  `逝世日期 1926年`: the dates in brackets after the entity's name.
- `nationality`: `希腊籍运动员` states `国籍 希腊`, and `国籍：中华人民共和国`
  states `国籍 中国` (jieba reads `希腊籍` as one word, which would hide it);
- `era`: `唐太宗`, `隋炀帝时期`, `明嘉靖三十一年` state `朝代 唐`/`隋`/`明`: a
  dynasty is named by its rulers and its eras, which a word boundary would
  cut it from;
- `transliteration`: `卡罗莱纳的私生女` states `代表作品 卡罗莱那的私生女`:
  a foreign name spelt with other characters of the same sounds;
- `short_name`: `华纳兄弟公司` and `梦工厂` state `出品公司 华纳兄弟娱乐公司`
  and `梦工厂电影发行公司`: a company is named by its distinctive part, the
  generic words of its trade and legal form (电影, 发行, 娱乐, 有限公司)
  dropped or changed. A distinctive part that is a place (`上海` of
  `上海电影制片厂`) is not a name of the company.

Each function returns candidate spans; the caller checks word boundaries and
roles as for any other level.
"""
from __future__ import annotations

import re
from functools import lru_cache

from transforms.addresses import address_spans
from transforms.mentions import jieba_place_names
from transforms.places import ADMIN_SUFFIXES, COUNTRIES, core_forms, core_spans, place_cores, place_stem, provinces
from transforms.quantities import dates_compatible, parse_date
from transforms.role_cues import ADDRESS_RELATIONS, ALMA_MATER, AWARD_RELATION, OCCUPATION_RELATIONS
from transforms.text import clause_span, find_all, sentence_span
from transforms.value_variants import BRACKETS, VARIANT_CHARS

# An address (`地址`, role_cues.ADDRESS_RELATIONS) is a place too: a text that
# gives its most specific part (`东城景山前街4号`) states it, as `北京延庆`
# states 北京市延庆区.
PLACE_RELATIONS = frozenset({"出生地", "籍贯", "出生地点", "祖籍", "家乡", "所在地", "所属地区", "地点",
                             "总部地点", "所在地区", "地区", "所在城市"}) | ADDRESS_RELATIONS
DEMONYM_RELATIONS = frozenset({"出生地", "籍贯", "出生地点", "祖籍", "家乡"})
NATIONALITY_RELATIONS = frozenset({"国籍"})
# Where a work was made is a state or a region too: its short form names it
# (`香港电影` for 中国香港, `日本电影` for 日本国); the other forms of the
# nationality level (`希腊籍`) are a person's.
PRODUCTION_REGION_RELATIONS = frozenset({"制片地区", "制片国家", "制片国家/地区", "出品地区"})
DYNASTY_RELATIONS = frozenset({"朝代"})
BIRTH_RELATIONS = frozenset({"出生日期", "出生时间", "出生年月", "生日"})
DEATH_RELATIONS = frozenset({"逝世日期", "逝世时间", "去世时间", "去世日期", "死亡日期", "死亡时间"})

# 人 starts these words: 上海人民, 上海人才 are not demonyms.
_NOT_DEMONYM_NEXT = frozenset("民员物才口士类们工大事力生群体性家间格")


def demonym_spans(value: str, text: str) -> list[tuple[int, int]]:
    """`上海人` for 上海市 / 上海; `江苏南京人` is found by the exact level."""
    out = []
    for stem in dict.fromkeys((value, place_stem(value))):
        if len(stem) < 2:
            continue
        for j in find_all(text, stem + "人"):
            nxt = j + len(stem) + 1
            if nxt >= len(text) or text[nxt] not in _NOT_DEMONYM_NEXT:
                out.append((j, j + len(stem)))
    return out


_CLOSING_NOTE = re.compile(r"[（(][^（）()]*[)）]\s*$")


def place_spans(value: str, text: str, relation: str = "", subject: str | None = None) -> list[tuple[int, int]]:
    """The most specific part of the place (place_cores), with the admin
    suffix the text gives it (`西安市` for 陕西西安), or its short name
    (`加州` for 加利福尼亚州). An address has rules of its own
    (transforms/addresses.py; `subject`: the sight's own name taken off the
    address's end)."""
    if relation in ADDRESS_RELATIONS:
        return address_spans(value, text, subject)
    # `饶州鄱阳（今江西鄱阳）`: a closing note of today's name only locates the place
    value = _CLOSING_NOTE.sub("", value).strip() or value
    # A place of one unit is its own core (`北京` is named by `北京市海淀区`).
    for core in core_forms(value, place_cores(value) or (value.strip(),)):
        out = core_spans(core, text)
        if out:
            return out
    return []


# Generic words closing a company's name: its trade and its legal form.
_ORG_HEADS = ("有限责任公司", "有限公司", "公司", "集团", "影业", "制片厂", "唱片", "工作室")
_ORG_GENERIC = ("有限责任", "股份", "有限", "控股", "国际", "电影", "影视", "影业", "娱乐", "唱片", "音乐",
                "文化", "传媒", "发行", "制作", "制片", "出品", "动画", "美术", "传播", "公司", "集团")
_ORG_WORDS = tuple(sorted(set(_ORG_GENERIC + _ORG_HEADS), key=len, reverse=True))
_ORG_TAIL = re.compile("(?:" + "|".join(sorted(set(_ORG_HEADS + _ORG_GENERIC), key=len, reverse=True)) + ")+")


@lru_cache(maxsize=8192)
def company_core(value: str) -> str | None:
    """`梦工厂电影发行公司` -> `梦工厂`: the value without the generic words
    closing it, when it is a company's name and what is left is a name."""
    v = value.strip()
    if not v.endswith(_ORG_HEADS):
        return None
    core = v
    while True:
        for w in _ORG_WORDS:
            if core.endswith(w) and len(core) - len(w) >= 2:
                core = core[: -len(w)]
                break
        else:
            break
    if core == v or len(core) < 2 or core in COUNTRIES or core[-1] in ADMIN_SUFFIXES:
        return None
    return None if core in jieba_place_names() else core


def short_name_spans(value: str, text: str) -> list[tuple[int, int]]:
    """The company's distinctive part, with the generic words that follow it
    in the text (`华纳兄弟公司`)."""
    core = company_core(value)
    if core is None:
        return []
    out = []
    for j in find_all(text, core):
        m = _ORG_TAIL.match(text, j + len(core))
        out.append((j, m.end() if m else j + len(core)))
    return out


_LIST_SEP = "、和与及"
_CLAUSE_STOPS = "，,。；;！？!?\n：:（）()"


def list_item_spans(value: str, text: str) -> list[tuple[int, int]]:
    """The value is a list item plus the suffix that closes the list
    (`X成员` stated by `X、Y、Z成员`), or the head that opens it plus an
    item (`上海大学副校长` stated by `上海大学党委常委、副校长`)."""
    if value[:3] not in text:
        return []  # every stem and every head below starts with the value's first three characters
    out = _shared_suffix_spans(value, text)
    return out or _shared_head_spans(value, text)


# An item of a list: a run without clause or list punctuation.
_ITEM = r"[^，,。；;、：:\n（）()]{1,12}"


def _shared_head_spans(value: str, text: str) -> list[tuple[int, int]]:
    """`上海大学党委常委、副校长` for 上海大学副校长: the list's head (three
    characters or more: two are mostly a place before the first item's own
    name, `北京展览馆、动物园、海洋馆` names no 北京海洋馆) with a later item (two
    or more) of the list it opens, the item closing the list or followed by
    the next one. Span: the head to the item's end."""
    out: list[tuple[int, int]] = []
    if len(value) < 5 or "、" not in text or value[:3] not in text or value[-2:] not in text:
        return out  # every head starts with value[:3], every item ends with value[-2:]
    for k in range(3, len(value) - 1):
        head, item = value[:k], value[k:]
        if "、" + item not in text or head not in text:
            continue  # most values: no pattern to compile
        rx = re.escape(head) + rf"{_ITEM}(?:、{_ITEM})*?、" + re.escape(item) + r"(?=[，,。；;、\n]|$)"
        out += [m.span() for m in re.finditer(rx, text)]
    return sorted(set(out))


def _shared_suffix_spans(value: str, text: str) -> list[tuple[int, int]]:
    """`北方大学联盟成员` for `北方大学联盟、东部高校联盟成员`: an item before a
    list separator, with the value's suffix (one to four characters) closing
    the list later in the clause. Span: the item."""
    out = []
    for k in range(1, 5):
        if len(value) - k < 3:
            break
        stem, suffix = value[:-k], value[-k:]
        j = text.find(stem)
        while j != -1:
            after = j + len(stem)
            if after < len(text) and text[after] in _LIST_SEP:
                stop = after
                while stop < len(text) and text[stop] not in _CLAUSE_STOPS:
                    stop += 1
                if suffix in text[after:stop]:
                    out.append((j, after))
            j = text.find(stem, j + 1)
        if out:
            return out
    return out


# Characters that write the same sound in a transliterated name
# (`卡罗莱那` / `卡罗莱纳`, `挪克斯维尔` / `诺克斯维尔`): one written for another
# of its group spells the same name. Each maps to the first of its group.
_SAME_SOUND = ("那纳娜", "莱来", "丽莉俐", "斯丝思", "尔儿", "伊依", "娅亚", "妮尼", "琳林", "蒂迪",
               "菲斐", "蕾雷", "玛马", "黛戴", "莎沙", "瑟塞", "茜西希", "索萨", "诺挪")
_SOUND_OF = str.maketrans({ch: group[0] for group in _SAME_SOUND for ch in group[1:]})
_SOUND_CHARS = frozenset("".join(_SAME_SOUND))
_SOUND_CHAR_RE = re.compile("[" + "".join(sorted(_SOUND_CHARS)) + "]")


@lru_cache(maxsize=16384)
def _sound_key(value: str) -> tuple[str, str] | None:
    """(the value with each character replaced by the first of its sound
    group, its longest run of other characters); None for a value shorter
    than four characters (in a shorter name one character changed is another
    name: 李娜 is not 李纳) or with no such character."""
    if len(value) < 4 or _SOUND_CHARS.isdisjoint(value):
        return None
    runs = _SOUND_CHAR_RE.split(value)
    return value.translate(_SOUND_OF), max(runs, key=len)


@lru_cache(maxsize=8)
def _text_by_sound(text: str) -> str:
    return text.translate(_SOUND_OF)


def transliteration_spans(value: str, text: str, relation: str = "") -> list[tuple[int, int]]:
    """The value spelt with other characters of the same sounds, or a
    foreign name transliterated otherwise (dotted_name_spans)."""
    keys = _sound_key(value)
    if keys is None or keys[1] not in text:  # the characters that keep their spelling are not there
        return dotted_name_spans(value, text, relation)
    key = keys[0]
    return ([(j, j + len(key)) for j in find_all(_text_by_sound(text), key) if text[j:j + len(key)] != value]
            or dotted_name_spans(value, text, relation))


_DOT = "·・•"
_DOT_SPLIT = re.compile(rf"[{_DOT}]")


def _same_name(a: list[str], b: list[str]) -> bool:
    """Two transliterations of one foreign name: as many parts, each of the
    same length sharing a character in place, the family name (two
    characters or more) at least half, and three in five characters in all.
    `道格·里曼` = 道格·李曼, `斯蒂芬·斯皮尔伯格` = 史蒂文·斯皮尔伯格; brothers
    (`乔尔·科恩` / `伊桑·科恩`) share no given name, other families
    (`汤姆·汉克斯` / `汤姆·克鲁斯`) too little of theirs."""
    if len(a) != len(b) or any(len(x) != len(y) for x, y in zip(a, b)) or len(a[-1]) < 2:
        return False
    shared = [sum(p == q for p, q in zip(x, y)) for x, y in zip(a, b)]
    return (all(shared) and 2 * shared[-1] >= len(a[-1])
            and 5 * sum(shared) >= 3 * sum(map(len, a)))


def dotted_name_spans(value: str, text: str, relation: str = "") -> list[tuple[int, int]]:
    """A dotted foreign name (`道格·李曼`) spelt otherwise in the text
    (`道格·里曼`): the text's characters around its first dot, cut to the
    value's parts. Not for another name of the entity (`别名`, `译名`), which
    is a spelling of its own."""
    if _DOT_SPLIT.search(value) is None:
        return []  # no dot: one part
    value = value.strip()
    parts = _DOT_SPLIT.split(value)
    if _OWN_SPELLING.search(relation) or not _DOT_SPLIT.search(text):
        return []
    out = []
    for m in _DOT_SPLIT.finditer(text):
        s = m.start() - len(parts[0])
        cand = text[max(s, 0):s + len(value)]
        if (s >= 0 and cand != value and [len(p) for p in _DOT_SPLIT.split(cand)] == [len(p) for p in parts]
                and all("\u4e00" <= ch <= "\u9fff" or ch in _DOT for ch in cand)
                and _same_name(parts, _DOT_SPLIT.split(cand))):
            out.append((s, s + len(value)))
    return out


_OWN_SPELLING = re.compile(r"别名|译名|又名|昵称|外号|艺名|本名|原名")


def transliteration_possible(value: str) -> bool:
    """False only when transliteration_spans(value, any text) is [] whatever
    the text: it needs a character of a sound group (_sound_key) or a dot
    (dotted_name_spans). Kept beside them: a new form there must be let
    through here (align.py skips the level on False)."""
    return _sound_key(value) is not None or _DOT_SPLIT.search(value) is not None


# Paraphrases of frequent values: value pattern -> text pattern.
PARAPHRASES: tuple[tuple[re.Pattern, re.Pattern], ...] = (
    (re.compile(r"^(?:省部|部省|部市|省市|部委与地方)共建"),
     re.compile(r"(?:教育部|国家[\u4e00-\u9fff]{1,8}(?:局|部|委员会)|[\u4e00-\u9fff]{1,6}部)"
                r"(?:[、和与及][\u4e00-\u9fff]{2,12}(?:局|部|委员会))*与[\u4e00-\u9fff]{2,10}"
                r"(?:省|市|自治区)(?:人民政府)?共建")),
    # free admission said with whom it is free for (`免费向公众开放`), or
    # what a visitor does for free (`免费参观`, `目前是免费的`)
    (re.compile(r"^免费开放"), re.compile(r"免费(?:向|对)[\u4e00-\u9fff]{1,6}开放|免费(?:接待)?(?:参观|游览|入园)"
                                       r"|是免费的(?=[，。；;！!]|$)")),
)


# A sight's timetable (docs/alignment.md, "Sights": `开放时间` is one value).
OPENING_RELATIONS = frozenset({"开放时间", "营业时间"})
# A timetable cell that only says the sight is closed, with its reason or a
# hint to ask (`现为小学，不能入内参观`, `目前装修暂不对外开放，具体开放时间请电话咨询`):
# no hours (no digit), and closure said outside its brackets (not
# `全天开放（内部不对外开放…）`, open all day).
_CLOSURE = (r"(?:暂|并|仍|已)?不(?:对[\u4e00-\u9fff]{1,4})?开放|不(?:能|可|得|准)(?:入内|进入|进去)"
            r"|暂停(?:营业|开放)|(?:暂时)?停业|暂时关闭|谢绝(?:游客|参观)")
_CLOSURE_RE = re.compile(_CLOSURE)
_DIGIT = re.compile(r"[0-9０-９]")
# A part, a day or a season a closure is for (the cell's and the text's alike).
_PART_OR_WHEN = r"部分|期间|周[一二三四五六日天末]|星期|节假日|春节|[春夏秋冬]季|每年|每逢"
# What makes a cell more than a closure: its opening said beside it (`全天开放，…`,
# `常年营业，…`, `周二至周日开放，周一不开放` written without digits; not `具体开放时间请…`,
# a hint to ask), or a part, a day or a season the closure is for (`部分展厅`,
# `春节期间`): the sight is open otherwise.
_OPEN_OR_WHEN = re.compile(rf"(?<![不停止])(?:开放|营业|开馆|开门)(?!时间)|{_PART_OR_WHEN}|[0-9０-９一二三四五六七八九十]+月")
# A closure of the text's that is not the sight's now, or not the whole of it: in
# the past (`一度停业，1952年恢复营业`, `曾…不对外开放`), a part, a time or a
# weather it is for (`部分殿堂不对外开放`, `冬季封山防火期间不对外开放`,
# `遇雨雪等恶劣天气，景区暂停开放`: told in the clause before the closure or in its own).
_CLOSURE_NOT_NOW = re.compile(rf"一度|曾|过去|以前|当时|遇|时候|[0-9０-９]+年|恢复|重新|后来|{_PART_OR_WHEN}")
# Who the text says may not enter: a visitor (`普通游客不能入内`), or no one
# named and the visit itself (`不能进入参观`); not a car (`机动车不能进入`), nor
# a visitor's photographs (`游客不得入内拍照`).
_NO_ENTRY = re.compile(r"不(?:能|可|得|准)(?:入内|进入|进去)")
_VISITOR_BEFORE = re.compile(r"(?:游客|游人|公众|参观者|外人|普通人|市民)[^，。；;！？!?]{0,4}$")
_VISITS = ("参观", "游览", "观光")
_VISIT_AFTER = re.compile(rf"(?:{'|'.join(_VISITS)})?(?=$|[，。；;！？!?、])")


def closure_spans(value: str, text: str, relation: str) -> list[tuple[int, int]]:
    """A timetable that only says the sight is closed (`不对外开放`, `暂时停业`,
    `现为小学，不能入内参观`) is stated by the text's closure in other words
    (`暂不对游客开放`, `普通游客不能入内`, `不能进入参观`): its reason and a
    hint to ask are no hours the text must give. A cell with hours is a
    timetable whatever closure it adds (`9:00-17:00，周一闭馆`), and so is one
    that says when the sight is open in words (_OPEN_OR_WHEN). The text's
    closure must be the sight's whole closure now (_CLOSURE_NOT_NOW: not
    `一度停业`, not `冬季…不对外开放`), and no entry a visitor's (_NO_ENTRY)."""
    if relation not in OPENING_RELATIONS or _DIGIT.search(value):
        return []
    cell = BRACKETS.sub("", value)
    if not _CLOSURE_RE.search(cell) or _OPEN_OR_WHEN.search(_CLOSURE_RE.sub("", cell)):
        return []
    return list(_closures_now(text))


@lru_cache(maxsize=64)
def _closures_now(text: str) -> tuple[tuple[int, int], ...]:
    """The text's closures that are the sight's whole closure now (closure_spans),
    read once per text (a page's rows share it) and each from its clause and
    the two beside it (clause_span), so a long list of closures costs its length."""
    out = []
    for m in _CLOSURE_RE.finditer(text):
        lo, hi = sentence_span(text, m.start())
        # the clause before the closure's, its own and the next (`…，1952年恢复营业`)
        clause, clause_end = clause_span(text, m.start())
        before = clause_span(text, clause - 2)[0] if clause - 2 >= lo else clause
        after = clause_span(text, clause_end + 1)[1] if clause_end + 1 < hi else clause_end
        if _CLOSURE_NOT_NOW.search(text, max(lo, before), min(hi, after)):
            continue
        if _NO_ENTRY.fullmatch(m.group()):
            visitor = _VISITOR_BEFORE.search(text, clause, m.start()) and _VISIT_AFTER.match(text, m.end())
            if not visitor and not text.startswith(_VISITS, m.end()):
                continue
        out.append(m.span())
    return tuple(out)


# The first of the palace examination (`元丰二年状元`, `状元`), with the year it names.
_TOP_GRADUATE = re.compile(r"^([\u4e00-\u9fff]{0,8}?)状元$")
# Another person's first in the same clause: a kinsman or a friend (`兄陈尧叟端拱二年进士第一`)
# or the name after it (`同年进士第一为张孝祥`).
_KIN_IN_CLAUSE = re.compile(r"兄|弟|其?子|父|叔|侄|孙|婿|友|师")


def top_graduate_spans(when: str, text: str) -> list[tuple[int, int]]:
    """`元丰二年状元` is `元丰二年 (1079) 进士第一`: the same year (in either
    form of its characters), the first of the examination; not `第一甲`
    (the top tier, whose third is 探花), nor another person's first."""
    out = []
    for year in dict.fromkeys((when, when.translate(VARIANT_CHARS))):
        form = re.escape(year) + r"\s{0,2}(?:[（(][^（）()]{1,12}[）)])?\s{0,2}" if year else ""
        for m in re.finditer(form + r"(?:登|中|擢|举|考中|考取)?进士(?:科)?第一(?!甲)", text):
            lo, _ = clause_span(text, m.start())
            if not _KIN_IN_CLAUSE.search(text, lo, m.start()) and not text.startswith(("为", "是"), m.end()):
                out.append(m.span())
    return out


# Occupations said in other words: value -> the words a text uses for it.
# A film's 制作人 is its producer; a music producer (`音乐制作人`) is not.
_SAME_OCCUPATION = (("词曲作家", "词曲创作人", "词曲作者"), ("填词人", "作词人"), ("配音员", "配音演员"),
                    ("模特儿", "模特"))
OCCUPATION_SYNONYMS = {
    "制片人": re.compile(r"(?<!音乐)(?<!唱片)制作人"),
    "音乐人": re.compile(r"音乐创作人"),
    **{v: re.compile("|".join(w for w in group if w != v)) for group in _SAME_OCCUPATION for v in group},
}


# A poet or a ci writer is also said by writing verse (docs/alignment.md, "Song
# poets", `职业`): `工诗词`, `长于慢词`, `喜作药名诗词`, `存诗八首`, `其词…`,
# `词效稼轩`, `词存一首`. A collection's title alone (`有《燕喜词》`) is not:
# the labellers read it either way.
def _writes(verse: str, not_after: str) -> str:
    # what stands between `工`/`长于` and the verse names its kind (`长于慢词`,
    # `喜作药名诗词`), never reading it aloud (`擅长朗诵诗歌`, `能背诵唐诗`)
    kind = r"(?:(?![背诵读念朗吟唱])[\u4e00-\u9fff]){0,3}?"
    return (rf"(?:工|善|长于|擅长?|喜作|尤工){kind}{verse}(?![{not_after}])|能{verse}(?![{not_after}])"
            rf"|(?<![《“])(?:存|其){verse}|(?<![《“]){verse}(?:存|效|学|格|风|作|多|有)(?!家|研究|者)")


# A ci writer also by a collection of his ci named as his (`有《海野词》`,
# `《雪舟长短句》`; rounds 26-27); not an anthology or a reference (`《花庵词选》`,
# `《全宋词》`, `《词林纪事》`), nor 乐府 (yuefu poems as often).
_CI_COLLECTION = r"《(?!全)[^《》]{1,10}?(?<![选林综谱律话])(?:词|长短句|词稿|词集)》"
# `词近稼轩`, `词见《湖州词征》`, `并词一首`, `小词一首`: the poet's own ci said
# as such, opening its clause, after 并/另/有 or after its kind (小词, 慢词,
# 艳词, 新词); not a word the verse character ends (`歌词`, `用词`, `证词`,
# `唐诗`, `赠诗`, `《宋词三百首》`), nor a count of a collection (`收宋词近两万首`).
_OWN_VERSE = (r"|(?:(?<![\u4e00-\u9fff《“])|(?<=[并另有小慢艳新])){verse}"
              r"(?:近(?![一二三四五六七八九十两百千万0-9])|见|[一二三四五六七八九十两数百余]+首)")
VERSE_WRITERS = {"诗人": re.compile(_writes("诗", "话社经集") + _OWN_VERSE.format(verse="诗")),
                 "词人": re.compile(_writes("词", "牌曲典汇组语条集") + _OWN_VERSE.format(verse="词") + "|" + _CI_COLLECTION)}


# A prefect's office said the classical way (docs/alignment.md, Song poets,
# `官职`): `知深州` states the cell `深州知州`, `知建康府` the cell `建康知府`.
_PREFECT = re.compile(r"^([\u4e00-\u9fff]{1,4}?)知([州府县军])$")


def prefect_spans(value: str, text: str) -> list[tuple[int, int]]:
    m = _PREFECT.match(value.strip())
    if m is None:
        return []
    place, unit = m.groups()
    said = "知" + (place if place.endswith(unit) else place + unit)
    return [(j, j + len(said)) for j in find_all(text, said)]


OFFICE_RELATIONS = frozenset({"官职", "职务", "主要职务"})


# An occupation said with the person's sex (`影视女演员` for 影视演员).
_GENDERED = re.compile(r"^(.{1,6}?)(演员|歌手|主持人|作家|导演|模特|艺人|明星)$")
# A department (系) of a school is also called the subject it teaches (专业).
_DEPARTMENT = re.compile(r"^(.{2,}?)系$")


# A deed (`主要成就 参加北伐战争`) is a verb and what it was done to: the text
# states it when it names the object and says the verb in the same sentence
# (`北伐战争打响后，他带兵参加了…战役`). Only for relations of a person's deeds.
_DEED = re.compile(r"^(参加|参与|领导|指挥|组织|发动|主持|创建|创立|创办|率领|发起)了?([\u4e00-\u9fff]{2,12})$")
_DEED_RELATIONS = re.compile(r"成就|事迹|经历")


def deed_spans(value: str, text: str, relation: str) -> list[tuple[int, int]]:
    """Mentions of a deed's object in a sentence that also says its verb."""
    m = _DEED.match(value.strip())
    if m is None or not _DEED_RELATIONS.search(relation):
        return []
    verb, obj = m.groups()
    out = []
    for j in find_all(text, obj):
        lo, hi = sentence_span(text, j)
        if verb in text[lo:hi]:
            out.append((j, j + len(obj)))
    return out


# Mandarin by its other everyday names, said of the work (`国语专辑` is an
# album in 中文), for relations of a language (`专辑语言`, `对白语言`, `语种`).
# Not inside an award's category (`最佳国语专辑` tells no album's language),
# nor 华语 (Chinese of any dialect, Cantonese too) or a written form (`日文`).
_MANDARIN = ("中文", "国语", "普通话")
_OF_A_WORK = "(?=专辑|歌曲|单曲|唱片|版本|版|电影|影片|对白|配音|演唱)"
LANGUAGE_SYNONYMS = {v: re.compile("(?<!最佳)(?:" + "|".join(w for w in _MANDARIN if w != v) + ")" + _OF_A_WORK)
                     for v in _MANDARIN}
_LANGUAGE_RELATION = re.compile("语言|语种")


# One of a named group (`“宋四家”之一`) is said by naming the group the entity
# is counted in: `与蔡襄、苏轼、黄庭坚合称宋四家`, `并称“唐宋八大家”`.
_ONE_OF = re.compile(r"^[“\"「『]?([^“”\"「」『』]{2,12}?)[”\"」』]?之一$")
_GROUP_WORD = r"(?:(?:合|并|同|号)称为?|称为|誉为|列为|跻身于?|位列)"
# Not (yet) counted in it: `尚未被列为`, `正在申报列为`, `有望跻身`.
_NOT_YET = re.compile(r"(?:未|没有|不|(?<!成功)(?<!已)申报|有望|争取|拟|希望|力争)[被将]?$")


def group_member_spans(value: str, text: str) -> list[tuple[int, int]]:
    """Spans of the group a `X之一` value names, right after a word that counts the entity in it."""
    m = _ONE_OF.match(value.strip())
    if not m:
        return []
    group = re.escape(m.group(1))
    rx = re.compile(_GROUP_WORD + r"[“\"「『]?(" + group + r")(?![\u4e00-\u9fff])")
    return [g.span(1) for g in rx.finditer(text) if not _NOT_YET.search(text, max(0, g.start() - 5), g.start())]


def paraphrase_spans(value: str, text: str, relation: str = "") -> list[tuple[int, int]]:
    out = deed_spans(value, text, relation) + group_member_spans(value, text) + closure_spans(value, text, relation)
    if value in LANGUAGE_SYNONYMS and _LANGUAGE_RELATION.search(relation):
        out.extend(m.span() for m in LANGUAGE_SYNONYMS[value].finditer(text))
    for vrx, trx in PARAPHRASES:
        if vrx.search(value):
            out.extend((m.start(), m.end()) for m in trx.finditer(text))
    top = _TOP_GRADUATE.match(value) if AWARD_RELATION.search(relation or "") else None
    if top:
        out.extend(top_graduate_spans(top.group(1), text))
    if relation in OCCUPATION_RELATIONS:
        if value in OCCUPATION_SYNONYMS:
            out.extend((m.start(), m.end()) for m in OCCUPATION_SYNONYMS[value].finditer(text))
        if value in VERSE_WRITERS:
            out.extend(m.span() for m in VERSE_WRITERS[value].finditer(text))
        g = _GENDERED.match(value)
        if g:
            out.extend((j, j + len(value) + 1) for w in "男女" for j in find_all(text, g.group(1) + w + g.group(2)))
    if relation in OFFICE_RELATIONS:
        out.extend(prefect_spans(value, text))
    if relation in ALMA_MATER:
        d = _DEPARTMENT.match(value)
        if d:
            out.extend((j, j + len(d.group(1)) + 2) for j in find_all(text, d.group(1) + "专业"))
    return out


def paraphrase_possible(value: str, relation: str | None) -> bool:
    """False only when paraphrase_spans(value, any text, relation) is []
    whatever the text: each of its forms first needs the value (or the
    relation) in its shape, checked here in the same way; the relations of
    an occupation, an office or a school are let through whole. Kept beside
    it: a new form there must be let through here (align.py skips the level
    on False)."""
    if (relation is None or relation in OCCUPATION_RELATIONS or relation in OFFICE_RELATIONS or relation in ALMA_MATER
            or relation in OPENING_RELATIONS):
        return True
    v = value.strip()
    return ((_DEED.match(v) is not None and _DEED_RELATIONS.search(relation) is not None)
            or _ONE_OF.match(v) is not None
            or (value in LANGUAGE_SYNONYMS and _LANGUAGE_RELATION.search(relation) is not None)
            or any(vrx.search(value) for vrx, _ in PARAPHRASES)
            or _TOP_GRADUATE.match(value) is not None)


_LIFE_DATE = r"\d{3,4}(?:[.\-/年]\d{1,2}(?:[.\-/月]\d{1,2}日?)?)?"
# `（1037—1101）`, `(？－约 1053)`: an unknown date is `？`, an estimate `约`
# (kept apart: `约1053` states only a cell that says `约` too).
# Another reading of the birth year may follow it (`(1151，一作 1156－1202)`):
# the text gives the first, and the death year after the dash is both's.
_LIFESPAN = re.compile(r"\s*[：:]?\s*[（(](?:[^（）()，,]{1,40}[，,]\s*){0,2}"
                       r"(?:(?P<about1>约\s*)?(?P<born>" + _LIFE_DATE + r")|[？?])"
                       r"(?:\s{0,2}年?\s{0,2}[，,]\s{0,2}(?:一作|一说|或作|又作)\s{0,2}约?\s{0,2}" + _LIFE_DATE + r")?"
                       r"\s*年?\s*[—–\-~～－―至]+\s*"
                       r"(?:(?P<about2>约\s*)?(?P<died>" + _LIFE_DATE + r")|[？?])?\s*年?\s*[）)]")


# A year before 1000 (杜牧, 803–852): no date elsewhere, as `300年` is as often a
# duration, but in the brackets of a lifespan it can be nothing else.
_EARLY_YEAR = re.compile(r"^(\d{3})年?$")


def _life_date(value: str) -> tuple[int, int | None, int | None] | None:
    d = parse_date(value)
    if d is None and (m := _EARLY_YEAR.match(value.strip())):
        return int(m.group(1)), None, None
    return d


def lifespan_spans(value: str, relation: str, text: str, entity: str) -> list[tuple[int, int]]:
    """Birth or death date in the brackets right after the entity's name
    (`苏轼（1037—1101）`, `苏轼：(1037-1101)`), or opening the text: a
    biography that begins with a lifespan (`(1090－1139) 字去非…`) begins
    with its subject's."""
    if relation in BIRTH_RELATIONS:
        group, about = "born", "about1"
    elif relation in DEATH_RELATIONS:
        group, about = "died", "about2"
    else:
        return []
    approx = value.lstrip().startswith("约")
    vd = _life_date(value.lstrip().removeprefix("约").lstrip())
    if vd is None or not entity:
        return []
    i = text.find(entity)
    m = _LIFESPAN.match(text, i + len(entity)) if i != -1 else None
    if m is None:
        m = _LIFESPAN.match(text)
    if m is None or m.group(group) is None or bool(m.group(about)) != approx:
        return []
    td = _life_date(m.group(group).replace(".", "-") if "." in m.group(group) else m.group(group))
    if td is not None and dates_compatible(vd, td, False):
        return [(m.start(group), m.end(group))]
    return []


_PRC_AFTER_LABEL = re.compile(r"国籍\s*[：:]\s*$")
_REGION_OF_CHINA = re.compile(r"^中国(香港|澳门|台湾)$")
_STATE_SUFFIX = re.compile(r"^([\u4e00-\u9fff]{2,4})(?:联邦共和国|民主共和国|人民共和国|共和国|合众国|联邦|王国)$")
# `日本国` (a state's formal name with a closing `国`) is said `日本`: a
# name of two or three characters before it (never `民国`, `王国`, `和国`:
# `大韩民`, `泰王`, `印度共和` are no names).
_STATE_GUO = re.compile(r"^([\u4e00-\u9fff]{2,3})(?<![民王和众邦])国$")


@lru_cache(maxsize=256)
def _province_heads(short: str) -> tuple[str, ...]:
    """What stands before `short` in the provinces whose names end with it (`内` for 蒙古)."""
    return tuple(p[:-len(short)] for p in provinces() if p.endswith(short) and len(p) > len(short))


def nationality_spans(value: str, text: str, relation: str = "国籍") -> list[tuple[int, int]]:
    """`希腊籍` for 希腊 (never `籍贯`); `国籍：中华人民共和国` for 中国; the short
    form of a state or region (`印度` for 印度共和国, `香港` for 中国香港), the
    only form for a production region."""
    out = []
    m = _REGION_OF_CHINA.match(value) or _STATE_SUFFIX.match(value) or _STATE_GUO.match(value)
    if m:
        short = m.group(1)
        # not the end of a province's name (`蒙古` of 内蒙古 for 蒙古国), nor a people (`蒙古族`)
        inside = _province_heads(short)
        out.extend((j, j + len(short)) for j in find_all(text, short)
                   if not any(text.endswith(head, 0, j) for head in inside)
                   and not text.startswith("族", j + len(short)))
    if relation not in NATIONALITY_RELATIONS:
        return out
    out.extend((j, j + len(value)) for j in find_all(text, value + "籍")
               if not text.startswith("贯", j + len(value) + 1))
    if value == "中国":
        out.extend((j, j + 7) for j in find_all(text, "中华人民共和国")
                   if _PRC_AFTER_LABEL.search(text, max(0, j - 8), j) or text.startswith("国籍", j + 7))
        out.extend((m.start(), m.start() + 2) for m in _REGION_OF_CHINA_PERSON.finditer(text))
    return out


# `中国台湾女歌手`, `中国香港影视男演员`: a person described by a region of
# China is of Chinese nationality (a place of birth is not: `出生于中国台湾`).
_REGION_OF_CHINA_PERSON = re.compile(r"中国(?:台湾|香港|澳门|内地|大陆)(?:地区)?[\u4e00-\u9fff]{0,6}?"
                                     r"(?:演员|歌手|导演|编剧|艺人|主持人|模特|作家|音乐人|制作人|制片人|明星|男星|女星|偶像|组合|乐队)")


# What follows a dynasty's name when its ruler or its era is meant:
# 太宗, 炀帝, 孝武帝, 世祖; 嘉靖三十一年; 时期, 年间.
_RULER_OR_ERA = re.compile(r"[\u4e00-\u9fff]{1,2}(?:帝|宗|祖)|[\u4e00-\u9fff]{2}[元一二三四五六七八九十]+年"
                           r"|时期|年间|初年|末年")


def era_spans(value: str, text: str) -> list[tuple[int, int]]:
    """The dynasty (without 朝/代) followed by a ruler's title or an era."""
    core = value[:-1] if len(value) >= 2 and value[-1] in "朝代" else value
    if not 1 <= len(core) <= 3:
        return []
    return [(j, j + len(core)) for j in find_all(text, core) if _RULER_OR_ERA.match(text, j + len(core))]
