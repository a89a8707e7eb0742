"""What the items stage holds at scale: a hub's group, and the vectors.

A hub's group is read, never held (items/group_input.py, graph.NameSummary).
中国 is the 国籍 of most people of a corpus, and each of them sends it a
summary: at the paper's scale its group is millions of records. A runner may
page such a group in from the shuffle (Dataflow's state-backed iterables)
rather than hand over a list; the two steps that read a name's group then
hold what they keep of it. Here a hub of 40,000 people (names made up: 人0,
人1, ...) is handed to each step as an iterable made anew on each read, and
Python's allocation tracer measures the most memory the step held at once.
It is compared with what the same group takes as a list, measured the same
way: before the steps read their groups this way, they held that list.
`normalise` keeps a memo of 16,384 strings for the whole process, bounded
whatever the group; it is set aside here, so the step's own holding is what
is measured.

The vectors are 2 KB a string, about 20 GB at 10M strings: the embedding step
fills its matrices on disk, and a reader maps the file (pipeline/items_embed.py).
The tracer sees numpy's arrays and Python's bytes, so a matrix (or a file read
whole) in a process's own memory would show.
"""
from __future__ import annotations

import hashlib
import os
import tracemalloc

import numpy as np

import pytest

from pipeline.items_embed import embed_all, read_vectors
from pipeline.items_stage import _AskQuestions, _SummariseName
from transforms.items import graph, group_input
from transforms.items.config import ItemsConfig
from transforms.text import normalise
from tests.items_fixtures import edge

N = 40_000


def _edge(pair_id, entity, relation, tail, tail_type, entity_type="person"):
    return edge(pair_id, entity, relation, tail, tail_type, entity_type, split="train")


class _Hub:
    """中国's group: its 首都, the 国籍 of N people, and (`hops`) each person's summary."""

    def __init__(self, hops: bool):
        self.hops = hops

    def __iter__(self):
        yield "out", _edge("p_cn", "中国", "首都", "北京", "place", "place")
        for i in range(N):
            yield "in", _edge(f"p_{i}", f"人{i}", "国籍", "中国", "place")
            if self.hops:
                yield "hop", f"人{i}", {"name": f"人{i}", "type": "person", "count": 0, "aliases": frozenset(),
                                        "neighbours": [(f"城{i}", "place")]}


@pytest.fixture(autouse=True)
def _no_memo(monkeypatch):
    for module in (graph, group_input):
        monkeypatch.setattr(module, "normalise", normalise.__wrapped__)


def _peak(run) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


class _NoScores:
    def similar(self, gold, texts):
        return {t: 0.5 for t in texts}

    def pool(self, pool_key, gold):
        return []


def test_asking_a_hub_s_questions_holds_a_sample_of_its_group_not_the_group():
    as_list = _peak(lambda: list(_Hub(hops=True)))
    fn = _AskQuestions(ItemsConfig(tasks=("qa",)))
    fn.setup()
    fn.start_bundle()
    fn._loaded = ("vectors", _NoScores())  # the run's vector file, as loaded on the first group
    items: list = []
    held = _peak(lambda: items.extend(fn.process(("中国", _Hub(hops=True)), "vectors", {}, frozenset())))
    assert held < as_list / 10, (held, as_list)


def test_summarising_a_hub_holds_its_counters_not_its_group():
    as_list = _peak(lambda: list(_Hub(hops=False)))
    fn = _SummariseName(ItemsConfig())
    sent = [0]

    def run():
        for out in fn.process(("中国", _Hub(hops=False))):
            sent[0] += not hasattr(out, "tag")  # a hop message, not a pool entry

    held = _peak(run)
    assert sent[0] == N + 1  # every person and 北京, once each
    assert held < as_list / 10, (held, as_list)


def test_a_hub_keeps_every_in_edge_a_head_question_may_ask_and_counts_the_rest():
    """What a head question needs is kept whole however large the hub: a
    relation one head states (作者, from two pages of 红楼梦, its name written two ways);
    one that a second head states is counted, the edges before it included."""
    records = [("in", _edge(f"p_{i}", f"人{i}", "国籍", "中国", "place")) for i in range(5000)]
    records.insert(1234, ("in", _edge("p_hlm", "红楼梦", "作者", "中国", "person", "work")))
    records.insert(4321, ("in", _edge("p_hlm2", "《红楼梦》", "作者", "中国", "person", "work")))
    records.insert(10, ("in", _edge("p_a", "某书", "导演", "中国", "person", "work")))
    records.append(("in", _edge("p_b", "另一书", "导演", "中国", "person", "work")))
    records.append(("in", _edge("p_c", "又一书", "导演", "中国", "date", "work")))
    group = group_input.read_group(records, 128, 0)
    assert [e[0] for e in group.ins] == ["p_hlm", "p_hlm2"]  # one head, written two ways
    assert group.in_skips == {"head_not_unique": 2, "head_tail_unnamed": 1}
    assert len(group.ins_sample) == 128


