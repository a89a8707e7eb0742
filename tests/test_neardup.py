"""Near-duplicate texts (issue 8 §8): MinHash LSH, chains, the Baidu/Sogou copy, the grouped split."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest

from crawlers.parsers import parse_entry
from pipeline.cli import main
from tests.build_fixtures import ENTRIES
from pipeline.neardup_steps import candidate_of, is_candidate, near_duplicate_batch, sketch_batch
from transforms.neardup import (
    NearDuplicateConfig,
    candidate_edges,
    choose_kept,
    decide,
    jaccard,
    shingle_hashes,
    signatures,
)
from transforms.split import SplitConfig, split_and_sample

PAGES = Path(__file__).parent / "fixtures" / "pages"
CFG = NearDuplicateConfig()

# Own sentences, real facts. B edits A slightly, C edits B again: A~B and B~C, but not A~C.
TEXT_A = "钱塘江是浙江省最大的河流，发源于安徽省休宁县，流经杭州市后注入东海，江口的钱塘江大潮闻名于世，每年农历八月十八前后观潮的人最多。"
TEXT_B = "钱塘江是浙江省最大的河流，发源于安徽省休宁县，流经杭州市后注入东海，江口的涌潮闻名于世，每年农历八月十八前后观潮的人最多。"
TEXT_C = "钱塘江是浙江省最大的河流，发源于安徽省休宁县，流经杭州市后注入东海，江口的涌潮闻名于世，每年农历八月十八前后观潮者最多。"
OTHER = "苏州园林是中国古典园林的代表，拙政园与留园都在其中，一九九七年列入世界遗产名录。"


def _pair(pid: str, text: str, n_triples: int, entity: str = "钱塘江") -> dict:
    triples = [{"head": entity, "relation": f"r{i}", "tail": f"t{i}", "triple_id": f"{pid}-{i}"} for i in range(n_triples)]
    return {"pair_id": pid, "entity": entity, "text": text, "triples": triples,
            "_entry_key": f"key:{pid}", "_source": f"file@{pid}"}


def _sim(x: str, y: str) -> float:
    return jaccard(shingle_hashes(x, CFG.shingle_size), shingle_hashes(y, CFG.shingle_size))


def test_shingles_ignore_width_case_and_punctuation():
    assert _sim("黄浦江全长约113千米，流经上海市。", "黄浦江全长约１１３千米 流经上海市") == 1.0
    assert _sim(TEXT_A, OTHER) < 0.05
    assert len(shingle_hashes("短句", 5, min_chars=CFG.min_chars)) == 0  # too short to compare


def test_minhash_agreement_estimates_jaccard():
    texts = [TEXT_A, TEXT_B, TEXT_C, OTHER]
    sigs = signatures([shingle_hashes(t, 5) for t in texts], NearDuplicateConfig(num_perm=512, bands=16))
    for i in range(4):
        for j in range(i + 1, 4):
            estimate = float(np.mean(sigs[i] == sigs[j]))
            assert abs(estimate - _sim(texts[i], texts[j])) < 0.08, (i, j)
    # Batch-vectorised signatures equal one-by-one signatures (chunking must not matter).
    one = np.vstack([signatures([shingle_hashes(t, 5)], CFG) for t in texts])
    assert (signatures([shingle_hashes(t, 5) for t in texts], CFG, chunk=64) == one).all()


def test_chain_keeps_the_named_copy_and_both_ends():
    assert _sim(TEXT_A, TEXT_B) >= CFG.threshold and _sim(TEXT_B, TEXT_C) >= CFG.threshold
    assert _sim(TEXT_A, TEXT_C) < CFG.threshold
    # Priority: most triples first, so A (3) > B (2) > C (1).
    pairs = [_pair("c", TEXT_C, 1), _pair("a", TEXT_A, 3), _pair("b", TEXT_B, 2), _pair("o", OTHER, 5, "苏州园林")]
    table = np.concatenate([t for _, t in sketch_batch(pairs, CFG)])
    edges, oversized = candidate_edges(table, CFG.max_bucket)
    nodes = np.unique(edges.reshape(-1))
    candidates = [candidate_of(p, CFG, SplitConfig()) for p in pairs if is_candidate(p, nodes)]
    assert sorted(c.pair_id for c in candidates) == ["a", "b", "c"]  # the unrelated text shares no band
    decision = decide(edges, candidates, CFG, oversized)
    dropped = decision["dropped"]
    # B is a copy of A (kept); C's only near-duplicate is B, which is dropped, so C stays.
    assert set(dropped) == {"b"} and dropped["b"]["kept"] == "a"
    assert decision["stats"]["verified_edges"] == 2
    result = near_duplicate_batch(pairs, dropped)
    assert [p["pair_id"] for p in result.pairs] == ["c", "a", "o"]
    entry = next(r for r in result.audit if r["kind"] == "entry")
    assert (entry["pair_id"], entry["stage"], entry["reason"]) == ("b", "near_duplicate", "near_duplicate_text")
    assert json.loads(entry["detail"])["kept"] == "a"
    assert sorted(r["reason"] for r in result.audit if r["kind"] == "triple") == ["pair_dropped:near_duplicate_text"] * 2


def test_a_star_names_the_best_copy_and_ties_go_to_the_smallest_pair_id():
    # Three identical copies with equal triples: the smallest pair_id is kept, the others name it.
    cands = [candidate_of(_pair(pid, TEXT_A, 2), CFG, None) for pid in ("z", "m", "k")]
    verified = [("k", "m", 1.0), ("k", "z", 1.0), ("m", "z", 1.0)]
    assert choose_kept(cands, verified) == {
        "m": {"kept": "k", "kept_entity": "钱塘江", "similarity": 1.0},
        "z": {"kept": "k", "kept_entity": "钱塘江", "similarity": 1.0},
    }


def test_exact_copies_name_a_copy_that_is_kept():
    # Y1 and Y2 are one text given twice; Y1 is their best copy but a near-duplicate of X, which
    # has more triples. So both Y copies must name X, never the dropped Y1.
    pairs = [_pair("x", TEXT_A, 5), _pair("y1", TEXT_B, 2), _pair("y2", TEXT_B, 1), _pair("y3", TEXT_B, 2)]
    edges, _ = candidate_edges(np.concatenate([t for _, t in sketch_batch(pairs, CFG)]), CFG.max_bucket)
    # The Y copies are linked to one of them only, and X to that one: 3 edges, not 6.
    assert len(edges) == 3
    decision = decide(edges, [candidate_of(p, CFG, None) for p in pairs], CFG)
    assert {k: v["kept"] for k, v in decision["dropped"].items()} == {"y1": "x", "y2": "x", "y3": "x"}
    assert decision["dropped"]["y2"]["similarity"] == decision["dropped"]["y1"]["similarity"] == round(_sim(TEXT_A, TEXT_B), 4)
    # The three Y copies are settled as one group: one verification (x, y1), not six.
    assert (decision["stats"]["exact_copy_groups"], decision["stats"]["verified_edges"]) == (2, 1)


def test_leakage_counts_eval_texts_near_a_train_text_when_copies_are_kept():
    # Two entities with near-identical texts land on different sides; with drop=False they are counted.
    split = SplitConfig(seed=0)
    names = [f"实体{i}" for i in range(200)]
    from transforms.split import assign_pair_split

    sides = {n: assign_pair_split({"entity": n, "pair_id": n}, split.seed, split.eval_fraction) for n in names}
    tr = next(n for n in names if sides[n] == "train")
    ev = next(n for n in names if sides[n] == "eval")
    pairs = [_pair("p1", TEXT_A, 2, tr), _pair("p2", TEXT_A, 1, ev)]
    edges, _ = candidate_edges(np.concatenate([t for _, t in sketch_batch(pairs, CFG)]), CFG.max_bucket)
    keep_all = NearDuplicateConfig(drop=False)
    cands = [candidate_of(p, keep_all, split) for p in pairs]
    assert decide(edges, cands, keep_all)["stats"]["near_duplicate_texts"] == 1
    reduced = decide(edges, cands, CFG)["stats"]
    assert (reduced["near_duplicate_texts"], reduced["dropped"], reduced["dropped_other_entity"]) == (0, 1, 1)


def test_config_is_validated():
    with pytest.raises(ValueError, match="multiple of bands"):
        NearDuplicateConfig(num_perm=60, bands=16)
    with pytest.raises(ValueError, match="threshold"):
        NearDuplicateConfig(threshold=0)


def test_grouped_split_puts_every_sense_of_a_title_on_one_side():
    # 苹果 the fruit and 苹果 the company (two senses), written with other width/case/spaces too.
    pairs = []
    for i in range(300):
        name = f"词条{i}"
        for j, variant in enumerate((name, f" {name} ", name.replace("词条", "词条"))):
            pairs.append({"pair_id": f"{i}-{j}", "entity": variant, "subtitle": f"义项{j}", "triples": [],
                          "text_length": 50, "domain": "HS", "entity_type": "other"})
    pairs += [{"pair_id": "apple-fruit", "entity": "苹果", "subtitle": "蔷薇科苹果属植物", "triples": [], "text_length": 80},
              {"pair_id": "apple-inc", "entity": "苹果", "subtitle": "美国科技公司", "triples": [], "text_length": 90},
              {"pair_id": "ipad", "entity": "ＩＰＡＤ", "triples": [], "text_length": 90},
              {"pair_id": "ipad2", "entity": "iPad", "triples": [], "text_length": 90}]
    out, stats = split_and_sample(pairs, SplitConfig(subset_size=100))
    side = {p["pair_id"]: p["split"] for p in out}
    assert side["apple-fruit"] == side["apple-inc"] and side["ipad"] == side["ipad2"]
    for i in range(300):
        assert side[f"{i}-0"] == side[f"{i}-1"] == side[f"{i}-2"]
    assert 0.12 < sum(s == "eval" for s in side.values()) / len(side) < 0.28  # still about 80/20
    groups = stats["entity_groups"]
    assert groups == {"groups": 302, "multi_pair_groups": 302, "pairs_in_multi_pair_groups": 904,
                      "groups_on_both_sides": 0}


def _raw(path: Path, url: str, fetched: str) -> dict:
    entry = parse_entry(path.read_bytes(), url)
    assert entry is not None
    return dict(entry, depth=0, seed=entry["title"], fetched_at=fetched)


@pytest.mark.slow
def test_the_same_entry_from_baidu_and_sogou_keeps_one_pair(tmp_path):
    baidu = _raw(PAGES / "baidu_current_nanjing_bridge.html", "http://127.0.0.1:9/item/南京长江大桥/900020",
                 "2026-11-01T00:00:00Z")
    sogou = _raw(PAGES / "sogou_nanjing_bridge.html", "http://127.0.0.1:9/v800020.htm", "2026-11-02T00:00:00Z")
    assert (baidu["source"], sogou["source"]) == ("baidu", "sogou")
    assert baidu["summary"] != sogou["summary"]  # a near-duplicate, not an exact copy
    # Other entries the build keeps (tests/build_fixtures.py), so the bridge is not alone.
    others = [e for e, fate in ENTRIES if fate == ("finalise", "kept")]
    raw = tmp_path / "raw-00000.jsonl"
    raw.write_text("".join(json.dumps(e, ensure_ascii=False) + "\n" for e in (baidu, sogou, *others)),
                   encoding="utf-8")

    def build(out: Path, *extra: str) -> list[dict]:
        assert main(["build", "--input", str(raw), "--out", str(out), "--min-relation-count", "1", "--no-domain",
                     *extra]) == 0
        return [r for f in sorted((out / "pairs").rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]

    pairs = build(tmp_path / "out")
    bridge = [p for p in pairs if p["entity"] == "南京长江大桥"]
    assert len(bridge) == 1 and bridge[0]["source_url"].endswith("/900020")  # Baidu's copy: more triples
    assert {p["entity"] for p in pairs} == {"南京长江大桥"} | {e["title"] for e in others}

    audit = [r for f in sorted((tmp_path / "out" / "audit").rglob("*.parquet")) for r in pq.read_table(f).to_pylist()]
    near = [r for r in audit if r["stage"] == "near_duplicate"]
    entry = next(r for r in near if r["kind"] == "entry")
    assert entry["reason"] == "near_duplicate_text" and entry["source"].startswith(str(raw))
    detail = json.loads(entry["detail"])
    assert detail["kept"] == bridge[0]["pair_id"] and entry["pair_id"] != bridge[0]["pair_id"]
    assert detail["similarity"] >= 0.7
    # Every triple of the dropped copy is accounted for, and the kept copy has its kept rows.
    dropped_triples = [r for r in near if r["kind"] == "triple"]
    assert dropped_triples and {r["reason"] for r in dropped_triples} == {"pair_dropped:near_duplicate_text"}
    assert {r["pair_id"] for r in audit if r["fate"] == "kept"} >= {bridge[0]["pair_id"]}
    assert not [r for r in audit if r["pair_id"] == entry["pair_id"] and r["fate"] == "kept"]

    stats = json.loads((tmp_path / "out" / "stats.json").read_text())
    assert stats["leakage"]["near_duplicate_texts"] == 0
    assert stats["near_duplicate"]["dropped"] == 1 and stats["near_duplicate"]["verified_edges"] == 1
    assert stats["split"]["entity_groups"]["groups_on_both_sides"] == 0
    funnel = {s["stage"]: s for s in stats["funnel"]}
    assert funnel["near_duplicate"]["dropped"]["entry"] == {"near_duplicate_text": 1}

    # Two processes give the same rows.
    again = build(tmp_path / "mp", "--direct_running_mode=multi_processing", "--direct_num_workers=2")
    key = lambda rows: sorted(json.dumps(r, ensure_ascii=False, sort_keys=True, default=str) for r in rows)  # noqa: E731
    assert key(again) == key(pairs)
