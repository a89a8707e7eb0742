"""`cdtp export --shards DIR --format cdtp|text2kgbench --out DIR`: prompt-ready JSON Lines.

`cdtp`: the CDTP ten-option format. One file per task, domain and split
(`qa_HP_eval.jsonl` ...). A QA/KGC line holds the question, the options
labelled `A、` to `J、` in presentation order, the prompt (question + labelled
options + the instruction to answer with one letter), the gold letter and
the gold string. A T2T line holds the triples, a prompt and the reference
text; a T2KG line the sentence, its ontology id and the gold triples.

`text2kgbench`: Text2KGBench's layout for the T2KG items: `ontologies/<id>.json`
(as the build wrote them) and `test/<id>_test.jsonl` / `train/<id>_train.jsonl`
with `{id, sent, triples: [{sub, rel, obj}]}` per line, one file per domain.

Rows are written in item_id order, so an export of the same build is the same bytes.

`--shards` is a build folder or a `cdtp release` folder made from one: a release
holds the same items (`data/items/`) and ontologies (`data/ontologies/`), checked
against its manifest.json instead of the build's stats.json, so both export the
same files.
"""
from __future__ import annotations

import json
import os
import shutil

from pipeline.errors import CdtpError
from schemas.items import UNASSIGNED_SPLIT, split_name

LABELS = "ABCDEFGHIJ"
QA_INSTRUCTION = "请从以上选项中选出正确答案，只回答选项字母。"
KGC_INSTRUCTION = "请补全上面三元组中缺失的实体（?），从以上选项中选出正确答案，只回答选项字母。"
T2T_INSTRUCTION = "请把下列三元组写成一段通顺的中文描述：\n"


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "export", help="write a build's benchmark items as prompt-ready JSON Lines (CDTP or Text2KGBench format)",
        description=__doc__)
    p.add_argument("--shards", required=True, metavar="DIR",
                   help="a `cdtp build` output directory with items/, or a `cdtp release` folder")
    p.add_argument("--format", required=True, choices=("cdtp", "text2kgbench"))
    p.add_argument("--out", required=True, metavar="DIR")
    p.add_argument("--split", default=None, choices=("train", "eval"), help="only this split (default: both)")
    p.set_defaults(handler=run_export)


def labelled(options: list[str]) -> str:
    return "\n".join(f"{LABELS[i]}、{o}" for i, o in enumerate(options))


def cdtp_record(item: dict) -> dict:
    """One item in the CDTP prompt format."""
    base = {"id": item["item_id"], "task": item["task"], "domain": item["domain"], "split": item["split"]}
    task = item["task"]
    if task in ("qa", "kgc"):
        options = list(item["options"])
        if len(options) != len(LABELS):
            raise CdtpError(f"item {item['item_id']} has {len(options)} options, expected {len(LABELS)}")
        instruction = QA_INSTRUCTION if task == "qa" else KGC_INSTRUCTION
        return {**base, "question": item["question"], "options": labelled(options),
                "prompt": f"{item['question']}\n{labelled(options)}\n{instruction}",
                "answer": LABELS[item["answer_index"]], "answer_text": item["answer"]}
    if task == "t2t":
        triples = [[t["head"], t["relation"], t["tail"]] for t in item["triples"]]
        lines = "\n".join(f"({h}, {r}, {t})" for h, r, t in triples)
        return {**base, "triples": triples, "prompt": T2T_INSTRUCTION + lines, "reference": item["reference"]}
    return {**base, "text": item["text"], "ontology": item["ontology"],
            "triples": [[t["head"], t["relation"], t["tail"]] for t in item["gold_triples"]]}


def _release(shards: str) -> bool:
    from pathlib import Path

    from pipeline.release import is_release

    return os.path.isdir(shards) and is_release(Path(shards))


def _ontology_dir(shards: str) -> str:
    from pipeline.release import DATA, ONTOLOGIES

    return os.path.join(shards, DATA, ONTOLOGIES) if _release(shards) else os.path.join(shards, "ontologies")


def _release_items(shards: str):
    """A DuckDB connection with an `items` view over a release's data/items/, after checking the items
    and ontologies against the release's manifest (a changed file exports nothing)."""
    from pathlib import Path

    import duckdb

    from pipeline.release import DATA, ONTOLOGIES
    from pipeline.release_manifest import verify_release

    items_dir = os.path.join(shards, DATA, "items")
    if not os.path.isdir(items_dir):
        raise CdtpError(f"release {shards} has no {DATA}/items/ (its build had no items)")
    problems, _ = verify_release(Path(shards), only=(f"{DATA}/items/", f"{DATA}/{ONTOLOGIES}/"))
    if problems:
        raise CdtpError(f"cannot export the items of release {shards}: it does not match its manifest.json:\n  - "
                        + "\n  - ".join(problems))
    con = duckdb.connect(config={"autoinstall_known_extensions": False, "autoload_known_extensions": False})
    glob = os.path.join(os.path.realpath(items_dir), "**", "*.parquet").replace("'", "''")
    # File columns, not Hive keys: task/domain/split are in the files (as the query view reads them).
    con.execute(f"CREATE VIEW items AS SELECT * FROM read_parquet('{glob}', hive_partitioning=0, union_by_name=1)")
    return con


