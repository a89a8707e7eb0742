"""Issue 10: the aligner against our labelled alignment set (docs/alignment.md).

The set stores locators and labels only; the texts are read at run time from
../shared/data (skipped when absent). The held-out part (round 18, the last
143 KdConv travel sights; round 20, 144 LandscapeKnowledge plants; round 22,
209 DuIE subjects; each labelled twice before anyone ran the aligner on
them) was never used to tune it: its figures are the measurement; the tune
part's (all older rounds) are what development reached. See
docs/alignment.md for the rounds.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from transforms.align_kinds import inside_own_name
from transforms.align_labels import MAX_STORED_TAIL, labelled_entries, load_labels, score_alignment
from transforms.redundancy import CleaningConfig

LABELS = Path(__file__).parent / "data" / "alignment_labels.jsonl"


@pytest.fixture(scope="module")
def labelled(shared_data):
    labels = load_labels(LABELS)
    return labels, labelled_entries(shared_data, labels)


def _report(r):
    print(f"\n{r['part']}: kept={r['kept']} stated={r['stated']} span_precision={r['span_precision']:.4f} "
          f"recall={r['recall']:.4f} false_keeps={r['false_keeps']:.4f} by_match={r['by_match']}")


def test_the_labels_are_locators_into_the_parsed_texts(labelled):
    labels, entries = labelled
    assert len(labels) >= 400
    parts = Counter((r["part"], r["stated"]) for r in labels)
    assert parts[("heldout", True)] >= 40 and parts[("tune", True)] >= 150
    for r in labels:
        raw = entries[(r["source"], r["page"])]
        text = raw["summary"]
        assert r["stated"] == bool(r["spans"]), r
        for s, e in r["spans"]:
            assert 0 <= s < e <= len(text), r
            # a span is a word of the text: never the end of the entity's
            # name and the word after it (`垂榆属榆科榆属`: 榆属 is the last two)
            assert text[s:e] in raw["title"] or not inside_own_name(text, s, e, raw["title"]), (r, text[s:e])
    # no text is stored, only offsets; a long value only as its hash
    base = {"source", "page", "entity", "relation", "stated", "spans", "part"}
    assert all(set(r) in (base | {"tail"}, base | {"tail_key"}) for r in labels)
    assert all(len(r["tail"]) <= 2 * MAX_STORED_TAIL for r in labels if "tail" in r)


def test_tune_part(labelled):
    """The pages the rules were developed on. Baike, KdConv and plant rounds
    (1-17, 19, 21: 0.984 / 0.975 / 1.3% after sessions 18 and 19) meet the
    issue's targets. Round 22 (DuIE pages, read and tuned on in session 18)
    is held to its own floors: 0.814 / 0.984 / 14.4%, since DuIE's own recall
    target keeps what its annotators marked and our labellers do not
    (docs/alignment.md, round 23)."""
    labels, entries = labelled
    r = score_alignment([x for x in labels if x["source"] != "duie"], entries, part="tune")
    _report(r)
    assert r["span_precision"] >= 0.98, r["errors"]["wrong_span"] + r["errors"]["false_keep"]
    assert r["recall"] >= 0.968, r["errors"]["missed"]
    assert r["false_keeps"] <= 0.015, r["errors"]["false_keep"]
    r = score_alignment([x for x in labels if x["source"] == "duie"], entries, part="tune")
    _report(r)
    assert r["span_precision"] >= 0.81 and r["recall"] >= 0.97 and r["false_keeps"] <= 0.146, r["errors"]


# (source, span precision floor, recall floor, false keeps ceiling) of each
# held-out round: what the aligner reaches on it. Round 18 was scored once
# in session 12 (0.902 / 0.712 / 7.8%, 51 kept); after session 13's rules,
# written from the tune part alone, it gives 0.895 / 0.788 / 8.8% (57 kept,
# 66 stated). Round 20 went from 0.990 / 0.995 / 0.7% (scored once) to
# 0.994 / 0.995 / 0.4% under later rules. Rounds 21 and 22 were read and
# tuned on later (sessions 15 and 18), so they are tune now. Round 23, 240
# DuIE subjects of one line each, was labelled in session 18 before the
# aligner ran on them and scored once, blind, on the session's final rules:
# 0.884 / 0.983 / 10.8% (664 kept, 602 stated); the session's first
# aligner gave 0.883 / 0.983 / 11.0%. Round 24, 240 more such subjects,
# was labelled later in session 18 and scored once on the same rules:
# 0.857 / 0.980 / 13.2% (622 kept, 551 stated); both rounds together
# 0.871 / 0.982 / 12.0%, and 0.871 / 0.989 / 11.9% after session 19's rules.
# Round 25, 240 more, was labelled in session 19 after its rules and scored
# once: 0.846 / 0.998 / 14.4% (654 kept, 561 stated); rounds 23-25 together
# 0.862 / 0.992 / 12.7%. Round 26, 90 Song poets (a new domain), was labelled
# twice in session 38 before the aligner ran on it; blind, its held-out half
# scored 0.900 / 0.770 / 9.5% (241 kept, 283 stated), and 0.932 / 0.922 / 6.5%
# after the rules written from its tune half alone; 0.933 / 0.933 / 6.4% after
# session 39's (given names, 谥号, one of a group), 0.961 / 0.958 / 3.6% after
# session 40's. Round 27, 80 more Song poets labelled twice in session 40
# before the aligner ran on them, scored once blind on 919fa76: 0.964 / 0.898
# / 3.3% (329 kept, 354 stated); its held-out half 0.955 / 0.871 / 3.9%
# then, 0.950 / 0.912 / 3.7% after the rules from its tune half. Session
# 40's rules took round 18 to 0.915 / 0.818 / 8.5% and rounds 23-25 to
# 0.865 / 0.992 / 12.6%.
HELD_OUT_FLOORS = {
    "kdconv": (0.91, 0.83, 0.084),      # round 18, travel sights: 0.917 / 0.833 / 8.3% (60 kept, 66 stated)
    "plant": (0.99, 0.99, 0.005),       # round 20, plants: 0.994 / 0.995 / 0.4% (817 kept, 818 stated)
    "duie-line": (0.86, 0.99, 0.127),   # rounds 23-25, DuIE lines: 0.865 / 0.992 / 12.6% (1,946 kept, 1,714 stated)
    "poet": (0.96, 0.94, 0.034),        # rounds 26-28, Song poets' held-out halves: 0.962 / 0.941 / 3.3% (612 kept, 629 stated)
}


def test_held_out_part(labelled):
    """The measurement. The issue's targets are 0.97 / 0.95 / 0.02; the
    floors are what the aligner reached on text it was not tuned on, round
    by round (docs/alignment.md), so a regression fails here. The whole
    part misses the targets (0.914 / 0.980 / 8.0% with rounds 23-28; without
    the DuIE rounds 0.979 / 0.966 / 1.9%, which meets them): the DuIE
    rounds keep what DuIE's annotators read as said and our rules do not,
    and the travel round misses all three, by far."""
    labels, entries = labelled
    r = score_alignment(labels, entries, part="heldout")
    _report(r)
    base = score_alignment(labels, entries, CleaningConfig(), part="heldout")
    assert base["kept"] == r["kept"]  # deterministic
    assert {x["source"] for x in labels if x["part"] == "heldout"} == set(HELD_OUT_FLOORS)
    for source, (precision, recall, false_keeps) in HELD_OUT_FLOORS.items():
        part = score_alignment([x for x in labels if x["source"] == source], entries, part="heldout")
        _report(part)
        assert part["span_precision"] >= precision, (source, part["errors"]["wrong_span"], part["errors"]["false_keep"])
        assert part["recall"] >= recall, (source, part["errors"]["missed"])
        assert part["false_keeps"] <= false_keeps, (source, part["errors"]["false_keep"])


def test_the_role_and_boundary_checks_are_what_lifts_precision(labelled):
    """Switched off, the aligner falls back to the first substring: the
    errors the issue lists come back."""
    labels, entries = labelled
    cfg = CleaningConfig()
    cfg.align.roles = cfg.align.word_boundaries = False
    off = score_alignment(labels, entries, cfg)
    on = score_alignment(labels, entries)
    _report(off)
    assert off["false_keeps"] > on["false_keeps"] + 0.03
    assert off["span_precision"] < on["span_precision"] - 0.03


def test_the_cases_the_issue_lists_on_the_real_pages(labelled):
    """Issue 10's findings on the 2019 pages, one by one (texts parsed at run time)."""
    from transforms.redundancy import clean_entry

    _labels, entries = labelled
    page = {key[1]: raw for key, raw in entries.items() if key[0] == "baike2019"}

    def fate(title):
        res = clean_entry(page[title])
        kept = {(t["relation"], t["tail"]): t for t in (res.pair or {}).get("triples", [])}
        dropped = {(t["relation"], t["tail"]): d for t, _r, d in res.dropped_triples}
        return page[title]["summary"], kept, dropped

    text, kept, dropped = fate("吴明红")
    assert ("国籍", "中国") in dropped  # only inside 中国科学院…, 中国共产党
    text, kept, dropped = fate("中国科学院大学")
    assert ("主管部门", "中国科学院") in dropped  # the start of the entity's own name
    assert ("硕士点", "个") not in kept and ("硕士点", "个") not in dropped  # never split off
    assert ("博士点", "40（一级学科）个") in dropped  # not 京内40个
    assert kept[("属性", "环太平洋大学联盟成员")]["match"] == "list_item"
    text, kept, dropped = fate("上海大学")
    assert ("校庆日", "5月27日") in dropped  # the merger date
    assert kept[("属性", "省部共建大学")]["match"] == "paraphrase"
    text, kept, dropped = fate("上海大学学报")
    assert ("创刊时间", "1978年") in dropped  # the predecessor's years
    t = kept[("主办单位", "上海大学")]
    assert text[t["start"] - 1] != "《"  # not inside the journal's own title
    text, kept, dropped = fate("李三立")
    assert kept[("出生地", "上海市")]["match"] == "demonym"


