"""`cdtp demo` end to end: sample site -> crawl -> search index -> build -> queries.

One test on purpose: the demo is the whole main job (crawl in a subprocess,
Beam build, DuckDB) and takes tens of seconds, so every assertion reads the
one output directory it leaves. What it guards:

* the four CDTP domains all get pairs from the 24 sample pages;
* the audit rule holds on the real chain: every raw entry and every triple has
  exactly one audit row, so inputs = kept + dropped;
* search co-occurrence validation (paper §3.2) is on in the demo and is fed by
  the bundled search corpus: most triples are kept as `verified` with a corpus
  document as evidence, and the facts the corpus deliberately leaves out
  (e.g. 任正非's birth date written 1944年10月25日 instead of 1944-10-25) are
  dropped with reason no_cooccurrence, never because of their own page.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.query import connect

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "crawlers" / "sample_site" / "search_corpus.jsonl"

# Facts of the sample pages that the bundled corpus deliberately does not state.
UNCORROBORATED = {
    ("任正非", "1944-10-25"),   # the corpus writes 1944年10月25日
    ("曹操", "220年3月15日"),   # the corpus writes 建安二十五年正月（220年）
    ("曹雪芹", "约1715年"),     # the corpus writes 大约生于1715年
    ("深圳", "光明区"),
    ("银杏", "鸭脚树"),
    ("杜鹃", "山石榴"),
}


def _corpus_urls() -> set[str]:
    urls = set()
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        doc = json.loads(line)
        assert set(doc) == {"url", "title", "text"}, doc
        assert doc["url"].split("/")[2].endswith((".example.org", ".example.com")), doc["url"]
        urls.add(doc["url"])
    return urls


def test_search_corpus_shape_and_deliberate_gaps():
    """The corpus is search-result sized, on example domains, and really lacks
    the facts the demo is meant to drop (while naming their entities)."""
    docs = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]
    assert 60 <= len(docs) <= 100
    assert len(_corpus_urls()) == len(docs)  # unique URLs, example domains, {url,title,text}
    assert all(isinstance(d[k], str) and d[k].strip() for d in docs for k in ("url", "title", "text"))
    assert max(len(d["text"]) for d in docs) <= 300  # one passage each, like a search snippet
    texts = [f"{d['title']}\n{d['text']}" for d in docs]
    for head, tail in UNCORROBORATED:
        assert any(head in t for t in texts), head
        assert not [t for t in texts if head in t and tail in t], (head, tail)


@pytest.mark.timeout(600)
def test_demo_end_to_end_with_search_validation(tmp_path):
    out = tmp_path / "demo"
    done = subprocess.run(
        [sys.executable, "-m", "pipeline.cli", "demo", "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=580,
    )
    assert done.returncode == 0, f"demo failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}"
    assert (out / "search_index.duckdb").is_file()
    assert "search_evidence" in done.stdout and "no_cooccurrence" in done.stdout

    raw_entries = [json.loads(line) for p in sorted((out / "raw").glob("raw-*.jsonl"))
                   for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    assert len(raw_entries) == 24

    build = out / "build"
    stats = json.loads((build / "stats.json").read_text(encoding="utf-8"))
    con = connect(str(build))
    q = lambda sql: con.execute(sql).fetchall()  # noqa: E731

    # Pairs in all four domains.
    domains = dict(q("SELECT domain, count(*) FROM pairs GROUP BY domain"))
    assert set(domains) >= {"HP", "HS", "TE", "NE"}, domains
    assert all(domains[d] >= 3 for d in ("HP", "HS", "TE", "NE")), domains

    # Audit: one row per raw entry, one row per triple; inputs = kept + dropped.
    entry_rows = q("SELECT entry_key, count(*) FROM audit WHERE kind = 'entry' GROUP BY entry_key")
    assert len(entry_rows) == len(raw_entries) and all(n == 1 for _, n in entry_rows), entry_rows
    assert {k.rsplit(":", 1)[-1] for k, _ in entry_rows} == {e["lemma_id"] for e in raw_entries}
    triple_rows = q("SELECT triple_id, count(*) FROM audit WHERE kind = 'triple' GROUP BY triple_id")
    assert all(n == 1 for _, n in triple_rows), [r for r in triple_rows if r[1] != 1][:5]
    triples_in = max(s["in"]["triples"] for s in stats["funnel"])
    assert len(triple_rows) == triples_in
    t = stats["totals"]
    assert t["entry"]["kept"] + t["entry"]["dropped"] == len(raw_entries)
    assert t["triple"]["kept"] + t["triple"]["dropped"] == triples_in
    (kept_pairs,), = q("SELECT count(*) FROM pairs")
    (kept_triples,), = q("SELECT count(*) FROM triples")
    assert q("SELECT count(*) FROM audit WHERE kind = 'entry' AND fate = 'kept'") == [(kept_pairs,)]
    assert q("SELECT count(*) FROM audit WHERE kind = 'triple' AND fate = 'kept'") == [(kept_triples,)]
    assert q("SELECT count(*) FROM triples t ANTI JOIN audit a ON a.triple_id = t.triple_id AND a.fate = 'kept'") \
        == [(0,)]

    # Search validation: every deliberately uncorroborated fact that reaches
    # the stage is dropped for no co-occurrence (none is kept, whatever stage
    # decides), and the corpus corroborates nearly everything else.
    dropped = q("SELECT head, tail, reason, detail FROM audit "
                "WHERE stage = 'search_validation' AND kind = 'triple'")
    assert {r for _, _, r, _ in dropped} == {"no_cooccurrence"}, dropped
    assert all(json.loads(d)["results_checked"] >= 1 for *_, d in dropped)
    fates = {(h, tl): (fate, stage) for h, tl, fate, stage in
             q("SELECT head, tail, fate, stage FROM audit WHERE kind = 'triple'")}
    assert all(fates[fact][0] == "dropped" for fact in UNCORROBORATED if fact in fates), fates
    reached = {(h, tl) for h, tl, _, _ in dropped}
    assert len(reached & UNCORROBORATED) >= 5, reached
    search_in = stats["search"]["triples_verified"] + stats["search"]["triples_not_cooccurring"]
    assert len(dropped) <= 0.15 * search_in, f"the corpus corroborates too little: {sorted(reached)}"
    assert stats["search"]["triples_not_cooccurring"] == len(dropped)

    statuses = dict(q("SELECT search_status, count(*) FROM triples GROUP BY ALL"))
    assert statuses == {"verified": kept_triples}, statuses
    assert kept_triples >= 80
    corpus_urls = _corpus_urls()
    evidence = [e for (e,) in q("SELECT search_evidence FROM triples")]
    from_corpus = [e for e in evidence if e.split("#")[0] in corpus_urls]
    assert len(from_corpus) >= 0.8 * len(evidence), evidence
    # Evidence is never the triple's own page.
    assert q("SELECT count(*) FROM triples t JOIN pairs p USING (pair_id) "
             "WHERE split_part(t.search_evidence, '#', 1) = p.source_url") == [(0,)]
    assert stats["search"]["triples_verified"] == kept_triples
    # stats.json's top relations (Figure 6) are those of the written pairs, after search validation
    # dropped triples: the relation-frequency stage's count (别名 14 where the pairs keep 12) is
    # kept under its own name.
    written = q("SELECT relation, count(*) AS n FROM triples GROUP BY relation ORDER BY n DESC, relation LIMIT 20")
    assert [(r["relation"], r["count"]) for r in stats["relations"]["top"]] == written
    assert stats["relations"]["top_after_cleaning"] != stats["relations"]["top"]

    # Benchmark items (issue 8): every task is shown, and every QA/KGC item of
    # the sample site meets the invariants against the sets recomputed from the pairs.
    from transforms.items.distractors import violations
    from transforms.items.exclusion import pieces
    from transforms.text import normalise

    assert "benchmark items" in done.stdout and "distractors from:" in done.stdout
    assert {task for (task,) in q("SELECT DISTINCT task FROM items")} == {"qa", "kgc", "t2t", "t2kg"}
    assert stats["items"]["invariant_violations"] == 0 and stats["items"]["leakage"]["after_drops"] == 0
    known: dict = {}
    for head, relation, tail in q("SELECT entity, relation, tail FROM triples"):
        known.setdefault((normalise(head), relation), set()).update(pieces(tail, relation))
    cur = con.execute("SELECT * FROM items WHERE task IN ('qa', 'kgc') AND asked = 'tail'")
    names = [d[0] for d in cur.description]
    asked = [dict(zip(names, r)) for r in cur.fetchall()]
    assert len(asked) >= 20
    for item in asked:
        assert violations(item, frozenset(known[(normalise(item["head"]), item["relation"])])) == [], item

    # The offline baselines are evaluated on those items and ranked (issues 9 and 13): every level of
    # the leaderboard is filled for all four, and cdtp query shows the same table.
    board = json.loads((build / "leaderboard" / "leaderboard.json").read_text(encoding="utf-8"))
    assert set(board["overall"]) == {"random", "most-frequent", "embed", "template"}
    assert all(v is not None for v in board["overall"].values())
    assert all(len(caps) == 4 and None not in caps.values() for caps in board["capabilities"].values())
    overall = dict(connect(str(build)).execute(
        "SELECT model, score FROM leaderboard WHERE level = 'overall'").fetchall())
    assert overall == pytest.approx(board["overall"])
    assert "the leaderboard through cdtp query" in done.stdout


def test_the_demo_refuses_a_folder_of_other_runs(tmp_path, capsys):
    """`cdtp demo --out DIR` crawls into DIR/raw and rebuilds DIR/build with
    --overwrite: it merged the sample pages into a crawl of other seeds there, and
    replaced that build. It now runs only in a new, empty or earlier demo's folder."""
    from crawlers.site import sample_site_dir
    from pipeline.cli import main
    from pipeline.demo import refuse_foreign_folder
    from pipeline.errors import CdtpError

    site = sample_site_dir()
    refuse_foreign_folder(tmp_path / "new", site)  # a new folder
    (tmp_path / "empty").mkdir()
    refuse_foreign_folder(tmp_path / "empty", site)
    earlier = tmp_path / "earlier" / "raw"
    earlier.mkdir(parents=True)
    (earlier / "raw-00001.jsonl").write_text(json.dumps({"title": "李白", "seed": "李白"}, ensure_ascii=False)
                                             + "\n{\"title\": \"torn", encoding="utf-8")
    refuse_foreign_folder(tmp_path / "earlier", site)  # an earlier demo's crawl, killed mid-line
    other = tmp_path / "other" / "raw"
    other.mkdir(parents=True)
    (other / "raw-00001.jsonl").write_text(json.dumps({"title": "上海大学", "seed": "上海大学"}, ensure_ascii=False)
                                           + "\n", encoding="utf-8")
    with pytest.raises(CdtpError, match="holds a crawl from other seeds \\(上海大学\\)"):
        refuse_foreign_folder(tmp_path / "other", site)
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "notes.md").write_text("mine", encoding="utf-8")
    assert main(["demo", "--out", str(tmp_path / "notes")]) == 2
    assert "holds notes.md: the demo writes only into a new or empty folder" in capsys.readouterr().err
    assert (tmp_path / "notes" / "notes.md").read_text(encoding="utf-8") == "mine"