def _check_build_ontologies(shards: str) -> None:
    """The build's ontologies must be the bytes it wrote (stats.json output_check, when it recorded them)."""
    from pipeline.output_check import ONTOLOGIES, hash_problems, inspect_ontologies

    try:
        with open(os.path.join(shards, "stats.json"), encoding="utf-8") as fh:
            record = (json.load(fh).get("output_check") or {}).get(ONTOLOGIES)
    except (OSError, ValueError, AttributeError):
        return  # the items' check (open_views) has already refused a build without a readable record
    if not isinstance(record, dict):
        return
    found = (inspect_ontologies(shards) or {}).get("sha256", {})
    problems = hash_problems(ONTOLOGIES, found, record.get("sha256"))
    if problems:
        raise CdtpError(f"cannot export the T2KG items of {shards}:\n  - " + "\n  - ".join(problems))


def _items(shards: str, split: str | None, where: str = "") -> list[dict]:
    from pipeline.query import open_views

    if not os.path.isdir(shards):
        raise CdtpError(f"--shards {shards} is no folder (give a `cdtp build` output folder or a release)")
    if _release(shards):
        con = _release_items(shards)
    else:
        if not os.path.isdir(os.path.join(shards, "items")):
            raise CdtpError(f"{shards} has no items/ (build it without --no-items)")
        views = open_views(shards)
        if "items" in views.unavailable:  # a damaged or missing shard: export nothing rather than a part
            raise CdtpError(f"cannot export the items of {shards}: {views.unavailable['items']}")
        con = views.con
    clauses = [c for c in (where, f"split = '{split}'" if split else "") if c]
    sql = "SELECT * FROM items" + (" WHERE " + " AND ".join(clauses) if clauses else "") + " ORDER BY item_id"
    cur = con.execute(sql)
    names = [d[0] for d in cur.description]
    return [dict(zip(names, row)) for row in cur.fetchall()]


def _write_jsonl(path: str, rows: list[dict]) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        for r in rows:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")


def export_cdtp(shards: str, out: str, split: str | None = None) -> dict[str, int]:
    files: dict[str, list[dict]] = {}
    for item in _items(shards, split):
        name = f"{item['task']}_{item['domain']}_{split_name(item['split'])}.jsonl"
        files.setdefault(name, []).append(cdtp_record(item))
    for name, rows in sorted(files.items()):
        _write_jsonl(os.path.join(out, name), rows)
    return {name: len(rows) for name, rows in sorted(files.items())}


def export_text2kgbench(shards: str, out: str, split: str | None = None) -> dict[str, int]:
    onto_dir = _ontology_dir(shards)
    if not os.path.isdir(onto_dir):
        raise CdtpError(f"{shards} has no {os.path.relpath(onto_dir, shards)}/ (the T2KG task was not built)")
    # The items are read (and checked) first: a refused build must leave --out as it was, not
    # holding ontologies/ that make the next export into it "not empty".
    items = _items(shards, split, "task = 't2kg'")
    if not _release(shards):  # a release's were checked against its manifest with its items
        _check_build_ontologies(shards)
    os.makedirs(os.path.join(out, "ontologies"), exist_ok=True)
    for name in sorted(os.listdir(onto_dir)):
        shutil.copyfile(os.path.join(onto_dir, name), os.path.join(out, "ontologies", name))
    files: dict[str, list[dict]] = {}
    for item in items:
        # a --no-split build's items are neither: never filed as train
        part = {"eval": "test", "train": "train"}.get(item["split"], UNASSIGNED_SPLIT)
        name = f"{part}/{item['ontology']}_{part}.jsonl"
        rows = files.setdefault(name, [])
        rows.append({"id": f"{item['ontology']}_{part}_{len(rows) + 1}", "sent": item["text"],
                     "triples": [{"sub": t["head"], "rel": t["relation"], "obj": t["tail"]}
                                 for t in item["gold_triples"]], "item_id": item["item_id"]})
    for name, rows in sorted(files.items()):
        _write_jsonl(os.path.join(out, name), rows)
    return {name: len(rows) for name, rows in sorted(files.items())}


def run_export(args) -> int:
    if os.path.isdir(args.out) and os.listdir(args.out):
        # files of an earlier export (another split, another build) would stand beside the new ones
        raise CdtpError(f"--out {args.out} is not empty: give a new or empty folder")
    fn = export_cdtp if args.format == "cdtp" else export_text2kgbench
    written = fn(args.shards, args.out, args.split)
    for name, n in written.items():
        print(f"{n:>8}  {os.path.join(args.out, name)}")
    print(f"cdtp export: {sum(written.values())} items in {len(written)} files ({args.format}) under {args.out}")
    return 0