def test_a_baike_page_may_be_named_by_its_file_title_or_file_name(shared_data):
    """A set labelled by someone else may name 徐彬's page as its file does,
    with the disambiguation, by the file name or by its Baike URL: the same
    entry either way."""
    import urllib.parse

    rows = [r for r in load_labels(LABELS) if r["source"] == "baike2019" and r["page"] == "徐彬"]
    assert rows
    stem = next(f.name.split("_百度百科")[0] for f in (shared_data / "baike-baidu-2019" / "pages").glob("徐彬*"))
    assert stem != "徐彬"  # the file carries the disambiguation
    scores = []
    url = "https://baike.baidu.com/item/" + urllib.parse.quote("徐彬") + "/12345"
    for page in ("徐彬", stem, stem + "_百度百科.html", url):
        named = [{**r, "page": page} for r in rows]
        score = score_alignment(named, labelled_entries(shared_data, named), CleaningConfig())
        scores.append((score["kept"], score["stated"], score["recall"], score["false_keeps"]))
    assert scores[0] == scores[1] == scores[2] == scores[3] and scores[0][1] == sum(r["stated"] for r in rows)
    with pytest.raises(ValueError, match="not found"):
        labelled_entries(shared_data, [{**rows[0], "page": "徐彬（另一个人）"}])


