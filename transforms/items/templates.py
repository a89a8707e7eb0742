"""Questions and prompts: which triples become items, asked which way.

QA (CB-ECLLM App. C.2) asks one kept triple as a natural Chinese question,
`(±)反式菊酸的分子式是什么？`. The most frequent Baike relations get a
hand-written template (their generic form reads badly: `鲁迅的出生地是什么？`
asks for a thing where the answer is a place); every other relation falls
back to `{h}的{r}是什么？`, or `{h}的{r}是谁？` when the answer is a person
(`安庆市第七中学的校长是谁？`). Relations whose value is a list (代表作品, 主演)
ask for "one of" them, since the other true values are never offered.

KGC uses the paper's triple form, `(h, r, ?)` and `(?, r, t)`.

Asking for the head (the rule, also in docs/items.md): only where the head
is identifiable from the relation and the tail, i.e.
  1. the relation is in HEAD_TEMPLATES: relations that are functional in the
     inverse direction for their usual tails (a work has one 作者/导演 and a
     country one 首都, so "which work did X direct" has a definite answer
     among the options once every other work X directed is excluded);
  2. in the whole graph exactly one head states (relation, tail) — otherwise
     the question has several right answers;
  3. the tail names something (not a date, number or quantity: "which entity
     was founded in 1949" is not identifiable).
"""
from __future__ import annotations

import hashlib
import re

from transforms.items.exclusion import ALIAS_RELATIONS
from transforms.items.kinds import coarse
from transforms.role_cues import CREDIT_RELATIONS
from transforms.text import normalise
from transforms.trivial import trivial_reason

# relation -> question asking for the tail; {h} is the head as shown.
TAIL_TEMPLATES: dict[str, str] = {
    "出生日期": "{h}的出生日期是哪一天？",
    "出生时间": "{h}出生于什么时候？",
    "逝世日期": "{h}的逝世日期是哪一天？",
    "出生地": "{h}出生在哪里？",
    "国籍": "{h}的国籍是哪个国家？",
    "民族": "{h}是哪个民族的？",
    "职业": "{h}的职业是什么？",
    "毕业院校": "{h}毕业于哪所学校？",
    "代表作品": "下列哪一项是{h}的代表作品？",
    "主要作品": "下列哪一项是{h}的主要作品？",
    "主要成就": "下列哪一项是{h}的主要成就？",
    "作者": "{h}的作者是谁？",
    "导演": "{h}的导演是谁？",
    "编剧": "{h}的编剧是谁？",
    "主演": "下列哪一位是{h}的主演？",
    "主角": "{h}的主角是谁？",
    "歌手": "{h}的演唱者是谁？",
    "作词": "{h}的作词人是谁？",
    "作曲": "{h}的作曲人是谁？",
    "出版社": "{h}由哪家出版社出版？",
    "出版时间": "{h}是什么时候出版的？",
    "上映时间": "{h}是什么时候上映的？",
    "发行时间": "{h}是什么时候发行的？",
    "所属专辑": "{h}收录在哪张专辑中？",
    "创始人": "{h}的创始人是谁？",
    "成立时间": "{h}成立于什么时候？",
    "创办时间": "{h}创办于什么时候？",
    "总部地点": "{h}的总部位于哪里？",
    "所在地": "{h}位于哪里？",
    "地理位置": "{h}位于哪里？",
    "所属地区": "{h}属于哪个地区？",
    "首都": "{h}的首都是哪座城市？",
    "面积": "{h}的面积是多少？",
    "人口": "{h}有多少人口？",
    "海拔": "{h}的海拔是多少？",
    "身高": "{h}的身高是多少？",
    "体重": "{h}的体重是多少？",
    "妻子": "{h}的妻子是谁？",
    "丈夫": "{h}的丈夫是谁？",
    "父亲": "{h}的父亲是谁？",
    "母亲": "{h}的母亲是谁？",
    "朝代": "{h}是哪个朝代的人？",
    "字": "{h}字什么？",
    "号": "{h}号什么？",
    "界": "{h}属于哪个界？",
    "门": "{h}属于哪个门？",
    "纲": "{h}属于哪个纲？",
    "目": "{h}属于哪个目？",
    "科": "{h}属于哪个科？",
    "属": "{h}属于哪个属？",
    "分子式": "{h}的分子式是什么？",
    "分子量": "{h}的分子量是多少？",
    "类型": "{h}属于什么类型？",
    "类别": "{h}属于什么类别？",
    "校训": "{h}的校训是什么？",
    "董事长": "{h}的董事长是谁？",
    "注册资本": "{h}的注册资本是多少？",
    "气候": "{h}属于什么气候？",
    "气候条件": "{h}属于什么气候？",
    "花期": "{h}的花期是什么时候？",
    "主要食材": "下列哪一项是{h}的主要食材？",
    # relations named by a verb, which `{h}的{r}是什么？` cannot carry (`溲疏的属于是什么？`)
    "属于": "{h}属于下列哪一项？",
    "改编自": "{h}改编自下列哪部作品？",
    "饰演": "下列哪一个是{h}饰演过的角色？",
    "配音": "下列哪一个是{h}配音过的角色？",
    "获奖": "下列哪一项是{h}获得的奖项？",
}
GENERIC_TAIL = "{h}的{r}是什么？"
# A person asked with no template of its relation: `安庆市第七中学的校长是谁？`, not `…是什么？`.
GENERIC_PERSON = "{h}的{r}是谁？"
GENERIC_ONE_OF = "下列哪一项是{h}的{r}？"
# A date relation asked as precisely as its value gives it: `唐太宗的出生日期是哪一天？`
# asks for a day that the answer (598年) and every option lack. Each tuple: the
# question for a year alone, then for any other value without a day (1763年2月).
COARSE_DATE_TEMPLATES: dict[str, tuple[str, str]] = {
    "出生日期": ("{h}出生于哪一年？", "{h}出生于什么时候？"),
    "逝世日期": ("{h}逝世于哪一年？", "{h}逝世于什么时候？"),
}
_GIVES_A_DAY = re.compile(r"\d{1,2}[日号]|\d{4}[-/.]\d{1,2}[-/.]\d{1,2}")
_YEAR_ONLY = re.compile(r"^(?:约|大约)?(?:公元前?)?\d{1,4}年?$")

