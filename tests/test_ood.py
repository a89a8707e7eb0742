"""Out-of-distribution sets (issue 13 §4): the public WebNLG, YAGO3-10 and HotpotQA files become
items of the same schema that pass the same invariants as the CDTP items, and `cdtp eval` takes them."""
from collections import Counter

import pyarrow.parquet as pq
import pytest

from evaluation.items import validate
from evaluation.ood import load_hotpotqa, load_webnlg, load_yago
from pipeline.cli import main
from schemas.items import ITEM_SCHEMA
from transforms.items.distractors import violations
from transforms.text import normalise


def _ood(shared_data, name):
    return shared_data / "ood" / name


def test_webnlg_becomes_t2t_items(shared_data):
    stats = Counter()
    items = list(load_webnlg(str(_ood(shared_data, "webnlg")), stats=stats))
    assert stats["webnlg_eval"] > 1000 and stats["webnlg_train"] > 500
    for it in items[:200]:
        assert it["task"] == "t2t" and it["domain"] == "webnlg" and it["triples"] and it["reference"]
        assert all("_" not in t["head"] for t in it["triples"])  # surface forms, not DBpedia ids
        assert validate(it) is None


@pytest.mark.slow
def test_yago_kgc_items_pass_the_cdtp_invariants(shared_data):
    folder = _ood(shared_data, "yago3-10")
    stats = Counter()
    items = list(load_yago(str(folder), limit=6, stats=stats, pool=24))
    # the limit is per split: a limited set can still be evaluated
    assert Counter(it["split"] for it in items) == {"train": 6, "eval": 6}
    graph = {}
    for name in ("valid.txt", "test.txt"):
        for line in (folder / name).read_text(encoding="utf-8").splitlines():
            h, r, t = line.split("\t")
            graph.setdefault((h.replace("_", " "), r), set()).add(normalise(t.replace("_", " ")))
    for it in items:
        assert violations(it) == [], it
        assert validate(it) is None
        # never a true answer: no option but the gold is a known tail of (h, r)
        known = graph[(it["head"], it["relation"])]
        assert [o for o in it["options"] if normalise(o) in known] == [it["answer"]]
        assert normalise(it["head"]) not in {normalise(o) for o in it["options"]}


@pytest.mark.slow
def test_hotpotqa_items_skip_yes_no_and_pass_the_invariants(shared_data):
    stats = Counter()
    items = list(load_hotpotqa(str(_ood(shared_data, "hotpotqa")), limit=10, stats=stats, pool=24))
    assert len(items) == 10 and stats["hotpotqa_skipped_yes_no"] > 0
    for it in items:
        assert violations(it) == [] and validate(it) is None
        assert it["answer"].lower() not in {"yes", "no"}


def test_webnlg_honours_limit_per_split(shared_data, tmp_path, capsys):
    """`cdtp ood webnlg --limit 20` once dropped the limit silently and wrote 2,731 items."""
    stats = Counter()
    items = list(load_webnlg(str(_ood(shared_data, "webnlg")), limit=5, stats=stats))
    assert Counter(it["split"] for it in items) == {"train": 5, "eval": 5}
    assert stats["webnlg_train"] == stats["webnlg_eval"] == 5  # the stats count what was written
    out = tmp_path / "ood"
    assert main(["ood", "webnlg", "--data", str(_ood(shared_data, "webnlg")), "--out", str(out),
                 "--limit", "20"]) == 0
    assert "wrote 40 items" in capsys.readouterr().out
    assert sum(pq.read_metadata(p).num_rows for p in (out / "items").rglob("*.parquet")) == 40


@pytest.mark.slow
def test_cdtp_eval_takes_ood_items(shared_data, tmp_path):
    out = tmp_path / "ood"
    assert main(["ood", "webnlg", "--data", str(_ood(shared_data, "webnlg")), "--out", str(out)]) == 0
    table = pq.read_table(next((out / "items").rglob("*.parquet")))
    assert table.schema.equals(ITEM_SCHEMA, check_metadata=False)
    assert main(["eval", "--items", str(out), "--model", "template", "--tasks", "t2t", "--limit", "20",
                 "--out", str(tmp_path / "run")]) == 0


def test_missing_ood_folder_is_a_clear_error(tmp_path, capsys):
    assert main(["ood", "yago3-10", "--data", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "valid.txt" in capsys.readouterr().err
    # one split's file missing once made a set without that split, exit 0
    (tmp_path / "valid.txt").write_text("Paris\tisLocatedIn\tFrance\n", encoding="utf-8")
    assert main(["ood", "yago3-10", "--data", str(tmp_path), "--out", str(tmp_path / "o")]) == 2
    assert "missing test.txt" in capsys.readouterr().err


def test_malformed_yago_lines_are_counted_not_dropped_unseen(tmp_path):
    from collections import Counter

    from evaluation.ood import _read_triples

    f = tmp_path / "test.txt"
    f.write_text("Paris\tisLocatedIn\tFrance\nnot a triple\n\nLyon\t\tFrance\n", encoding="utf-8")
    stats: Counter = Counter()
    assert _read_triples(str(f), stats) == [("Paris", "isLocatedIn", "France")]
    assert stats == {"yago_skipped_malformed": 2}


def test_ood_never_writes_into_a_build(tmp_path, capsys):
    """A build's items/ and stats.json are not the OOD sets' to join or replace."""
    build = tmp_path / "build"
    (build / "pairs").mkdir(parents=True)
    (build / "stats.json").write_text('{"funnel": {}, "output_check": {}}', encoding="utf-8")
    assert main(["ood", "yago3-10", "--data", str(tmp_path), "--out", str(build)]) == 2
    assert "holds a cdtp build or release" in capsys.readouterr().err
    assert (build / "stats.json").read_text(encoding="utf-8") == '{"funnel": {}, "output_check": {}}'
    assert not (build / "items").exists()



def test_ood_never_writes_inside_a_build(tmp_path, capsys):
    """BUILD/items/x: the OOD shards would be read as the build's items (and its counts would not match)."""
    build = tmp_path / "build"
    (build / "items").mkdir(parents=True)
    (build / "stats.json").write_text('{"funnel": [], "output_check": {}}', encoding="utf-8")
    for out in (build / "items" / "ood", build / "ood"):
        assert main(["ood", "yago3-10", "--data", str(tmp_path), "--out", str(out)]) == 2
        assert "lies inside" in capsys.readouterr().err
    assert not any((build / "items").iterdir()) and not (build / "ood").exists()