def test_a_corpus_page_may_be_named_by_its_title_when_no_other_page_has_it(shared_data):
    """A set labelled by someone else may name a KdConv entity or a plant by
    its title rather than its url: the same entry either way; a title that
    names several pages of the source is an error listing their urls."""
    from collections import Counter

    from transforms import corpora

    for source in ("kdconv", "plant"):
        labelled_urls = Counter(r["page"] for r in load_labels(LABELS) if r["source"] == source)
        entries = {e["url"]: e for e in corpora.data_folder_entries(shared_data, *(
            ("kdconv", "kdconv-travel") if source == "kdconv" else ("plant",)))}
        titles = Counter(e["title"] for e in entries.values())
        url = next(u for u, _ in labelled_urls.most_common() if titles[entries[u]["title"]] == 1)
        rows = [r for r in load_labels(LABELS) if r["page"] == url]
        by_title = [{**r, "page": entries[url]["title"]} for r in rows]
        a = score_alignment(rows, labelled_entries(shared_data, rows), CleaningConfig())
        b = score_alignment(by_title, labelled_entries(shared_data, by_title), CleaningConfig())
        assert (a["kept"], a["stated"], a["recall"], a["false_keeps"]) == (b["kept"], b["stated"], b["recall"],
                                                                           b["false_keeps"])
    kdconv = list(corpora.data_folder_entries(shared_data, "kdconv", "kdconv-travel"))
    twice = next(t for t, n in Counter(e["title"] for e in kdconv).items() if n > 1)
    row = {"source": "kdconv", "page": twice, "relation": "导演", "tail": "某人", "stated": False, "spans": [],
           "part": "heldout"}
    with pytest.raises(ValueError, match=re.escape(twice) + r".*is the title of 2 pages: name one by its url \(kdconv://"):
        labelled_entries(shared_data, [row])