# relation -> question asking for the head; {t} is the tail. See the module rule.
HEAD_TEMPLATES: dict[str, str] = {
    "作者": "下列哪部作品的作者是{t}？",
    "导演": "下列哪部作品由{t}执导？",
    "编剧": "下列哪部作品的编剧是{t}？",
    "作词": "下列哪首作品由{t}作词？",
    "作曲": "下列哪首作品由{t}作曲？",
    "首都": "{t}是哪个国家的首都？",
    "创始人": "{t}创办了下列哪个机构？",
    "所属专辑": "下列哪首歌曲收录在专辑《{t}》中？",  # the title in 《》, as Chinese writes it (专辑《3》)
}
# Tail types that name nothing a question could point back from.
UNNAMED_TYPES = frozenset({"date", "number", "quantity"})

KGC_TAIL = "({h}, {r}, ?)"
KGC_HEAD = "(?, {r}, {t})"


def shown_head(entity: str, subtitle: str | None, polysemous: bool) -> str:
    """The head as a question shows it: with its sense (`杜鹃（植物）`) when the
    name has several senses in the graph, so the question has one answer."""
    if polysemous and subtitle:
        return f"{entity}（{subtitle}）"
    return entity


# Relations whose head is a work whatever its page's type says (a poem typed
# a place by its page's opening): a credit (the aligner's list, so a credit
# it learns is a work's here too), an author, an album, a release.
WORK_HEAD_RELATIONS = CREDIT_RELATIONS | {"作者", "所属专辑", "上映时间", "发行时间", "出品公司", "出版社"}


def names_a_work(head_type: str | None, relation: str) -> bool:
    """Whether a question's head is a work: by its type (`work:<kind>`) or its relation."""
    return coarse(head_type or "") == "work" or relation in WORK_HEAD_RELATIONS


def as_title(shown: str, name: str) -> str:
    """A work's name as Chinese prose writes it, in 《》 (`《十七岁的雨季》的演唱者是谁？`,
    not `十七岁的雨季的演唱者是谁？`, where the title runs into the question):
    `shown` is the name as the question shows it (with its sense,
    `《杜鹃》（歌曲）`), `name` the bare name. A name already in 《》 is left alone."""
    bare = (name or "").strip()
    if not bare or bare.startswith("《") or not shown.startswith(bare):
        return shown
    return f"《{bare}》{shown[len(bare):]}"


