"""Coarse entity typing for pairs (the entity) and triples (each tail value).

Types: person, organisation, place, work, species, event, date, number,
quantity, other. Splitting stratifies by the entity type and distractor
generation draws same-type distractors, so the type must be cheap, stable and
explainable rather than perfect.

Entity type: votes from tags (词条标签), the infobox relation signature (a
page with 出生日期/国籍/毕业院校 is about a person; 界/门/纲 a species;
注册资本/董事长 an organisation) and the title's disambiguation subtitle.
Tail type: the value's own shape first (dates like 1994年5月27日, numbers,
quantities with units like 200万平方米 / 12首 / 6人), then what the relation
says its object is (导演 -> person, 出品公司 -> organisation, 国籍 -> place),
then the value's suffix (…公司, …大学, …省, 《…》).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterable

from transforms.defining_clause import norm_relation, split_title

TYPES = ("person", "organisation", "place", "work", "species", "event", "date", "number", "quantity", "other")


@dataclass
class TypingConfig:
    """Typed config of the entity-typing stage (BuildConfig.typing)."""

    enabled: bool = True


# ---------------------------------------------------------------- value shapes
_NUM = r"[-+]?(?:\d+(?:[.,]\d+)*|[零〇一二两三四五六七八九十百千万亿]+)(?:\.\d+)?"
_DATE_RES = [
    re.compile(r"^(?:公元前?)?\d{1,4}年(?:\d{1,2}月(?:\d{1,2}日)?)?(?:[至—\-~－]+(?:\d{1,4}年)?(?:\d{1,2}月)?(?:\d{1,2}日)?)?(?:[（(].*[)）])?$"),
    re.compile(r"^\d{1,2}月(?:\d{1,2}日)?$"),
    re.compile(r"^\d{4}[-/.]\d{1,2}(?:[-/.]\d{1,2})?$"),
    re.compile(r"^\d{4}$"),  # a bare year; only when the relation is temporal (see below)
    re.compile(r"^(?:\d+世纪|\d+年代)(?:初|中|末|中期|后期|初期)?$"),
]
_NUMBER_RE = re.compile(rf"^{_NUM}%?$")
_UNIT = (
    r"(?:平方公里|平方千米|平方米|平方英里|公顷|亩|立方米|千米|公里|厘米|毫米|米|英尺|英寸|吨|千克|公斤|克|kg|g|km|m|cm|mm|ml|L|升|毫升|"
    r"元|美元|人民币|港元|欧元|日元|亿元|万元|円|"
    r"人|名|位|户|个|首|部|集|章|卷|册|页|本|张|枚|座|所|家|辆|种|项|次|场|届|岁|年|天|小时|分钟|分|秒|"
    r"℃|°C|度|%|‰|MB|GB|KB|K|M|mAh|W|kW|千瓦|万千瓦|MW|Hz|GHz|m³/s|立方米每秒)"
)
_QUANTITY_RE = re.compile(
    rf"^(?:约|近|超过|共|逾|达)?{_NUM}(?:\s*[-~～—至]\s*{_NUM})?\s*(?:多|余)?\s*[万亿千百]*\s*{_UNIT}(?:[^\d]{{0,6}})?$",
    re.I,
)
_TEMPORAL_RELATIONS = ("时间", "日期", "年份", "年代", "生日", "诞辰", "出生", "逝世", "成立", "创办", "上映", "首播", "发行", "出版", "竣工", "始建", "建于")


def value_shape(value: str, relation: str = "") -> str | None:
    """date / number / quantity from the value's form, else None."""
    v = (value or "").strip().replace("，", ",")
    if not v or len(v) > 40:
        return None
    for i, rx in enumerate(_DATE_RES):
        if rx.match(v):
            if i == 3 and not any(k in relation for k in _TEMPORAL_RELATIONS):
                break  # "1994" under 人口 is a number, not a year
            return "date"
    if _NUMBER_RE.match(v):
        return "number"
    if _QUANTITY_RE.match(v):
        return "quantity"
    return None


# ------------------------------------------------------------ relation → tail
_TAIL_BY_RELATION: dict[str, tuple[str, ...]] = {
    "person": ("导演", "主演", "编剧", "制片人", "作者", "歌手", "歌曲原唱", "演唱", "作词", "填词", "作曲", "谱曲", "编曲", "主持人",
               "嘉宾", "父亲", "母亲", "妻子", "丈夫", "儿子", "女儿", "配偶", "创始人", "创办人", "董事长", "总裁", "校长", "院长",
               "主编", "代言人", "专辑歌手", "饰演", "配音", "声优", "主角", "发明人", "提出人", "提出者", "译者", "君主", "继任", "前任"),
    "organisation": ("出品公司", "发行公司", "制作公司", "唱片公司", "经纪公司", "出版社", "毕业院校", "所属公司", "生产厂商",
                     "开发商", "运营单位", "主管部门", "主办单位", "承办单位", "所属机构", "政党", "所属运动队", "隶属"),
    "place": ("国籍", "出生地", "祖籍", "籍贯", "总部地点", "所在城市", "所在地", "首都", "地理位置", "所属地区", "地理分布",
              "分布区域", "发源地", "流经地区", "原产地", "所属国家", "所属洲", "拍摄地点", "制片地区", "发射地点", "政府驻地"),
    "work": ("代表作品", "主要作品", "所属专辑", "主题曲", "片尾曲", "改编自", "原著", "系列"),
    "species": ("界", "门", "纲", "目", "科", "属", "种", "亚科", "亚属", "族"),
    "event": ("相关事件", "参与战役", "主要战役", "获奖", "主要奖项"),
}
_TAIL_INDEX = {rel: t for t, rels in _TAIL_BY_RELATION.items() for rel in rels}