def test_cdtp_align_eval_reports_each_part_and_group(shared_data, tmp_path, capsys):
    from pipeline.cli import main

    # two pages of the set: a Baike page (tune) and a plant (held out)
    labels = load_labels(LABELS)
    pages = [next(r["page"] for r in labels if r["source"] == "baike2019"),
             next(r["page"] for r in labels if r["source"] == "plant" and r["part"] == "heldout")]
    small = tmp_path / "labels.jsonl"
    small.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in labels if r["page"] in pages),
                     encoding="utf-8")
    assert main(["align", "eval", "--labels", str(small), "--data", str(shared_data), "--by-group", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert set(report) == {"all", "tune", "tune/baike2019", "heldout", "heldout/plant"}
    rows = [r for r in labels if r["page"] in pages]
    direct = score_alignment(rows, labelled_entries(shared_data, rows), CleaningConfig(), part="heldout")
    assert report["heldout"]["recall"] == direct["recall"] and "errors" not in report["heldout"]
    # a level switched off as for `cdtp build --set`: the roles' false keeps come back
    assert main(["align", "eval", "--labels", str(small), "--data", str(shared_data), "--json",
                 "--set", "cleaning.align.roles=false"]) == 0
    assert json.loads(capsys.readouterr().out)["all"]["kept"] >= report["all"]["kept"]


@pytest.mark.parametrize("content, reason", [
    (None, "does not exist"),
    ("not json\n", "is not JSON Lines"),
    ('{"source": "kdconv"}\n', "not a label row"),
    ('{"source": "kdconv", "page": "kdconv://film/0", "relation": "导演", "tail": "x", "stated": true,'
     ' "part": "tune"}\n', "`spans` must list"),
    ('{"source": "kdconv", "page": "kdconv://film/0", "relation": "导演", "tail": "x", "stated": true,'
     ' "spans": [[5, 3]], "part": "tune"}\n', "`spans` must list"),
    ('{"source": "kdconv", "page": "kdconv://film/0", "relation": "导演", "tail": "x", "stated": "yes",'
     ' "spans": [[0, 1]], "part": "tune"}\n', "`stated` must be true or false, not 'yes'"),
    ('[1, 2]\n7\n', "a JSON object is expected"),
    ("\n\n", "holds no label row"),
    ('{"source": "wiki", "page": "x", "relation": "导演", "tail": "x", "stated": false, "part": "tune"}\n',
     "unknown source 'wiki'"),
    ('{"source": "kdconv", "page": "kdconv://film/0", "relation": "导演", "tail": "x", "stated": true,'
     ' "spans": [[0, 1]], "part": "tune"}\n'
     '{"source": "kdconv", "page": "kdconv://film/0", "relation": "导演", "tail": "x", "stated": false,'
     ' "spans": [], "part": "tune"}\n', "labelled False here and True on line 1"),
    ('{"source": "raw", "page": "https://x/1", "relation": "导演", "tail": "x", "stated": false,'
     ' "spans": [], "part": "tune"}\n', "give them with --entries"),
    # a page of null and a number for a tail were tracebacks
    ('{"source": "kdconv", "page": null, "relation": "导演", "tail": "x", "stated": false, "spans": [],'
     ' "part": "tune"}\n', "line 1: page must be a non-empty string"),
    ('{"source": "kdconv", "page": "kdconv://film/0", "relation": "导演", "tail": 5, "stated": false,'
     ' "spans": [], "part": "tune"}\n', "line 1: tail must be a non-empty string"),
])
def test_cdtp_align_eval_rejects_a_bad_labels_file_with_a_reason(tmp_path, capsys, content, reason):
    from pipeline.cli import main

    path = tmp_path / "labels.jsonl"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["align", "eval", "--labels", str(path), "--data", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cdtp: error: ") and reason in err and "Traceback" not in err


def test_cdtp_align_eval_scores_labels_on_pages_of_one_s_own_crawl(tmp_path, capsys):
    """Rows of source `raw` name pages of RawEntry JSON Lines (a crawl's output): no shared data needed."""
    from pipeline.cli import main

    text = "清风大学位于杭州市，创建于1921年，是一所综合性大学。"
    entry = {"title": "清风大学", "url": "https://baike.baidu.com/item/清风大学/1", "summary": text,
             "infobox": [{"name": "创办时间", "value": "1921年"}, {"name": "所在地", "value": "杭州市"},
                         {"name": "校长", "value": "周文"}]}
    (tmp_path / "raw-00000.jsonl").write_text(json.dumps(entry, ensure_ascii=False) + "\n", encoding="utf-8")

    def row(relation, tail, spans):  # no `part`: a set labelled elsewhere is held out whole
        return {"source": "raw", "page": entry["url"], "entity": "清风大学", "relation": relation, "tail": tail,
                "stated": bool(spans), "spans": spans}

    i, j = text.index("1921年"), text.index("杭州市")
    rows = [row("创办时间", "1921年", [[i, i + 5]]), row("所在地", "杭州市", [[j, j + 3]]), row("校长", "周文", [])]
    labels = tmp_path / "labels.jsonl"
    labels.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    args = ["align", "eval", "--labels", str(labels), "--entries", str(tmp_path / "raw-*.jsonl"),
            "--data", str(tmp_path / "absent"), "--json"]
    assert main(args) == 0
    held = json.loads(capsys.readouterr().out)["heldout"]
    assert (held["kept"], held["stated"], held["span_precision"], held["recall"], held["false_keeps"]) == (2, 2, 1.0, 1.0, 0.0)
    # the T2KG case this page gives: its one sentence, with both kept triples as a right gold
    assert held["t2kg"] == {"sentences": 1, "gold_triples": 2, "gold_stated": 1.0, "missing_from_gold": 0.0}
    # a labelled page the entries do not hold is named
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "raw-00000.jsonl").write_text(
        json.dumps({**entry, "url": "https://baike.baidu.com/item/明月大学/2", "title": "明月大学"},
                   ensure_ascii=False) + "\n", encoding="utf-8")
    assert main(["align", "eval", "--labels", str(labels), "--entries", str(tmp_path / "other" / "raw-*.jsonl"),
                 "--data", str(tmp_path / "absent")]) == 2
    err = capsys.readouterr().err
    assert "labelled pages not found" in err and "清风大学/1" in err
    # an entries line that is no RawEntry is named, not skipped
    with open(tmp_path / "other" / "raw-00000.jsonl", "a", encoding="utf-8") as fh:
        fh.write("[1, 2]\n")
    assert main(["align", "eval", "--labels", str(labels), "--entries", str(tmp_path / "other" / "raw-*.jsonl"),
                 "--data", str(tmp_path / "absent")]) == 2
    assert "line 2: not a RawEntry" in capsys.readouterr().err


def test_a_page_of_one_s_own_crawl_is_named_by_its_title_only_when_no_other_page_has_it(tmp_path, capsys):
    """`raw` pages are found as corpus pages are: by url, or by a title no
    other page shares (one url crawled twice is still one page)."""
    from pipeline.cli import main

    text = "清风大学位于杭州市，创建于1921年。"
    entry = {"title": "清风大学", "url": "https://baike.baidu.com/item/清风大学/1", "summary": text,
             "infobox": [{"name": "所在地", "value": "杭州市"}]}
    j = text.index("杭州市")
    labels = tmp_path / "labels.jsonl"
    labels.write_text(json.dumps({"source": "raw", "page": "清风大学", "relation": "所在地", "tail": "杭州市",
                                  "stated": True, "spans": [[j, j + 3]]}, ensure_ascii=False) + "\n", encoding="utf-8")

    def run(*entries):
        (tmp_path / "raw-00000.jsonl").write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries),
                                                  encoding="utf-8")
        rc = main(["align", "eval", "--labels", str(labels), "--entries", str(tmp_path / "raw-*.jsonl"),
                   "--data", str(tmp_path / "absent"), "--json"])
        return rc, capsys.readouterr()

    rc, out = run(entry, entry)
    assert rc == 0 and json.loads(out.out)["heldout"]["recall"] == 1.0
    rc, out = run(entry, {**entry, "url": "https://baike.baidu.com/item/清风大学/2"})
    assert rc == 2
    assert "is the title of 2 pages: name one by its url (https://baike.baidu.com/item/清风大学/1, " in out.err


