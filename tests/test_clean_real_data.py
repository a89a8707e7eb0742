"""The cleaning logic on real text read at run time from ../shared/data.

DuIE: every spo is annotated as expressed in its sentence, so it is ground
truth for the redundant-triple filter: true triples must be kept (recall)
and negative triples of the same relations taken from other sentences must
be removed (precision). KDConv: Baike-like film/music entities, no ground
truth; we check that every entry and triple gets a fate with a reason and
that the proportions are plausible for Baike (most triples not stated).
"""
from __future__ import annotations

from collections import Counter

from transforms.corpora import duie_to_raw_entries, evaluate_redundant_triple, kdconv_to_raw_entries
from transforms.pairs import entry_to_pair, validate_raw_entry
from transforms.redundancy import CleaningConfig, check_redundant_description, clean_entry
from transforms.relations import normalise_relation, relation_vocabulary
from transforms.text import normalise


def _report(name, r):
    print(f"\n{name}: entries={r['entries']} tp={r['tp']} fp={r['fp']} fn={r['fn']} tn={r['tn']} "
          f"precision={r['precision']:.4f} recall={r['recall']:.4f} by_level={r['by_level']}")
    for x in r["false_positives"][:10]:
        print("  false support:", x[:3])
    for x in r["false_negatives"][:10]:
        print("  missed:", x[:2])


def test_duie_redundant_triple_precision_and_recall(shared_data):
    data = duie_to_raw_entries(shared_data / "duie" / "train.jsonl")
    n_pos = sum(len(p) for p in data.positives)
    n_neg = sum(len(n) for n in data.negatives)
    assert n_pos > 7000 and n_neg > 0.9 * n_pos  # a real test: as many negatives as positives
    r = evaluate_redundant_triple(data)
    _report("DuIE", r)
    assert r["precision"] >= 0.99, r["false_positives"][:20]
    assert r["recall"] >= 0.97, r["false_negatives"][:20]


def test_duie_reworded_values_still_align(shared_data):
    """Same check with the true values spelled differently from the text
    (ISO dates, full-width Latin): the date and normalisation levels must
    carry the recall."""
    data = duie_to_raw_entries(shared_data / "duie" / "train.jsonl", reword=True)
    r = evaluate_redundant_triple(data)
    _report("DuIE reworded", r)
    assert r["by_level"]["date"]["true"] > 100
    assert r["precision"] >= 0.99 and r["recall"] >= 0.97


def test_kdconv_fates_and_reasons(shared_data):
    entries = kdconv_to_raw_entries(shared_data / "kdconv" / "entities_film_music_from_dev_test.jsonl")
    assert len(entries) > 800
    vocab = relation_vocabulary(Counter(normalise_relation(i["name"], {}) for e in entries for i in e["infobox"]), 2)
    cfg = CleaningConfig()
    entry_fate, triple_fate, levels = Counter(), Counter(), Counter()
    n_triples_in = 0
    for e in entries:
        raw, err = validate_raw_entry(e)
        assert err is None
        n_in = len(entry_to_pair(raw)["triples"])
        n_triples_in += n_in
        res = clean_entry(raw, cfg)
        kept = res.pair["triples"] if res.pair else []
        assert n_in == len(kept) + len(res.dropped_triples)  # nothing lost
        triple_fate.update(r for _, r, _ in res.dropped_triples)
        if res.pair is None:
            entry_fate[res.pair_reason] += 1
            continue
        for t in kept:
            levels[t["match"]] += 1
            if t["match"] == "exact":
                assert normalise(res.pair["text"][t["start"]:t["end"]]) == normalise(t["tail"])
        d = check_redundant_description(res.pair, vocab, cfg)
        entry_fate["kept" if d.keep else d.reason] += 1
        triple_fate["kept" if d.keep else "pair_dropped:" + d.reason] += len(kept)
    print(f"\nKDConv: {len(entries)} entries, {n_triples_in} triples\n  entry fates: {dict(entry_fate)}"
          f"\n  triple fates: {dict(triple_fate)}\n  match levels: {dict(levels)}")
    assert sum(entry_fate.values()) == len(entries)
    assert sum(triple_fate.values()) == n_triples_in
    # Independent counts from the file: empty summaries and entities without triples.
    assert entry_fate["empty_text"] == sum(1 for e in entries if not e["summary"].strip() and e["infobox"])
    assert entry_fate["no_triples"] == sum(1 for e in entries if not e["infobox"])
    with_text = [e for e in entries if e["summary"].strip() and e["infobox"]]
    aligned = len(with_text) - entry_fate["no_supported_triple"]
    assert aligned >= 0.8 * len(with_text)  # Baike summaries state some of their infobox
    supported = sum(levels.values())
    unsupported = triple_fate["unsupported_by_text"]
    assert 0.25 <= unsupported / (supported + unsupported) <= 0.75  # ... but far from all of it
    assert levels["exact"] > levels["date"] > 0 and levels["alias"] > 0 and levels["fuzzy"] > 0
    # Long biographies run past their last triple: the position index is the
    # main redundant-description reason, yet a real share of pairs survives.
    assert entry_fate["position_index_below_threshold"] == max(
        v for k, v in entry_fate.items() if k not in ("kept", "empty_text"))
    assert 0.05 * aligned <= entry_fate["kept"] <= 0.5 * aligned
    assert entry_fate["uncovered_relation_mention"] > 0 and entry_fate["ungrounded_enumeration_item"] > 0


