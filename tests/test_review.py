"""Relation review: sheets, Cohen's kappa, decisions, and applying them in the build."""
from __future__ import annotations

import csv
import hashlib
import json
from collections import Counter
from pathlib import Path

import pytest

from pipeline.cli import main
from transforms.review import ReviewRules, cohen_kappa, compare, load_decision_file
from transforms.review_sheets import (
    ReviewError,
    decode_relation_filename,
    holding_sentence,
    read_sheet,
    relation_filename,
    sheet_filenames,
)

# ------------------------------------------------------------------ kappa


def test_kappa_matches_the_textbook_example():
    # 50 items: A yes/B yes 20, A yes/B no 5, A no/B yes 10, A no/B no 15.
    ag = cohen_kappa(both_accept=20, a_only=5, b_only=10, both_reject=15)
    assert ag.n == 50
    assert ag.p_o == pytest.approx(0.7)
    assert ag.p_e == pytest.approx(0.5)
    assert ag.kappa == pytest.approx(0.4)
    assert not ag.kappa_degenerate


def test_kappa_second_example_and_degenerate_cases():
    # 100 items, pA(yes)=0.6, pB(yes)=0.7: p_o 0.6, p_e 0.54, kappa 0.06/0.46.
    ag = cohen_kappa(45, 15, 25, 15)
    assert (ag.p_o, ag.p_e) == (pytest.approx(0.6), pytest.approx(0.54))
    assert ag.kappa == pytest.approx(0.06 / 0.46)
    # Both annotators accept everything: p_e = 1, kappa undefined -> reported 1.0, flagged.
    same = cohen_kappa(10, 0, 0, 0)
    assert same.kappa == 1.0 and same.kappa_degenerate and same.p_o == 1.0
    # Opposite constant labels: p_e = 0, p_o = 0 -> kappa 0, not degenerate.
    opposite = cohen_kappa(0, 10, 0, 0)
    assert opposite.kappa == 0.0 and not opposite.kappa_degenerate
    # Systematic disagreement is worse than chance.
    assert cohen_kappa(5, 5, 5, 0).kappa < 0
    with pytest.raises(ReviewError):
        cohen_kappa(0, 0, 0, 0)


# ------------------------------------------------------------------ file names


@pytest.mark.parametrize("rel", ["出生地", "../etc/passwd", "a/b", "..", ".", "CON", "名称:别名", "100%", " x ", "\t\n", "作者 / 编者"])
def test_relation_file_names_are_safe_and_reversible(rel):
    stem = relation_filename(rel)
    assert "/" not in stem and "\\" not in stem and stem not in (".", "..") and not stem.startswith(".")
    assert all(ord(c) > 32 for c in stem)
    assert decode_relation_filename(stem) == rel


def test_file_names_stay_unique_and_short():
    names = sheet_filenames(["ISBN", "isbn", "出生地", "x" * 400, "x" * 401, "con"])
    assert len({n.casefold() for n in names.values()}) == 6
    assert names["con"] == "con~.csv"
    assert names["出生地"] == "出生地.csv"
    assert all(len(n.encode()) <= 200 for n in names.values())
    with pytest.raises(ReviewError):
        relation_filename("")


def test_holding_sentence_cuts_the_sentence_of_the_triple():
    text = "鲁迅原名周树人。他出生于浙江绍兴，是现代文学家。代表作有《呐喊》。"
    start = text.index("浙江绍兴")
    assert holding_sentence(text, start, start + 4) == "他出生于浙江绍兴，是现代文学家。"
    assert holding_sentence(text, None, None) == text
    assert holding_sentence(text, 5, 999) == text  # offsets out of range: whole text


# ------------------------------------------------------------------ malformed sheets


def _write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


@pytest.mark.parametrize(
    "content,message",
    [
        ("item_id,relation\nx,作者\n", "missing column(s) decision"),
        ("item_id,relation,decision\nx,作者,maybe\n", "neither accept nor reject"),
        ("item_id,relation,decision\nx,作者,accept\nx,作者,reject\n", "appears twice"),
        ("item_id,relation,decision\nx,作者,\ny,作者,accept\n", "1 item(s) have no decision (line 2)"),
        ("item_id,relation,decision\n,作者,accept\n", "must not be empty"),
        ("item_id,relation,decision\nx,作者,accept,extra\n", "more cells than the header"),
    ],
)
def test_malformed_sheets_fail_with_file_and_line(tmp_path, content, message):
    f = _write(tmp_path / "s.csv", content)
    with pytest.raises(ReviewError) as exc:
        read_sheet(f)
    assert message in str(exc.value) and str(f) in str(exc.value)