class _Embedder:
    """512 numbers a text, made from its hash: the same vector for a text whichever batch it is in."""

    calls = 0

    def encode(self, batch):
        _Embedder.calls += len(batch)
        return np.stack([np.random.default_rng(int.from_bytes(hashlib.blake2b(t.encode()).digest()[:8], "little"))
                         .standard_normal(512).astype(np.float32) for t in batch])


def test_the_vectors_are_filled_on_disk_and_mapped_not_held(tmp_path):
    texts = [f"名字{i}" for i in range(20_000)]
    size = len(texts) * 512 * 4  # 41 MB of vectors
    cache, path = str(tmp_path / "cache"), str(tmp_path / "vectors.arrow")
    _Embedder.calls = 0
    assert _peak(lambda: embed_all(texts, "hashed", cache, path, embedder=_Embedder())) < size / 5
    assert _Embedder.calls == len(texts)
    read: list = []
    assert _peak(lambda: read.append(read_vectors(path))) < size / 10
    index, matrix = read[0]
    assert matrix.shape == (len(texts), 512) and not matrix.flags.owndata and not matrix.flags.writeable
    ordered = sorted(texts)
    assert index.rows(["名字7", "名字19999", "名字20000", ""]) == [ordered.index("名字7"), ordered.index("名字19999"),
                                                                   None, None]
    assert "名字7" in index and "名字20000" not in index and len(index) == len(texts)
    for text in ("名字0", "名字7", "名字19999"):
        assert np.array_equal(matrix[index[text]], _Embedder().encode([text])[0])
    # a rerun takes every vector from the cache, and writes the same bytes
    _Embedder.calls = 0
    again = str(tmp_path / "again.arrow")
    assert _peak(lambda: embed_all(reversed(texts), "hashed", cache, again, embedder=_Embedder())) < size / 5
    assert _Embedder.calls == 0
    assert (tmp_path / "again.arrow").read_bytes() == (tmp_path / "vectors.arrow").read_bytes()


def test_a_vector_file_may_outgrow_arrow_s_32_bit_lengths(tmp_path, monkeypatch):
    """At 4.2M strings of 512 floats the one vector array passes 2**31 - 1 values:
    Arrow's IPC writer refused the batch (ArrowCapacityError, found by
    benchmarks/bench_embed_scale.py at 10M strings) unless allowed 64-bit
    lengths. Texts past 2 GB of UTF-8 take 64-bit offsets. (Writing 8.6 GB here
    is too much for a test: the writer's options and the text type are checked,
    and a file of either text type reads back.)"""
    import pyarrow as pa

    from pipeline import items_embed

    seen = []
    real = pa.ipc.new_stream
    monkeypatch.setattr(pa.ipc, "new_stream", lambda sink, schema, options=None: (
        seen.append((schema.field("text").type, options and options.allow_64bit)) or real(sink, schema, options=options)))
    texts = [f"名字{i}" for i in range(50)]
    vectors = _Embedder().encode(texts)
    items_embed._write_table(str(tmp_path / "small.arrow"), texts, vectors)
    monkeypatch.setattr(items_embed, "_INT32_MAX", 4 * sum(map(len, texts)) - 1)
    items_embed._write_table(str(tmp_path / "large.arrow"), texts, vectors)
    assert seen == [(pa.string(), True), (pa.large_string(), True)]
    for name in ("small.arrow", "large.arrow"):
        index, matrix = read_vectors(str(tmp_path / name))
        assert np.array_equal(matrix, vectors) and [index[t] for t in texts] == list(range(50))


def test_a_remote_vector_file_is_copied_once_per_machine_and_mapped(tmp_path, monkeypatch):
    """A worker's vector file is in the object store (gs://, s3://): each
    machine copies it once, under a name of the path and size, and its worker
    processes map that copy."""
    from apache_beam.io.filesystems import FileSystems

    from pipeline import items_embed

    path = str(tmp_path / "vectors.arrow")
    embed_all(["北京", "上海"], "hashed", str(tmp_path / "cache"), path, embedder=_Embedder())

    class Store(FileSystems):  # the file, as if in an object store
        @staticmethod
        def get_scheme(p):
            return "store" if p == path else None

    monkeypatch.setattr(items_embed, "FileSystems", Store)
    monkeypatch.setattr(items_embed, "_LOCAL", {})
    index, matrix = read_vectors(path)
    local = items_embed._LOCAL[path]
    assert local != path and open(local, "rb").read() == open(path, "rb").read()
    made = os.stat(local).st_mtime_ns
    monkeypatch.setattr(items_embed, "_LOCAL", {})  # another worker process of the machine
    index2, matrix2 = read_vectors(path)
    assert items_embed._LOCAL[path] == local and os.stat(local).st_mtime_ns == made  # not copied again
    assert np.array_equal(matrix2[index2["上海"]], matrix[index["上海"]])
    os.unlink(local)  # removed by the process that made it
    monkeypatch.setattr(items_embed, "_LOCAL", {})
    assert read_vectors(path)[0].rows(["北京"]) == index.rows(["北京"]) == [1] and os.path.exists(local)
    os.unlink(local)