# ---------------------------------------------------------- head type signals
_HEAD_RELATIONS: dict[str, tuple[str, ...]] = {
    "person": ("出生日期", "出生地", "国籍", "民族", "毕业院校", "职业", "性别", "身高", "体重", "血型", "星座", "逝世日期",
               "父亲", "母亲", "妻子", "丈夫", "代表作品", "经纪公司", "字", "号", "字号", "谥号", "庙号", "年号", "在位时间",
               "籍贯", "祖籍", "政党", "饰演", "配音", "声优", "主要成就", "军衔", "职务", "官职", "头衔", "民族族群",
               "继任", "前任", "出生时间", "逝世时间", "握拍", "场上位置", "运动项目"),
    "organisation": ("总部地点", "注册资本", "注册资金", "董事长", "创始人", "总裁", "经营范围", "公司性质", "员工数", "成立日期",
                     "成立时间", "创办时间", "校长", "校训", "院系设置", "主管部门", "简称", "股票代码", "年营业额", "现任领导"),
    "place": ("面积", "人口", "人口数量", "总人口", "气候", "海拔", "行政区划代码", "邮政编码", "电话区号", "下辖地区", "政府驻地",
              "地理位置", "首都", "官方语言", "所属地区", "经纬度", "年降水量", "流域面积", "河长", "主峰", "走向", "开放时间", "门票", "景区级别"),
    "work": ("主演", "导演", "编剧", "上映时间", "集数", "片长", "作者", "出版社", "出版时间", "歌手", "歌曲原唱", "作词", "作曲",
             "所属专辑", "曲目数量", "专辑歌手", "连载网站", "主角", "首播时间", "主持人"),
    "species": ("学名", "拉丁学名", "界", "门", "纲", "目", "科", "属", "种", "亚种", "命名者及年代", "植物分类", "花期", "物候期", "生长习性"),
    "event": ("发生时间", "参战方", "主要指挥官", "伤亡情况", "结果", "地点", "举办时间", "举办地点", "起因", "发起人"),
}
_HEAD_TAGS: dict[str, tuple[str, ...]] = {
    "person": ("人物", "演员", "歌手", "作家", "诗人", "科学家", "政治", "皇帝", "将领", "运动员", "教师", "主持人", "艺人", "明星"),
    "organisation": ("企业", "公司", "机构", "学校", "大学", "高校", "组织", "银行", "政党", "球队", "俱乐部", "乐队"),
    # A dynasty or regime is typed like a country: a polity, hence a place.
    "place": ("地点", "地名", "行政区", "城市", "国家", "景点", "山", "河流", "湖泊", "乡镇", "村", "朝代", "王朝", "政权",
              "建筑", "遗迹", "遗址", "古迹"),
    "work": ("作品", "电影", "电视剧", "小说", "图书", "歌曲", "专辑", "动画", "漫画", "综艺", "期刊", "游戏"),
    "species": ("植物", "动物", "物种", "生物", "鸟类", "昆虫", "鱼类", "花卉"),
    "event": ("事件", "战争", "战役", "节日", "会议", "赛事"),
}
_HEAD_SUFFIXES: dict[str, tuple[str, ...]] = {
    "organisation": ("公司", "集团", "银行", "大学", "学院", "中学", "小学", "学校", "研究所", "研究院", "实验室", "协会", "学会",
                     "委员会", "基金会", "医院", "俱乐部", "乐队", "证券", "工程院", "科学院", "政府", "议会", "国会",
                     "党", "军", "局", "厅", "署"),
    "place": ("省", "市", "县", "区", "镇", "乡", "村", "朝", "山", "峰", "河", "江", "湖", "岛", "湾", "峡谷", "自然保护区", "森林公园", "湿地公园"),
    "event": ("战争", "战役", "之战", "之役", "起义", "事件", "事变", "会议", "运动会", "马拉松", "节"),
    "species": ("亚种",),
}
_SUBTITLE_HINTS: dict[str, tuple[str, ...]] = {
    "person": ("演员", "歌手", "导演", "作家", "诗人", "书法家", "画家", "教授", "院士", "科学家", "将领", "皇帝", "官员", "书记",
               "首相", "主席", "运动员", "棋手", "企业家", "人物", "角色", "摔角手"),
    "work": ("电影", "电视剧", "动画", "漫画", "小说", "歌曲", "专辑", "图书", "游戏", "栏目", "节目"),
    "species": ("动物", "植物", "科", "属"),
    "place": ("下辖村", "村", "镇", "乡", "县", "景区"),
    "organisation": ("公司", "大学", "学院", "乐队", "组合", "俱乐部"),
    "event": ("战争", "战役", "事件"),
}