def test_sheet_encodings_delimiters_and_aliases(tmp_path):
    # What spreadsheet programs save: GBK "CSV" (Chinese Windows), UTF-16 tab text, ; in some locales.
    for name, content, encoding in [
        ("gbk.csv", "item_id,relation,decision\nx,作者,accept\n", "gbk"),
        ("utf16.txt", "\ufeffItem_ID\tRelation\tDecision\nx\t作者\taccept\n", "utf-16-le"),
        ("semi.csv", "item_id;relation;decision\nx;作者;accept\n", "utf-8"),
    ]:
        labels, _ = read_sheet(_write(tmp_path / name, content, encoding))
        assert [(lab.item_id, lab.relation, lab.decision) for lab in labels] == [("x", "作者", "accept")], name
    garbage = tmp_path / "bin.csv"
    garbage.write_bytes(b"\x81\x30\xff\xfe" * 4)
    with pytest.raises(ReviewError, match="save the sheet as CSV UTF-8"):
        read_sheet(garbage)
    ok = _write(tmp_path / "ok.csv", "\ufeffitem_id,relation,decision\nx,作者, Accept \ny,作者,拒绝\nz,作者,\n\n")
    labels, undecided = read_sheet(ok, skip_undecided=True)
    assert [(lab.item_id, lab.decision) for lab in labels] == [("x", "accept"), ("y", "reject")]
    assert undecided == ["z"]


def test_compare_refuses_sheets_from_different_exports(tmp_path):
    a = _write(tmp_path / "a.csv", "item_id,relation,decision\nx,作者,accept\n")
    b = _write(tmp_path / "b.csv", "item_id,relation,decision\nx,导演,accept\n")
    with pytest.raises(ReviewError, match="same exported sheet"):
        compare(read_sheet(a)[0], read_sheet(b)[0], ReviewRules())


# ------------------------------------------------------------------ real-data round trip