def _baike_2019_entries(shared_data):
    """Raw entries from the 2019 Baidu Baike extraction: infobox rows
    (`name$$value`) and the first paragraph of the page text as summary."""
    base = shared_data / "baike-baidu-2019" / "extracted"
    out = {}
    for f in sorted((base / "info-table").glob("*.txt")):
        rows = [line.split("$$", 1) for line in f.read_text(encoding="utf-8").splitlines() if "$$" in line]
        para = base / "info-para" / f.name
        summary = para.read_text(encoding="utf-8").split("\n")[0] if para.exists() else ""
        raw, err = validate_raw_entry({"title": f.stem, "summary": summary, "source": "baidu",
                                       "infobox": [{"name": n, "value": v} for n, v in rows]})
        assert err is None
        out[f.stem] = raw
    return out


def test_real_baike_entries(shared_data):
    """Real Baike infoboxes: layout-spaced names (`简    称`), bracketed
    abbreviations, multi-valued cells, values the summary never states."""
    entries = _baike_2019_entries(shared_data)
    assert len(entries) >= 15
    vocab = relation_vocabulary(Counter(normalise_relation(i["name"], {}) for e in entries.values()
                                        for i in e["infobox"]), 1)
    results = {name: clean_entry(raw) for name, raw in entries.items()}
    for name, res in results.items():
        n_in = len(entry_to_pair(entries[name])["triples"])
        assert n_in == len(res.pair["triples"] if res.pair else []) + len(res.dropped_triples), name

    shu = results["上海大学"]
    kept = {(t["relation"], t["tail"]): t["match"] for t in shu.pair["triples"]}
    assert kept[("中文名", "上海大学")] == "exact"
    assert kept[("外文名", "Shanghai University")] == "exact"
    assert kept[("简称", "上大（SHU）")] == "alias"  # 上大 stated, brackets stripped
    assert ("创办时间", "1994年5月27日") in kept
    dropped = {(t["relation"], t["tail"]): r for t, r, _ in shu.dropped_triples}
    alumni = [k for k in dropped if k[0] == "知名校友"]
    assert len(alumni) >= 5 and all(dropped[k] == "unsupported_by_text" for k in alumni)  # split, then unstated
    # `属    性` and `属性` are the same infobox row rendered twice.
    assert dropped[("属性", "211工程")] == "duplicate_triple"
    # Its summary lists programmes no triple holds: a redundant description.
    d = check_redundant_description(shu.pair, vocab)
    assert d.reason == "ungrounded_enumeration_item"

    fates = Counter()
    for name, res in results.items():
        fates["kept" if res.pair and check_redundant_description(res.pair, vocab).keep
              else "dropped"] += 1
    print(f"\nBaike 2019: {dict(fates)}")
    assert fates["dropped"] > fates["kept"] >= 1  # most Baike summaries run past their infobox


def test_duie_swapped_tails_are_rejected(shared_data):
    """Issue 10: for sentences with several triples of one subject, tails
    swapped between relations (导演 A / 主演 B -> 导演 B / 主演 A), none of them
    in DuIE's labels. Every swapped tail occurs in the text, so string
    matching alone rejects almost none; the role checks must reject >= 0.8."""
    from transforms.corpora import duie_swapped_entries

    data = duie_swapped_entries(shared_data / "duie" / "train.jsonl")
    n_neg = sum(len(n) for n in data.negatives)
    assert n_neg > 2000
    r = evaluate_redundant_triple(data)
    rejected = r["tn"] / (r["tn"] + r["fp"])
    cfg = CleaningConfig()
    cfg.align.roles = False
    r_off = evaluate_redundant_triple(data, cfg)
    rejected_off = r_off["tn"] / (r_off["tn"] + r_off["fp"])
    print(f"\nDuIE swaps: {n_neg} swapped triples in {len(data.entries)} entries; rejected {rejected:.4f} "
          f"(string matching alone: {rejected_off:.4f}); true triples of these entries kept {r['recall']:.4f}")
    for x in r["false_positives"][:10]:
        print("  swap kept:", x[:3])
    assert rejected_off < 0.05
    assert rejected >= 0.8  # the goal
    assert rejected >= 0.88  # reached (0.8870 in session 31: tails of another kind, album singers, bracketed roles, & lists, spaced credits)
    # The true triples of the same entries mostly stay; an entry that gives one
    # person as both father and mother needs a cue to keep either.
    assert r["recall"] >= 0.8
