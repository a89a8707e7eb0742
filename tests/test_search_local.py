"""Local full-text index (DuckDB FTS + jieba) on the real Baike pages.

Raw entries come from parsing ../shared/data/baike-baidu-2019/pages with the
crawler's parsers; each entry's `body` is the page's full text from
extracted/info-para. True infobox triples (extracted/triples.txt) must be
corroborated by ANOTHER page where the corpus states them; a person paired
with another person's birth data must (nearly always) not be.
"""
from __future__ import annotations

import json

import pytest

from pipeline.cli import main
from transforms.search.cooccur import build_query, decide
from transforms.search.local_index import LocalIndexBackend, connect
from transforms.search.segment import segment

pytestmark = pytest.mark.shared


def _decide(backend, urls, head, tail):
    return decide(head, tail, backend.search(build_query(head, tail), 10), urls[head])


@pytest.fixture(scope="module")
def corpus(shared_data, tmp_path_factory):
    from crawlers.parsers import parse_entry

    base = shared_data / "baike-baidu-2019"
    tmp = tmp_path_factory.mktemp("search_local")
    entries = []
    for page in sorted((base / "pages").glob("*.html")):
        entry = parse_entry(page.read_bytes(), "https://baike.baidu.com/item/placeholder")
        entry["url"] = f"https://baike.baidu.com/item/{entry['title']}/{entry['lemma_id']}"
        body = base / "extracted" / "info-para" / f"{entry['title']}.txt"
        if body.exists():
            entry["body"] = body.read_text(encoding="utf-8")
        entries.append(entry)
    raw = tmp / "raw-00000.jsonl"
    with raw.open("w", encoding="utf-8") as fh:
        for e in entries:
            fh.write(json.dumps(e, ensure_ascii=False) + "\n")
        fh.write("{not json\n")  # a damaged line is skipped and reported, not fatal
    index = tmp / "index.duckdb"
    assert main(["search", "index", "--input", str(raw), "--out", str(index)]) == 0
    backend = LocalIndexBackend(str(index))
    triples = [line.rstrip("\n").split("$$") for line in (base / "extracted" / "triples.txt").open(encoding="utf-8")]
    yield backend, {e["title"]: e["url"] for e in entries}, triples, entries
    backend.close()


def test_true_triples_are_corroborated_by_another_page(corpus):
    backend, urls, _, _ = corpus
    expected = {
        ("上海大学学报", "上海大学"): "上海大学/319190",  # its publisher's page mentions the journal
        ("上海大学学报", "双月刊"): "上海大学/319190",
        ("吴明红", "上海大学副校长"): "上海大学/319190",
        ("龚振邦", "上海科技大学"): "上海大学/319190",
        ("俄罗斯工程院", "俄罗斯"): "吴明红/7754558",  # she is a foreign member
        ("北伐军", "北伐军"): "曹渊/24657",
    }
    for (head, tail), page in expected.items():
        d = _decide(backend, urls, head, tail)
        assert d.status == "verified", (head, tail, d)
        assert page in d.evidence_url and urls[head] not in d.evidence_url


def test_own_page_is_not_evidence(corpus):
    backend, urls, _, _ = corpus
    # Stated only on the entity's own page: found there, and not counted.
    for head, tail in (("上海大学", "1994年5月27日"), ("吉永华", "江苏南京")):
        d = _decide(backend, urls, head, tail)
        assert (d.status, d.reason, d.source_page_only) == ("not_cooccurring", "no_cooccurrence", True)


def test_people_paired_with_other_peoples_facts_do_not_cooccur(corpus):
    backend, urls, triples, _ = corpus
    people = sorted({h for h, r, _ in triples if r == "出生日期"})
    facts = {(h, r): t for h, r, t in triples if r in ("出生日期", "出生地", "毕业院校")}
    wrong = [(p, t) for p in people for (h, _), t in facts.items() if h != p]
    verified = [(p, t) for p, t in wrong if _decide(backend, urls, p, t).status == "verified"]
    assert len(wrong) > 100
    # The few hits are chance co-mentions (e.g. one alumni list naming 徐彬 next to 上海市).
    assert len(verified) / len(wrong) <= 0.05, verified
    assert _decide(backend, urls, "吉永华", "山东淄博").status == "not_cooccurring"
    true_hits = sum(_decide(backend, urls, h, t).status == "verified" for h, _, t in triples)
    assert true_hits >= 25  # of 144, only what ANOTHER page states can be corroborated