def duie_pairs_parquet(shared_data: Path, out_dir: Path, limit: int = 1200) -> list[dict]:
    """Pairs from DuIE texts and spo lists, written with PAIR_SCHEMA like a build's output."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from schemas.outputs import PAIR_SCHEMA

    pairs, seen = [], set()
    with open(shared_data / "duie" / "train.jsonl", encoding="utf-8") as fh:
        for line in fh:
            if len(pairs) >= limit:
                break
            row = json.loads(line)
            text, spo = row["text"], row["spo_list"]
            pid = hashlib.blake2b(text.encode(), digest_size=8).hexdigest()
            if not spo or pid in seen:
                continue
            seen.add(pid)
            triples = []
            for s in spo:
                tail = s["object"]["@value"]
                start = text.find(tail)
                triples.append({"head": s["subject"], "relation": s["predicate"], "tail": tail,
                                "start": start if start >= 0 else None,
                                "end": start + len(tail) if start >= 0 else None, "match": "exact"})
            pairs.append({"pair_id": pid, "entity": spo[0]["subject"], "text": text, "triples": triples,
                          "num_triples": len(triples), "text_length": len(text)})
    # Two files in Hive folders, as the build writes them.
    half = len(pairs) // 2
    for i, chunk in enumerate((pairs[:half], pairs[half:])):
        d = out_dir / "pairs" / "domain=unknown" / f"split={'train' if i == 0 else 'eval'}"
        d.mkdir(parents=True)
        pq.write_table(pa.Table.from_pylist(chunk, schema=PAIR_SCHEMA), d / "part-00000-of-00001.parquet")
    (out_dir / "stats.json").write_text("{}", encoding="utf-8")  # a finished build's record (no output_check)
    return pairs


def read_rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8-sig", newline="") as fh:
        return list(csv.DictReader(fh))


def write_rows(path: Path, rows: list[dict]) -> None:
    with open(path, "w", encoding="utf-8-sig", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


@pytest.mark.shared
def test_review_round_trip_on_duie(shared_data, tmp_path, capsys):
    build = tmp_path / "build"
    pairs = duie_pairs_parquet(shared_data, build)
    per = 10

    # ---- export: deterministic, one sheet per relation, identical for A and B
    assert main(["review", "export", "--shards", str(build), "--out", str(tmp_path / "rv"),
                 "--per-relation", str(per), "--seed", "7"]) == 0
    manifest = json.loads((tmp_path / "rv" / "manifest.json").read_text(encoding="utf-8"))
    relations = Counter(t["relation"] for p in pairs for t in p["triples"])
    assert set(manifest["relations"]) == set(relations)
    assert manifest["pairs_read"] == len(pairs)
    for rel, info in manifest["relations"].items():
        a, b = tmp_path / "rv" / "A" / info["file"], tmp_path / "rv" / "B" / info["file"]
        assert a.read_bytes() == b.read_bytes()
        rows = read_rows(a)
        assert {r["relation"] for r in rows} == {rel}
        assert len(rows) == min(per, info["pairs_with_relation"]) == info["items"]
        assert len({r["pair_id"] for r in rows}) == len(rows)  # N distinct pairs
        for r in rows:
            assert r["decision"] == "" and r["tail"] in r["text"] and r["span"] in ("", r["tail"])
    # A second export into filled sheets' folder is refused (annotators' work is never overwritten silently).
    assert main(["review", "export", "--shards", str(build), "--out", str(tmp_path / "rv")]) == 2
    assert "--force" in capsys.readouterr().err
    again = tmp_path / "rv2"
    assert main(["review", "export", "--shards", str(build / "pairs"), "--out", str(again),
                 "--per-relation", str(per), "--seed", "7"]) == 0
    assert all((again / "A" / i["file"]).read_bytes() == (tmp_path / "rv" / "A" / i["file"]).read_bytes()
               for i in manifest["relations"].values())
    other = tmp_path / "rv3"
    assert main(["review", "export", "--shards", str(build), "--out", str(other), "--per-relation", str(per),
                 "--seed", "8"]) == 0
    assert any((other / "A" / i["file"]).read_bytes() != (tmp_path / "rv" / "A" / i["file"]).read_bytes()
               for i in manifest["relations"].values() if i["pairs_with_relation"] > per)

    # ---- two simulated annotators, with planned disagreements
    big = [r for r, i in sorted(manifest["relations"].items()) if i["items"] == per]
    rejected_by_both, low_agreement, one_off = big[0], big[1], big[2]
    flipped: set[str] = set()
    truth: dict[str, list[tuple[str, str]]] = {}
    for rel, info in manifest["relations"].items():
        rows_a = read_rows(tmp_path / "rv" / "A" / info["file"])
        rows_b = [dict(r) for r in rows_a]
        for k, (ra, rb) in enumerate(zip(rows_a, rows_b)):
            ra["decision"] = "reject" if rel == rejected_by_both else "accept"
            ra["annotator"] = "张三"
            rb["decision"] = ra["decision"]
            rb["annotator"] = "李四"
            if (rel == low_agreement and k % 3 == 0) or (rel == one_off and k == 4):
                rb["decision"] = "reject" if ra["decision"] == "accept" else "accept"
                flipped.add(ra["item_id"])
            truth.setdefault(rel, []).append((ra["decision"], rb["decision"]))
        write_rows(tmp_path / "rv" / "A" / info["file"], rows_a)
        write_rows(tmp_path / "rv" / "B" / info["file"], rows_b)

    capsys.readouterr()
    decisions_path = tmp_path / "decisions.json"
    # a folder for the disagreements once failed after the decisions were written
    (tmp_path / "dis").mkdir()
    assert main(["review", "import", str(tmp_path / "rv" / "A"), str(tmp_path / "rv" / "B"),
                 "--out", str(decisions_path), "--disagreements", str(tmp_path / "dis")]) == 2
    assert "is a folder; give a file name" in capsys.readouterr().err and not decisions_path.exists()
    assert main(["review", "import", str(tmp_path / "rv" / "A"), str(tmp_path / "rv" / "B"),
                 "--out", str(decisions_path)]) == 0
    printed = capsys.readouterr().out
    decided = json.loads(decisions_path.read_text(encoding="utf-8"))["relations"]

    for rel, labels in truth.items():
        n = len(labels)
        agree = sum(a == b for a, b in labels) / n
        pa_ = sum(a == "accept" for a, _ in labels) / n
        pb_ = sum(b == "accept" for _, b in labels) / n
        pe = pa_ * pb_ + (1 - pa_) * (1 - pb_)
        d = decided[rel]
        assert d["n"] == n and d["agreement"] == pytest.approx(agree, abs=1e-6)
        if pe < 1:
            assert d["kappa"] == pytest.approx((agree - pe) / (1 - pe), abs=1e-6)
        else:
            assert d["kappa"] == 1.0 and d["kappa_degenerate"]
    assert decided[rejected_by_both]["decision"] == "rejected"
    assert decided[rejected_by_both]["reason"] == "annotators_rejected"
    assert decided[low_agreement]["reason"] == "low_agreement"  # 4 of 10 flipped: agreement 0.6
    assert decided[low_agreement]["agreement"] == pytest.approx(0.6)
    assert decided[one_off]["decision"] == "accepted"  # exactly 0.9 agreement is enough
    assert decided[one_off]["agreement"] == pytest.approx(0.9)
    assert {r for r, d in decided.items() if d["decision"] == "rejected"} == {rejected_by_both, low_agreement}

    dis = read_rows(tmp_path / "decisions.disagreements.csv")
    assert {d["item_id"] for d in dis} == flipped
    assert all(d["a_annotator"] == "张三" and d["b_annotator"] == "李四" for d in dis)
    assert f"{len(flipped)} disagreement(s)" in printed
    assert all(i in printed for i in flipped)

    # ---- apply the decisions: rejected relations leave, every triple accounted for
    from pipeline.review_stage import apply_review

    rules = load_decision_file(decisions_path)
    kept_triples, dropped_rows = 0, []
    for pair in pairs:
        kept, rows = apply_review(pair, rules)
        dropped_rows += rows
        if kept is not None:
            assert not {t["relation"] for t in kept["triples"]} & {rejected_by_both, low_agreement}
            assert kept["num_triples"] == len(kept["triples"]) > 0
            kept_triples += len(kept["triples"])
    triple_rows = [r for r in dropped_rows if r["kind"] == "triple"]
    assert {(r["stage"], r["reason"], r["fate"]) for r in dropped_rows} == {("relation_review", "relation_rejected", "dropped")}
    assert {r["relation"] for r in triple_rows} == {rejected_by_both, low_agreement}
    assert kept_triples + len(triple_rows) == sum(len(p["triples"]) for p in pairs)
    emptied = [p for p in pairs if {t["relation"] for t in p["triples"]} <= {rejected_by_both, low_agreement}]
    assert sorted(r["pair_id"] for r in dropped_rows if r["kind"] == "entry") == sorted(p["pair_id"] for p in emptied)
    assert "low_agreement" in next(r["detail"] for r in triple_rows if r["relation"] == low_agreement)


# ------------------------------------------------------------------ CLI errors


def test_cli_errors_are_clear(tmp_path, capsys):
    assert main(["review", "import", "a.csv", "--out", str(tmp_path / "d.json")]) == 2
    assert "in pairs" in capsys.readouterr().err
    assert main(["review", "export", "--shards", str(tmp_path / "nope"), "--out", str(tmp_path / "o")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    (tmp_path / "empty").mkdir()
    assert main(["review", "export", "--shards", str(tmp_path / "empty"), "--out", str(tmp_path / "o")]) == 2
    assert "no Parquet files" in capsys.readouterr().err
    _write(tmp_path / "a.csv", "item_id,relation,decision\nx,作者,accept\ny,作者,accept\n")
    _write(tmp_path / "b.csv", "item_id,relation,decision\nx,作者,accept\n")
    assert main(["review", "import", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"),
                 "--out", str(tmp_path / "d.json")]) == 2
    assert "labelled by one annotator only: y only in A" in capsys.readouterr().err
    assert main(["review", "import", str(tmp_path / "a.csv"), str(tmp_path / "b.csv"),
                 "--out", str(tmp_path / "d.json"), "--allow-unmatched"]) == 0
    d = json.loads((tmp_path / "d.json").read_text(encoding="utf-8"))
    assert d["relations"]["作者"]["kappa_degenerate"] and d["left_out"]["unmatched"] == 1
    _write(tmp_path / "bad.json", '{"format": "something else"}')
    with pytest.raises(ReviewError, match="not a relation decision file"):
        load_decision_file(tmp_path / "bad.json")


def test_sheet_cells_from_crawled_text_never_run_as_formulas(tmp_path):
    """A tail like `=HYPERLINK(...)` or `-5℃` must reach the annotator as text."""
    import csv

    from transforms.review_sheets import SHEET_COLUMNS, read_sheet, write_sheet

    row = {c: "" for c in SHEET_COLUMNS}
    row.update(item_id="r1", relation="最低气温", head="漠河", tail="-5℃", text='=HYPERLINK("http://x")',
               decision="accept")
    path = tmp_path / "s.csv"
    write_sheet(path, [row])
    with open(path, encoding="utf-8-sig", newline="") as fh:
        written = next(csv.DictReader(fh))
    assert written["tail"] == "'-5℃"
    assert written["text"].startswith("'=")
    assert written["relation"] == "最低气温" and written["item_id"] == "r1"
    labels, _ = read_sheet(path)
    assert [(lab.item_id, lab.relation) for lab in labels] == [("r1", "最低气温")]