def test_cdtp_align_eval_refuses_spans_that_are_no_offsets_into_the_page_s_text(tmp_path, capsys):
    """Spans made on another text of the page (another parse, a newer
    revision) would be scored as wrong spans and false keeps: a span past the
    text's end, or a page none of whose stated values its spans name, is a
    clear error naming the line, not a figure."""
    from pipeline.cli import main

    text = "明湖书院位于湖州市，始建于1736年，首任山长为沈括之。书院藏书三万卷。"
    entry = {"title": "明湖书院", "url": "https://baike.baidu.com/item/明湖书院/3", "summary": text,
             "infobox": [{"name": "所在地", "value": "湖州市"}, {"name": "始建时间", "value": "1736年"},
                         {"name": "首任山长", "value": "沈括之"}, {"name": "藏书", "value": "三万卷"}]}
    (tmp_path / "raw-00000.jsonl").write_text(json.dumps(entry, ensure_ascii=False) + "\n", encoding="utf-8")

    def run(rows):
        labels = tmp_path / "labels.jsonl"
        labels.write_text("".join(json.dumps({"source": "raw", "page": entry["url"], "relation": rel, "tail": tail,
                                              "stated": bool(spans), "spans": spans}, ensure_ascii=False) + "\n"
                                  for rel, tail, spans in rows), encoding="utf-8")
        rc = main(["align", "eval", "--labels", str(labels), "--entries", str(tmp_path / "raw-*.jsonl"),
                   "--data", str(tmp_path / "absent")])
        return rc, capsys.readouterr()

    def at(value, shift=0):
        i = text.index(value) + shift
        return [[i, i + len(value)]]

    rows = [("所在地", "湖州市", at("湖州市")), ("始建时间", "1736年", at("1736年")),
            ("首任山长", "沈括之", at("沈括之")), ("藏书", "三万卷", at("三万卷"))]
    rc, out = run(rows)
    assert rc == 0 and "span precision 1.000" in out.out
    # a relation named as the page's markup writes it is the same triple
    rc, out = run([("所\xa0在\xa0地", "湖州市", at("湖州市"))] + rows[1:])
    assert rc == 0 and "span precision 1.000  recall 1.000  false keeps 0.0%" in out.out
    # one span past the end of the 36-character text
    rc, out = run(rows[:3] + [("藏书", "三万卷", [[30, 60]])])
    assert rc == 2 and "line 4: span [30, 60] runs past the end of the page's text (36 characters)" in out.err
    # every span moved by six characters, as on a text with a longer first clause: no value is named
    rc, out = run([(rel, tail, at(tail, shift=6)) for rel, tail, _ in rows[:3]])
    assert rc == 2 and "line 1: none of the 3 stated values of page" in out.err
    assert "Traceback" not in out.err
    # two rows are too few to tell a shifted page from two paraphrases
    rc, _ = run([(rel, tail, at(tail, shift=6)) for rel, tail, _ in rows[:2]])
    assert rc == 0