def test_chinese_queries_work_only_thanks_to_jieba(corpus):
    backend, _, _, entries = corpus
    assert backend.search("上海大学学报 上海大学", 10)
    # The same pages under DuckDB FTS defaults: no segmentation, so a Chinese
    # "word" is a whole whitespace-free run of text (a clause or a paragraph)
    # and a query word matches only a run that is exactly that word.
    con = connect()
    con.execute("CREATE TABLE d (id VARCHAR, body VARCHAR)")
    con.executemany("INSERT INTO d VALUES (?, ?)", [(e["url"], e.get("body") or e["summary"]) for e in entries])
    con.execute("PRAGMA create_fts_index('d', 'id', 'body')")
    avg_cjk_term = con.execute(
        "SELECT avg(length(term)) FROM fts_main_d.dict WHERE regexp_matches(term, '[一-龥]')"
    ).fetchone()[0]
    assert avg_cjk_term > 20
    for query, evidence in (("吴明红 上海大学副校长", "上海大学/319190"), ("龚振邦 上海科技大学", "上海大学/319190")):
        unsegmented = con.execute(
            "SELECT count(*) FROM (SELECT fts_main_d.match_bm25(id, ?) AS s FROM d) WHERE s IS NOT NULL", [query]
        ).fetchone()[0]
        assert unsegmented == 0, query
        assert any(evidence in r.url for r in backend.search(query, 10)), query
    # Segmented, the query becomes words the index knows.
    assert {"上海大学", "大学", "学报"} <= set(segment("上海大学学报 上海大学").split())


def test_index_command_reports_skipped_lines_and_bad_index_is_a_clear_error(corpus, tmp_path, capsys):
    bad = tmp_path / "not-an-index.duckdb"
    bad.write_bytes(b"this is not a duckdb file")
    assert main(["search", "query", str(bad), "鲁迅"]) == 2
    assert "not a cdtp search index" in capsys.readouterr().err
    assert main(["search", "query", str(tmp_path / "missing.duckdb"), "鲁迅"]) == 2
    assert "does not exist" in capsys.readouterr().err
    assert main(["search", "index", "--input", str(tmp_path / "nothing-*.jsonl"), "--out", str(tmp_path / "x.duckdb")]) == 2
    assert "no input file matches" in capsys.readouterr().err


def test_cache_key_follows_index_content_not_file_name(tmp_path):
    """A rebuilt index at the same path with the same number of documents must
    not reuse results cached from the old index (the cache keys on backend_id)."""
    from transforms.search.documents import Document
    from transforms.search.local_index import build_index

    path = str(tmp_path / "idx.duckdb")
    build_index([Document(url="http://a.example.org/1", title="长江", text="长江流经上海。")], path)
    first = LocalIndexBackend(path)
    first_id = first.backend_id
    first.close()
    build_index([Document(url="http://a.example.org/1", title="黄河", text="黄河流经山东。")], path)
    second = LocalIndexBackend(path)
    assert second.backend_id != first_id
    assert second.documents == 1
    second.close()


def test_index_out_replaces_an_index_but_never_another_file(tmp_path, capsys):
    from tests.build_fixtures import write_fixture

    raw = tmp_path / "raw-00000.jsonl"
    write_fixture(raw)
    notes = tmp_path / "notes.md"
    notes.write_text("# my notes\n", encoding="utf-8")
    assert main(["search", "index", "--input", str(raw), "--out", str(notes)]) == 2
    assert "exists and is not a search index: it is left as it is" in capsys.readouterr().err
    assert notes.read_text(encoding="utf-8") == "# my notes\n"
    index = tmp_path / "index.duckdb"
    assert main(["search", "index", "--input", str(raw), "--out", str(index)]) == 0
    assert main(["search", "index", "--input", str(raw), "--out", str(index)]) == 0  # an index is rebuilt
    assert main(["search", "index", "--input", str(raw), "--out", str(tmp_path)]) == 2
    assert "is a folder" in capsys.readouterr().err