def test_texts_of_one_hash_are_told_apart_by_the_text(tmp_path, monkeypatch):
    """The index compares the text on a hit: with a hash shared by many texts
    (here their length mod 3), each still finds its own row, and a text not in
    the file none, one at a time or many together."""
    from pipeline import items_embed

    names = [f"{'名' * (i % 5 + 1)}{i}" for i in range(200)]
    path = str(tmp_path / "vectors.arrow")
    embed_all(names, "hashed", str(tmp_path / "cache"), path, embedder=_Embedder())
    monkeypatch.setattr(items_embed, "_text_hash", lambda t: len(t) % 3)
    index, _ = read_vectors(path)
    ordered = sorted(names)
    asked = [*names, "名200", "无"]
    assert index.rows(asked) == [ordered.index(t) for t in names] + [None, None]
    assert [index.get(t) for t in asked] == index.rows(asked)


@pytest.mark.parametrize("text_hash", [hash, lambda t: 0, lambda t: len(t) % 2], ids=["hash", "one", "by-length"])
def test_the_cache_gives_each_text_the_first_file_and_row_that_hold_it(tmp_path, monkeypatch, text_hash):
    """_locate matches every cache file against all the texts by their hashes;
    whatever the hash (Python's, one for all, or two for all), a text gets the
    first file that holds it (files in name order), the first row of that file,
    and -1 when no file holds it; a rerun's vector file takes those vectors."""
    from pipeline import items_embed

    monkeypatch.setattr(items_embed, "_text_hash", text_hash)
    folder = tmp_path / "cache" / "hashed"
    folder.mkdir(parents=True)
    files = {"a": ["北京", "上海", "天津市"], "b": ["上海", "广州", "北京"], "c": ["深圳", "广州", "深圳", "重庆"]}
    for name, held in files.items():  # each vector: its file's number and row
        vectors = np.array([[ord(name), row] for row in range(len(held))], np.float32)
        items_embed._write_table(str(folder / f"cache-{name}.arrow"), held, vectors)
    texts = sorted(["北京", "上海", "广州", "深圳", "重庆", "天津", "天津市", "无"])
    paths = items_embed._cache_files(str(folder))
    where_file, where_row = items_embed._locate(texts, paths, {})
    expected = [next(((f, held.index(t)) for f, held in enumerate(files.values()) if t in held), (-1, 0))
                for t in texts]
    assert list(zip(where_file.tolist(), where_row.tolist())) == expected
    assert dict(zip(texts, where_file.tolist()))["上海"] == 0 and dict(zip(texts, where_row.tolist()))["深圳"] == 0
    known = [t for t in texts if t not in ("天津", "无")]
    index, matrix = read_vectors(items_embed.write_run_vectors(known, "hashed", str(tmp_path / "cache"),
                                                               str(tmp_path / "run.arrow")))
    assert [tuple(matrix[index[t]]) for t in known] == [(ord("abc"[f]), row) for (f, row), t in zip(expected, texts)
                                                        if t in known]


def test_a_file_in_the_cache_that_is_no_vector_file_is_named(tmp_path):
    from pipeline.errors import CdtpError

    bad = tmp_path / "cache" / "hashed" / "cache-0.arrow"
    bad.parent.mkdir(parents=True)
    bad.write_text("not arrow")
    with pytest.raises(CdtpError, match=r"cache-0\.arrow in the embedding cache is not a vector file"):
        embed_all(["北京"], "hashed", str(tmp_path / "cache"), str(tmp_path / "v.arrow"), embedder=_Embedder())


def test_the_cache_is_checked_file_by_file_before_a_build(tmp_path):
    """check_cache reads each file's schema: a vector file passes, an Arrow
    file of other columns is named with them, and so is a file of no Arrow."""
    import pyarrow as pa

    from pipeline.errors import CdtpError
    from pipeline.items_embed import check_cache

    cache = tmp_path / "cache"
    embed_all(["北京", "上海"], "hashed", str(cache), str(tmp_path / "v.arrow"), embedder=_Embedder())
    check_cache(str(cache), "hashed")
    other = pa.table({"name": ["北京"], "score": [1.0]})
    with pa.OSFile(str(cache / "hashed" / "cache-other.arrow"), "wb") as fh, pa.ipc.new_stream(fh, other.schema) as w:
        w.write_table(other)
    with pytest.raises(CdtpError, match=r"cache-other\.arrow .* not a vector file \(ValueError: its columns are name, score\)"):
        check_cache(str(cache), "hashed")
    (cache / "hashed" / "cache-other.arrow").write_bytes(b"")
    with pytest.raises(CdtpError, match=r"cache-other\.arrow in the embedding cache is not a vector file"):
        check_cache(str(cache), "hashed")
