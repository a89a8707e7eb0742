"""Search co-occurrence decision (paper §3.2): pure functions, no backend."""
from __future__ import annotations

from transforms.search.cache import CachedBackend, SearchCache
from transforms.search.cooccur import build_query, decide, normalise, normalise_url
from transforms.search.passages import passages
from transforms.search.searxng import parse_results
from transforms.search.types import SearchConfig, SearchFailure, SearchResult

import pytest

SOURCE = "https://baike.baidu.com/item/%E9%B2%81%E8%BF%85/36231"


def test_normalise_folds_width_case_and_spaces():
    assert normalise("ＬＵ　Ｘｕｎ  鲁迅") == "lu xun 鲁迅"
    assert build_query(" 鲁迅 ", "《狂人日记》") == "鲁迅 《狂人日记》"


def test_cooccurrence_needs_head_and_tail_in_one_result():
    split = [
        SearchResult("https://a.example/1", "鲁迅", "鲁迅是中国现代作家。"),
        SearchResult("https://a.example/2", "小说", "《狂人日记》是一篇白话小说。"),
    ]
    d = decide("鲁迅", "狂人日记", split, SOURCE)
    assert (d.status, d.reason, d.checked) == ("not_cooccurring", "no_cooccurrence", 2)
    together = split + [SearchResult("https://a.example/3", "", "鲁迅在1918年发表了《狂人日记》。")]
    d = decide("鲁迅", "狂人日记", together, SOURCE)
    assert (d.status, d.reason, d.evidence_url, d.checked) == ("verified", "cooccurs", "https://a.example/3", 3)


def test_title_snippet_and_text_all_count_after_normalisation():
    r = [SearchResult("https://b.example/x", title="ＬＵ ＸＵＮ（鲁迅）", snippet="", text="")]
    assert decide("lu xun", "鲁迅", r, None).status == "verified"
    r = [SearchResult("https://b.example/y", title="", snippet="", text="作者：鲁迅。代表作：阿Q正传")]
    assert decide("鲁迅", "阿Ｑ正传", r, None).status == "verified"


def test_source_page_does_not_count_even_under_another_spelling_of_its_url():
    own = SearchResult("http://baike.baidu.com/item/鲁迅/36231/#p3", "鲁迅", "鲁迅，原名周树人。")
    d = decide("鲁迅", "周树人", [own], SOURCE)
    assert (d.status, d.checked, d.source_page_only) == ("not_cooccurring", 0, True)
    assert normalise_url(own.url) == normalise_url(SOURCE)


def test_empty_head_or_tail_is_unverified_not_dropped():
    d = decide("鲁迅", "  ", [SearchResult("u", "鲁迅")], None)
    assert (d.status, d.reason) == ("unverified", "empty_query")


def test_passages_cut_at_sentence_ends_and_keep_all_text():
    text = "第一句话。" * 30 + "\n短段落。"
    parts = passages(text, 40)
    assert all(len(p) <= 40 for p in parts)
    assert all(p.endswith("。") for p in parts)
    assert "".join(parts) == text.replace("\n", "")
    assert passages("无标点" * 50, 40)[0] == ("无标点" * 50)[:40]  # hard cut for an over-long sentence


def test_searxng_json_parsing_rejects_garbage_and_skips_odd_results():
    body = '{"results": [{"url": "https://c.example", "title": "t", "content": "鲁迅"}, 42, {"title": "no url"}]}'
    assert parse_results(body.encode(), 10) == [SearchResult("https://c.example", "t", "鲁迅")]
    for bad in (b"<html>502 Bad Gateway</html>", b'{"answers": []}', b"\xff\xfe"):
        with pytest.raises(SearchFailure) as exc:
            parse_results(bad, 10)
        assert exc.value.reason == "bad_json"


class _CountingIndex:
    """A real in-memory SearchBackend over three sentences, counting calls:
    the cache is the component under test."""

    backend_id = "memory:test"

    def __init__(self, fail: bool = False):
        self.calls = 0
        self.fail = fail
        self.docs = [SearchResult("https://d.example/1", "鲁迅", "鲁迅生于绍兴。")]

    def search(self, query, k):
        self.calls += 1
        if self.fail:
            raise SearchFailure("timeout")
        return [d for d in self.docs if any(t in d.snippet for t in query.split())][:k]

    def close(self):
        pass


def test_cache_is_keyed_by_normalised_query_and_never_stores_failures(tmp_path):
    failing = CachedBackend(_CountingIndex(fail=True), SearchCache(str(tmp_path)))
    with pytest.raises(SearchFailure):
        failing.search("鲁迅 绍兴", 10)
    assert len(failing.cache) == 0  # a failure is not remembered as "no results"
    failing.close()

    inner = _CountingIndex()
    cached = CachedBackend(inner, SearchCache(str(tmp_path)))
    first = cached.search("鲁迅 绍兴", 10)
    again = cached.search("  鲁迅　绍兴 ", 10)  # full-width space, extra blanks: same normalised query
    assert first == again and inner.calls == 1
    assert (cached.stats.hits, cached.stats.misses) == (1, 1)
    cached.close()


def test_config_validation_explains_what_is_missing():
    with pytest.raises(ValueError, match="searxng-url"):
        SearchConfig(enabled=True, backend="searxng").validate()
    with pytest.raises(ValueError, match="unverified policy"):
        SearchConfig(unverified_policy="maybe").validate()
    with pytest.raises(ValueError, match="search-index"):
        SearchConfig(enabled=True, backend="local").validate()


def test_retry_after_accepts_seconds_and_http_dates_and_is_capped():
    import email.utils
    import time

    from transforms.retry_after import retry_after_seconds as _retry_after

    assert _retry_after("2", cap=30) == 2.0
    assert _retry_after("3600", cap=30) == 30  # a hostile or mistaken header cannot stall the build
    soon = email.utils.formatdate(time.time() + 5, usegmt=True)
    assert 3 <= _retry_after(soon, cap=30) <= 5
    assert _retry_after("soon-ish", cap=30) is None and _retry_after(None, cap=30) is None


def _open_cache(args):
    import time

    path, start = args
    while time.time() < start:
        pass
    SearchCache(path).put("b", 1, "q", [])
    return True


def test_workers_opening_one_new_cache_at_once_all_succeed(tmp_path):
    """Beam's multi-process runner sets up one search DoFn per worker at the
    same moment; switching a new cache to WAL then fails with "database is
    locked" at once, without the busy timeout. Every opener must succeed."""
    import multiprocessing
    import time

    for round_ in range(3):
        path = str(tmp_path / f"cache{round_}")
        start = time.time() + 0.5
        with multiprocessing.get_context("spawn").Pool(6) as pool:
            assert all(pool.map(_open_cache, [(path, start)] * 12))
        assert SearchCache(path).get("b", 1, "q") == []