def test_t2kg_gold_is_scored_against_the_labels():
    """A T2KG case's gold (the kept triples supported inside one sentence) is
    right where the labels find the triple stated in that sentence; a triple
    the labels find stated there and the gold lacks is counted as missing."""
    from transforms.align_labels import _t2kg_gold

    # each sentence names its head (items/t2kg.py: a sentence that does not is no case)
    text = "明湖大学位于杭州市。明湖大学校长周文毕业于北京大学。"
    i, j, k = text.index("杭州市"), text.index("周文"), text.index("北京大学")
    kept = [{"head": "明湖大学", "relation": "所在地", "tail": "杭州市", "start": i, "end": i + 3},
            {"head": "明湖大学", "relation": "校长", "tail": "北京大学", "start": k, "end": k + 4}]  # a wrong keep

    def row(relation, tail, spans):
        return {"relation": relation, "tail": tail, "stated": bool(spans), "spans": spans}

    rows = {("所在地", "杭州市"): row("所在地", "杭州市", [[i, i + 3]]),
            ("校长", "北京大学"): row("校长", "北京大学", []),
            ("校长", "周文"): row("校长", "周文", [[j, j + 2]]),  # stated, not kept
            ("中文名", "明湖大学"): row("中文名", "明湖大学", [[0, 4]])}  # trivial: in no gold, never missing
    counts = dict.fromkeys(("sentences", "gold", "gold_stated", "said", "missing"), 0)
    _t2kg_gold("明湖大学", text, kept, rows, counts)
    assert counts == {"sentences": 2, "gold": 2, "gold_stated": 1, "said": 2, "missing": 1}
