"""`cdtp build` with --relation-review and the split stage: audit, Hive layout, stats, reruns."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.cli import main

# Own sentences about real people: (name, dynasty, occupation, birthplace).
PEOPLE = [
    ("李白", "唐代", "诗人", "碎叶城"), ("杜甫", "唐代", "诗人", "巩县"), ("苏轼", "北宋", "文学家", "眉山"),
    ("王安石", "北宋", "政治家", "临川"), ("白居易", "唐代", "诗人", "新郑"), ("陆游", "南宋", "诗人", "山阴"),
    ("辛弃疾", "南宋", "词人", "历城"), ("欧阳修", "北宋", "文学家", "绵州"), ("柳宗元", "唐代", "文学家", "长安"),
    ("韩愈", "唐代", "文学家", "河阳"), ("李清照", "宋代", "词人", "章丘"), ("王维", "唐代", "诗人", "蒲州"),
]


def write_raw(path: Path) -> None:
    rows = []
    for i in range(36):
        name, dyn, job, place = PEOPLE[i % len(PEOPLE)]
        title = name if i < len(PEOPLE) else f"{name}{i}"
        infobox = [{"name": "朝代", "value": dyn, "value_links": []},
                   {"name": "职业", "value": job, "value_links": []},
                   {"name": "出生地", "value": place, "value_links": []}]
        summary = f"{title}是{dyn}的著名{job}，他出生于{place}。"
        if i % 4 == 0:  # some pairs state only the birthplace: review leaves them without triples
            infobox = infobox[2:]
            summary = f"{title}出生于{place}。"
        rows.append({"url": f"https://baike.example/item/{title}/{100 + i}", "source": "baidu",
                     "lemma_id": str(100 + i), "title": title, "subtitle": "", "summary": summary,
                     "infobox": infobox, "links": [], "tags": ["人物", "历史"], "depth": 0, "seed": "唐诗",
                     "fetched_at": "2026-01-01T00:00:00Z"})
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")


def read_parquet_dir(d: Path) -> list[tuple[Path, dict]]:
    import pyarrow.parquet as pq

    return [(f, row) for f in sorted(d.rglob("*.parquet")) for row in pq.read_table(f).to_pylist()]


@pytest.mark.slow
def test_build_applies_review_and_writes_split_layout(tmp_path, capsys):
    raw = tmp_path / "raw.jsonl"
    write_raw(raw)
    decisions = tmp_path / "decisions.json"
    decisions.write_text(json.dumps({
        "format": "cdtp.relation_review", "version": 1,
        "relations": {"出生地": {"decision": "rejected", "reason": "low_agreement", "agreement": 0.7, "kappa": 0.4, "n": 10},
                      "朝代": {"decision": "accepted", "reason": "accepted_by_both"}},
    }, ensure_ascii=False), encoding="utf-8")

    def build(out: Path, *extra: str) -> None:
        assert main(["build", "--input", str(raw), "--out", str(out), "--relation-review", str(decisions),
                     "--subset-size", "10", "--seed", "3", *extra]) == 0

    build(tmp_path / "one")
    out = tmp_path / "one"
    pairs = read_parquet_dir(out / "pairs")
    audit = [r for _, r in read_parquet_dir(out / "audit")]

    # Review: every 出生地 triple dropped by the review, pairs left empty dropped too.
    review = [r for r in audit if r["stage"] == "relation_review"]
    assert {(r["kind"], r["reason"]) for r in review} == {("triple", "relation_rejected"), ("entry", "relation_rejected")}
    assert all(r["relation"] == "出生地" for r in review if r["kind"] == "triple")
    assert len([r for r in review if r["kind"] == "entry"]) == 9  # the 9 birthplace-only entries
    assert not any(t["relation"] == "出生地" for _, p in pairs for t in p["triples"])
    # Still one final fate per input triple and entry.
    assert len({r["triple_id"] for r in audit if r["kind"] == "triple"}) == sum(1 for r in audit if r["kind"] == "triple")

    # Layout: pairs/domain=XX/split=train|eval/, the folder matches the row, subset is a column.
    assert len(pairs) == 27
    for f, p in pairs:
        assert f.parent.name == f"split={p['split']}" and p["split"] in ("train", "eval")
        assert f.parent.parent.name == f"domain={p['domain'] or 'unknown'}"
    assert sum(p["in_subset"] for _, p in pairs) == 10

    stats = json.loads((out / "stats.json").read_text(encoding="utf-8"))
    assert stats["split"]["subset_pairs"] == 10 and stats["split"]["pairs"] == 27
    assert set(stats["split"]["subset_distance"]) == {"split", "domain", "entity_type", "freq_bin", "length_bin"}
    assert not (out / "_split_stats.json").exists()
    funnel = {s["stage"]: s for s in stats["funnel"]}
    assert funnel["relation_review"]["out"]["entries"] == 27

    # Same seed on more workers: the same split and subset.
    build(tmp_path / "two", "--direct_num_workers=2", "--direct_running_mode=multi_threading")
    again = read_parquet_dir(tmp_path / "two" / "pairs")
    key = lambda rows: sorted((p["pair_id"], p["split"], p["in_subset"], f.relative_to(f.parents[2]).as_posix())  # noqa: E731
                              for f, p in rows)
    assert key(again) == key(pairs)

    # review export reads the whole build or nothing: a removed shard was 20 pairs instead of 21
    import shutil

    shutil.copytree(tmp_path / "two", tmp_path / "short")
    next((tmp_path / "short" / "pairs").rglob("*.parquet")).unlink()
    capsys.readouterr()
    assert main(["review", "export", "--shards", str(tmp_path / "short"), "--out", str(tmp_path / "sheets")]) == 2
    assert "a shard was removed, added or replaced" in capsys.readouterr().err

    # --no-split: split and subset stay null, written under split=unassigned.
    assert main(["build", "--input", str(raw), "--out", str(tmp_path / "nosplit"), "--no-split"]) == 0
    rows = read_parquet_dir(tmp_path / "nosplit" / "pairs")
    assert rows and all(p["split"] is None and p["in_subset"] is None and f.parent.name == "split=unassigned"
                        for f, p in rows)
    # its items are neither eval nor train: stats.json, eval and export call them unassigned
    written = json.loads((tmp_path / "nosplit" / "stats.json").read_text(encoding="utf-8"))["items"]["written"]
    assert written and all(set(splits) == {"unassigned"} for splits in written.values()), written
    assert main(["eval", "--items", str(tmp_path / "nosplit"), "--model", "random", "--tasks", "qa",
                 "--split", "unassigned", "--out", str(tmp_path / "ev")]) == 0
    assert main(["export", "--shards", str(tmp_path / "nosplit"), "--format", "cdtp", "--out", str(tmp_path / "ex")]) == 0
    names = sorted(p.name for p in (tmp_path / "ex").glob("*.jsonl"))
    assert names and all(n.endswith("_unassigned.jsonl") for n in names), names
    assert main(["export", "--shards", str(tmp_path / "nosplit"), "--format", "text2kgbench",
                 "--out", str(tmp_path / "ex2")]) == 0
    assert not (tmp_path / "ex2" / "train").exists() and list((tmp_path / "ex2" / "unassigned").glob("*.jsonl"))


def test_build_with_a_bad_decision_file_is_a_clear_error(tmp_path, capsys):
    raw = tmp_path / "raw.jsonl"
    write_raw(raw)
    bad = tmp_path / "decisions.json"
    bad.write_text("{not json", encoding="utf-8")
    assert main(["build", "--input", str(raw), "--out", str(tmp_path / "o"), "--relation-review", str(bad)]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert main(["build", "--input", str(raw), "--out", str(tmp_path / "o"), "--subset-size", "-1"]) == 2
    assert "subset_size must be >= 0" in capsys.readouterr().err


def test_min_coverage_holds_for_the_written_pairs(tmp_path):
    """--min-coverage reads the triples a pair is written with: a stage that drops
    triples after the description stage (here the review of 出生地) lowers a pair's
    coverage, and the pair is then dropped with a reason, never written below C."""
    raw = tmp_path / "raw.jsonl"
    write_raw(raw)
    decisions = tmp_path / "decisions.json"
    decisions.write_text(json.dumps({
        "format": "cdtp.relation_review", "version": 1,
        "relations": {"出生地": {"decision": "rejected", "reason": "low_agreement", "agreement": 0.7, "kappa": 0.4,
                               "n": 10}},
    }, ensure_ascii=False), encoding="utf-8")
    def build(threshold: str):
        out = tmp_path / f"cov{threshold}"
        assert main(["build", "--input", str(raw), "--out", str(out), "--relation-review", str(decisions),
                     "--min-coverage", threshold, "--no-items", "--min-relation-count", "1"]) == 0
        audit = [r for _, r in read_parquet_dir(out / "audit")]
        funnel = [s["stage"] for s in json.loads((out / "stats.json").read_text(encoding="utf-8"))["funnel"]]
        assert funnel.index("coverage") > funnel.index("relation_review")
        return [p for _, p in read_parquet_dir(out / "pairs")], [r for r in audit if r["stage"] == "coverage"]

    # `X是唐代的著名诗人，他出生于Y。`: one clause of two holds a triple once 出生地 is gone
    pairs, dropped = build("0.5")
    assert len(pairs) == 27 and all(p["coverage"] == 0.5 for p in pairs) and not dropped
    pairs, dropped = build("0.6")
    assert not pairs
    entries = [r for r in dropped if r["kind"] == "entry"]
    assert len(entries) == 27 and {r["reason"] for r in entries} == {"coverage_below_threshold"}
    assert all('"coverage": 0.5' in r["detail"] for r in entries)