def qa_question(relation: str, asked: str, head_shown: str, tail: str, several: bool = False,
                tail_type: str | None = None) -> str:
    """The question of a QA item. `several`: the entity has other values of the
    relation (深圳's nine 下辖地区, 曹雪芹's two 号), so the question asks for one
    of them, `下列哪一项是深圳的下辖地区？`, not as if the answer were the only one.
    `tail_type` (the answer's option type): a person is asked with 谁."""
    if asked == "head":
        return HEAD_TEMPLATES[relation].format(t=tail.strip().removeprefix("《").removesuffix("》")
                                              if "《{t}》" in HEAD_TEMPLATES[relation] else tail)
    if several and "下列" not in TAIL_TEMPLATES.get(relation, ""):
        return GENERIC_ONE_OF.format(h=head_shown, r=relation)
    date_forms = COARSE_DATE_TEMPLATES.get(relation)
    if date_forms and not _GIVES_A_DAY.search(tail):
        return date_forms[0 if _YEAR_ONLY.match(tail.strip()) else 1].format(h=head_shown)
    # an alias of a person is a name, not someone: `李白的别名是什么？`
    person = coarse(tail_type or "") == "person" and relation not in ALIAS_RELATIONS
    generic = GENERIC_PERSON if person else GENERIC_TAIL
    return TAIL_TEMPLATES.get(relation, generic).format(h=head_shown, r=relation)


def kgc_question(relation: str, asked: str, head_shown: str, tail: str) -> str:
    if asked == "head":
        return KGC_HEAD.format(r=relation, t=tail)
    return KGC_TAIL.format(h=head_shown, r=relation)


_PAIRED_MARKS = ("（）", "()", "《》", "“”", "【】")


def malformed_name(name: str) -> bool:
    """A name whose brackets, title marks or quotes do not pair up: a piece of
    a sentence taken for a name (DuIE's subject `朱子语类大全）140卷，即今通行本《朱子语类`),
    which no question should show."""
    for opener, closer in _PAIRED_MARKS:
        depth = 0
        for ch in name or "":
            depth += (ch == opener) - (ch == closer)
            if depth < 0:
                return True
        if depth:
            return True
    return False


def skip_tail_reason(head: str, relation: str, tail: str) -> str | None:
    """Why a triple is not asked for its tail (a trivial_* reason,
    `malformed_name`, `answer_holds_name` or `answer_in_name`), or None.

    An answer that holds the asked entity's name (溲疏 属于 溲疏属, 紫荆 属于
    紫荆属) is as a rule the one option that does, the distractors being other
    entities' values: the question gives it away, true as the triple is. So
    does an answer the name holds (`中国科学院大学的主管部门是什么？`, 中国科学院;
    `新疆桃的地理分布`, 新疆): a fact, not trivial (transforms/trivial.py), but
    the one option the question shows."""
    if not (tail or "").strip():
        return "empty_tail"
    if malformed_name(head) or malformed_name(tail):
        return "malformed_name"
    why = trivial_reason(head, relation, tail)
    if why:
        return f"trivial_{why}"
    return _gives_away(normalise(tail), normalise(head or ""))


def _gives_away(answer: str, shown: str) -> str | None:
    """`answer_holds_name` when the answer holds the name the question shows,
    `answer_in_name` when the name holds the answer (both normalised), else None."""
    if len(shown) >= 2 and shown in answer:
        return "answer_holds_name"
    return "answer_in_name" if answer and answer in shown else None


def skip_head_reason(head: str, relation: str, tail: str) -> str | None:
    """Why a head question (?, relation, tail) that head_askable allows is not
    asked, or None: the triple is trivial (`这般发生 所属专辑 这般发生`, the title
    track, asked `下列哪首歌曲收录在专辑《这般发生》中？`), or its answer holds the
    name the question shows (`下列哪部作品的作者是顾颉刚？`, 顾颉刚全集: the one
    option holding 顾颉刚) or is held by it, as skip_tail_reason's."""
    why = trivial_reason(head, relation, tail)
    if why:
        return f"trivial_{why}"
    return _gives_away(normalise(head or ""), normalise(tail or ""))


def head_askable(relation: str, tail_type: str | None, heads_with_same_fact: int) -> str | None:
    """None when (?, relation, tail) may be asked, else why not (the module rule)."""
    if relation not in HEAD_TEMPLATES:
        return "head_not_functional"
    if tail_type in UNNAMED_TYPES:
        return "head_tail_unnamed"
    if heads_with_same_fact != 1:
        return "head_not_unique"
    return None


def item_id(task: str, pair_id: str, relation: str | None, tail: str | None, asked: str | None,
            extra: str = "") -> str:
    """Stable id of an item: the same triple asked the same way keeps its id."""
    key = "\x1f".join((task, pair_id or "", relation or "", tail or "", asked or "", extra))
    return hashlib.blake2b(key.encode("utf-8"), digest_size=8).hexdigest()
