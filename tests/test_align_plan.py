"""Session 41: the levels align_triple skips for a value (transforms/align.py,
_value_plan) are only those that find it in no text: whatever the text, the
skipped level's function returns nothing."""
from transforms import align_forms as F
from transforms.align import AlignConfig, _value_plan
from transforms.align_levels import date_spans, number_spans

VALUES = ["1994年5月27日", "2015年06月18日（中国）", "2900万美元", "12首", "2小时 - 3小时", "卡罗莱那", "道格·李曼",
          "北方大学联盟成员", "上海大学副校长", "省部共建", "免费开放", "“宋四家”之一", "元丰二年状元", "国语",
          "华纳兄弟娱乐公司", "梦工厂电影发行公司", "汉族", "男", "美国纽约曼哈顿", "参加北伐战争", "影视演员",
          "深州知州", "中文系", "abc", "（2004年电影）"]
RELATIONS = ["出生日期", "主要成就", "职业", "官职", "毕业院校", "语言", "代表作品", "办学性质", "门票", "民族", "国籍"]
# Every form of the values above, as the levels look for them.
FORMS = ("卡罗莱纳，道格·里曼。北方大学联盟、东部高校联盟成员。上海大学党委常委、副校长。"
         "教育部与浙江省人民政府共建，免费参观，与蔡襄、苏轼、黄庭坚合称宋四家，元丰二年进士第一，"
         "国语专辑，华纳兄弟公司，梦工厂，1994年5月27日，二千九百万美元，十二首，2-3小时，参加了北伐战争，"
         "影视女演员，知深州，中文专业。")


def test_a_skipped_level_finds_nothing():
    cfg = AlignConfig()
    seen = set()
    for v in VALUES:
        for r in RELATIONS:
            p = _value_plan(v, r)
            seen.update(name for name, on in p._asdict().items() if on is True)
            for t in (v, f"据说{v}，又称{v}。", FORMS, FORMS + v):
                if not p.date:
                    assert date_spans(v, t, cfg) == [] and date_spans(p.outside, t, cfg) == []
                if not p.number:
                    assert number_spans(v, t, cfg, r) == []
                if not p.transliteration:
                    assert F.transliteration_spans(v, t, r) == []
                if not p.list_item:
                    assert F.list_item_spans(v, t) == []
                if not p.paraphrase:
                    assert F.paraphrase_spans(v, t, r) == []
                if not p.short_name:
                    assert F.short_name_spans(v, t) == []
    # the values above let every level run for some of them
    assert seen == {"date", "number", "transliteration", "list_item", "paraphrase", "short_name"}


def test_the_plan_changes_no_decision_on_the_labelled_pages(shared_data, monkeypatch):
    """Every page of the labelled set (24k triples of five sources) gives the
    same pairs and the same drop reasons with the plan as with every level
    run: a form added to a level and not to its plan's predicate fails here."""
    import transforms.align as A
    from transforms.align_labels import labelled_entries, load_labels
    from transforms.redundancy import CleaningConfig, clean_entry
    from tests.test_align_labels import LABELS

    entries = list(labelled_entries(shared_data, load_labels(LABELS)).values())
    cfg = CleaningConfig()
    planned = [(r.pair, r.dropped_triples) for r in (clean_entry(e, cfg) for e in entries)]

    def no_plan(value, relation):
        raise RuntimeError("every level runs")
    monkeypatch.setattr(A, "_value_plan", no_plan)
    assert [(r.pair, r.dropped_triples) for r in (clean_entry(e, cfg) for e in entries)] == planned