# What a summary's opening says the entity is ("…是蔷薇科落叶灌木", "…，男，汉族").
_TEXT_HINTS: dict[str, re.Pattern] = {
    "species": re.compile(r"[科属]的?(?:植物|动物|物种)|(?:落叶|常绿)?(?:乔木|灌木|草本|藤本)|多年生|一年生|(?:鸟|鱼|昆虫)类"),
    "person": re.compile(r"[，,]\s*[男女]\s*[，,]|(?:\d{3,4}年\d{1,2}月(?:\d{1,2}日)?)?出生于|生于\d{3,4}年|[（(]\d{3,4}年\s*[—\-－–至]"),
}
# Relations whose tails are identifiers, not quantities (电话 15652000852).
_IDENTIFIER_RELATIONS = ("电话", "代码", "编码", "编号", "号码", "邮编", "区号", "书号", "ISBN", "ISSN", "CN", "IMDb", "imdb")


@dataclass
class TypeDecision:
    type: str
    reason: str  # which signal decided, e.g. "relations:出生日期,国籍"


def entity_type(entity: str, tags: Iterable[str] = (), relations: Iterable[str] = (), subtitle: str | None = None,
                text: str = "") -> TypeDecision:
    """Coarse type of a pair's entity, with the signal that decided it."""
    title, sub = split_title(entity or "", subtitle)
    rels = {norm_relation(r) for r in relations if r}
    tags = [t for t in tags if t]
    votes: dict[str, float] = {}
    why: dict[str, list[str]] = {}

    def vote(t: str, w: float, what: str) -> None:
        votes[t] = votes.get(t, 0.0) + w
        why.setdefault(t, []).append(what)

    for t, names in _HEAD_RELATIONS.items():
        hit = sorted(rels.intersection(names))
        if hit:
            vote(t, min(len(hit), 4) * 1.0, "relations:" + ",".join(hit[:4]))
    for t, words in _HEAD_TAGS.items():
        hit = [tag for tag in tags if any(w in tag for w in words)]
        if hit:
            vote(t, 1.5 * min(len(hit), 2), "tags:" + ",".join(hit[:3]))
    if sub:
        for t, words in _SUBTITLE_HINTS.items():
            hit = [w for w in words if (sub.endswith(w) if len(w) == 1 else w in sub)]
            if hit:
                vote(t, 2.5, "subtitle:" + hit[0])
    for t, sufs in _HEAD_SUFFIXES.items():
        hit = [s for s in sufs if title.endswith(s) and len(title) > len(s)]
        if hit:
            vote(t, 1.5, "suffix:" + hit[0])
    if title.startswith("《") and title.endswith("》"):
        vote("work", 2.0, "book_title_marks")
    opening = (text or "")[:80]
    for t, rx in _TEXT_HINTS.items():
        m = rx.search(opening)
        if m:
            vote(t, 1.5, "text:" + m.group(0))
    if not votes:
        return TypeDecision("other", "no_signal")
    best = max(votes, key=lambda t: (votes[t], -TYPES.index(t)))
    return TypeDecision(best, ";".join(why[best]))


def tail_type(value: str, relation: str = "") -> TypeDecision:
    """Coarse type of a triple's tail value."""
    rel = norm_relation(relation)
    if any(k in rel for k in _IDENTIFIER_RELATIONS):
        return TypeDecision("other", f"identifier:{rel}")
    shape = value_shape(value, rel)
    if shape:
        return TypeDecision(shape, "value_pattern")
    if rel in _TAIL_INDEX:
        return TypeDecision(_TAIL_INDEX[rel], f"relation:{rel}")
    v = (value or "").strip()
    if v.startswith("《") and v.endswith("》"):
        return TypeDecision("work", "book_title_marks")
    for t in ("organisation", "place", "event"):
        for suf in _HEAD_SUFFIXES[t]:
            if len(suf) > 1 and v.endswith(suf) and len(v) > len(suf):
                return TypeDecision(t, f"suffix:{suf}")
    return TypeDecision("other", "no_signal")


def type_pair(pair: dict[str, Any]) -> dict[str, Any]:
    """Copy of a pair dict with entity_type and triples[].tail_type set."""
    new = dict(pair)
    triples = [dict(t) for t in (pair.get("triples") or [])]
    new["entity_type"] = entity_type(
        pair.get("entity") or "", pair.get("tags") or [], [t.get("relation") or "" for t in triples], pair.get("subtitle"),
        pair.get("text") or "",
    ).type
    for t in triples:
        t["tail_type"] = tail_type(str(t.get("tail") or ""), t.get("relation") or "").type
    new["triples"] = triples
    return new
