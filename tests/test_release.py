"""`cdtp release` and `cdtp release verify` (issue 12, point 5), and `cdtp config show` (point 6).

One real build of the fixture entries is released once per module; each test
reads that release or damages a copy of it. What is guarded:

* the card's Hugging Face header is what `datasets` loads by config name, and
  `load_dataset("parquet", data_dir=...)` finds the splits; DuckDB reads the
  same rows;
* the manifest catches one changed byte in a shard, the card, a plot or the
  manifest itself, a missing file and an extra one;
* the plots are drawn with a CJK font, and a font without hanzi is an error
  instead of a figure of empty boxes;
* items/ (when a build has them) become one config per task and domain.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from pipeline.cli import main
from pipeline.errors import CdtpError
from pipeline.release_plots import PLOTS
from schemas.items import ITEM_SCHEMA
from schemas.outputs import PAIR_SCHEMA
from tests.build_fixtures import write_fixture

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def cjk_font():
    from pipeline.release_plots import find_cjk_font

    try:
        return find_cjk_font()
    except CdtpError as exc:
        pytest.skip(f"no CJK font for the plots ({exc}); `make test` installs fonts-noto-cjk as root")


@pytest.fixture(scope="module")
def build(tmp_path_factory) -> Path:
    raw = tmp_path_factory.mktemp("raw")
    write_fixture(raw / "raw-00000.jsonl", repeat=3)
    out = tmp_path_factory.mktemp("build") / "out"
    assert main(["build", "--input", str(raw / "raw-*"), "--out", str(out), "--min-relation-count", "4",
                 "--num-shards", "2", "--runner", "DirectRunner", "--set", "split.eval_fraction=0.5",
                 # the fixture repeats entries under fresh lemma ids: keep them all
                 "--no-near-duplicate"]) == 0
    return out


@pytest.fixture(scope="module")
def release(build, cjk_font, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("release") / "R"
    assert main(["release", "--shards", str(build), "--out", str(out), "--name", "cdtp test release"]) == 0
    return out


@pytest.fixture(scope="module")
def t2kg_build(shared_data, tmp_path_factory) -> Path:
    """A build with T2KG items (the fixture entries give none): 150 generated entries of the real corpora."""
    from benchmarks.raw_corpus import generate, write_jsonl

    base = tmp_path_factory.mktemp("t2kg")
    write_jsonl(generate(shared_data, 150), base / "raw", shards=1)
    out = base / "out"
    assert main(["build", "--input", str(base / "raw" / "raw-*.jsonl"), "--out", str(out), "--num-shards", "2",
                 "--runner", "DirectRunner"]) == 0
    return out


@pytest.fixture()
def hf_offline(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HOME", str(tmp_path / "hf"))
    return tmp_path / "hf"


def _build_counts(build: Path) -> dict[tuple[str, str], int]:
    t = pa.concat_tables([pq.read_table(f, columns=["domain", "split"]) for f in (build / "pairs").rglob("*.parquet")])
    counts: dict[tuple[str, str], int] = {}
    for d, s in zip(t.column("domain").to_pylist(), t.column("split").to_pylist()):
        counts[(d, s)] = counts.get((d, s), 0) + 1
    return counts


def test_release_layout_card_and_manifest(release, build):
    for name in ("README.md", "manifest.json", "config.json", "stats.json"):
        assert (release / name).is_file(), name
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    stats = json.loads((build / "stats.json").read_text(encoding="utf-8"))
    shards = [f for f in manifest["files"] if f["path"].startswith("data/pairs/")]
    assert sum(f["rows"] for f in shards) == manifest["build"]["funnel_pairs"] == stats["output_check"]["pairs"]["rows"]
    assert all(len(f["sha256"]) == 64 and f["schema"] == "pairs" for f in shards)
    from schemas.outputs import SCHEMA_VERSION

    assert manifest["schema_versions"]["pairs"] == SCHEMA_VERSION
    assert manifest["build"]["config"] == stats["config"]
    assert manifest["build"]["code_version"] == stats["code_version"]
    assert manifest["release"]["code_version"]["source_sha256"]
    card = (release / "README.md").read_text(encoding="utf-8")
    # This build's numbers, not a template's.
    finalise = next(s for s in stats["funnel"] if s["stage"] == "finalise")
    assert f"{finalise['out']['entries']:,} pairs" in card
    assert "| relation_frequency |" in card and "rare_relation" in card
    assert "`relation_frequency.min_count` | 4 |" in card
    assert "## Known limitations" in card and "## License" in card
    for plot in PLOTS:
        assert f"(plots/{plot})" in card


def test_card_header_is_the_hugging_face_format(release, build, hf_offline):
    import datasets
    import yaml

    card = (release / "README.md").read_text(encoding="utf-8")
    header = yaml.safe_load(card.split("---\n")[1])
    names = [c["config_name"] for c in header["configs"]]
    domains = sorted({d for d, _ in _build_counts(build)})
    assert names[: 1 + len(domains)] == ["pairs"] + [f"pairs_{d}" for d in domains]
    item_configs = names[1 + len(domains):]  # one per task and domain of items/ (the build has items)
    assert item_configs and all(n.split("_")[0] in ("qa", "kgc", "t2t", "t2kg") for n in item_configs)
    assert header["language"] == ["zh"] and header["license"] and header["size_categories"] == ["n<1K"]
    # Loading by config name goes through the card's data_files and features.
    counts = _build_counts(build)
    d0 = domains[0]
    ds = datasets.load_dataset(str(release), f"pairs_{d0}")
    assert {s: ds[s].num_rows for s in ds} == {s: n for (d, s), n in counts.items() if d == d0}
    assert ds[next(iter(ds))].features == datasets.Features.from_arrow_schema(PAIR_SCHEMA)


def test_load_dataset_parquet_data_dir_and_duckdb(release, build, hf_offline):
    import datasets
    import duckdb

    counts = _build_counts(build)
    ds = datasets.load_dataset("parquet", data_dir=str(release / "data" / "pairs"))
    by_split: dict[str, int] = {}
    for (_, s), n in counts.items():  # the eval split is published as "test"
        by_split["test" if s == "eval" else s] = by_split.get("test" if s == "eval" else s, 0) + n
    assert {s: ds[s].num_rows for s in ds} == by_split
    if "test" in ds:
        assert set(ds["test"]["split"]) == {"eval"}
    rows = duckdb.sql(f"SELECT domain, split, count(*) FROM read_parquet('{release}/data/pairs/**/*.parquet', "
                      "hive_partitioning = true) GROUP BY ALL").fetchall()
    assert {(d, s): n for d, s, n in rows} == counts


def _flip(path: Path, where: float = 0.5) -> None:
    data = bytearray(path.read_bytes())
    i = int(len(data) * where)
    data[i] ^= 0x01
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("target,expected", [
    ("data/pairs", "sha256 differs"),
    ("README.md", "README.md: sha256 differs"),
    ("plots/relations.png", "plots/relations.png: sha256 differs"),
    ("manifest.json", "manifest.json"),
])
def test_verify_fails_on_one_changed_byte(release, tmp_path, capsys, target, expected):
    copy = tmp_path / "R"
    shutil.copytree(release, copy)
    assert main(["release", "verify", str(copy)]) == 0
    capsys.readouterr()
    path = sorted((copy / target).rglob("*.parquet"))[0] if (copy / target).is_dir() else copy / target
    _flip(path)
    assert main(["release", "verify", str(copy)]) == 2
    err = capsys.readouterr().err
    assert "does not match its manifest" in err and expected in err


def test_verify_fails_on_a_missing_or_extra_file(release, tmp_path, capsys):
    copy = tmp_path / "R"
    shutil.copytree(release, copy)
    (copy / "plots" / "funnel.png").unlink()
    (copy / "data" / "pairs" / "extra.parquet").write_bytes(b"PAR1")
    assert main(["release", "verify", str(copy)]) == 2
    err = capsys.readouterr().err
    assert "plots/funnel.png: listed in the manifest but missing" in err
    assert "data/pairs/extra.parquet: present but not in the manifest" in err
    # a manifest whose file list is no list was a TypeError traceback
    manifest = json.loads((copy / "manifest.json").read_text(encoding="utf-8"))
    (copy / "manifest.json").write_text(json.dumps({**manifest, "files": "abc"}), encoding="utf-8")
    assert main(["release", "verify", str(copy)]) == 2
    assert "`files` is not a list of {path, bytes, sha256} entries" in capsys.readouterr().err


def test_plots_are_png_and_a_font_without_hanzi_is_an_error(release, build, tmp_path, monkeypatch):
    for name in PLOTS:
        data = (release / "plots" / name).read_bytes()
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000, name
    import matplotlib

    latin = Path(matplotlib.get_data_path()) / "fonts" / "ttf" / "DejaVuSans.ttf"
    monkeypatch.setenv("CDTP_CJK_FONT", str(latin))
    from pipeline.release_plots import make_plots

    stats = json.loads((build / "stats.json").read_text(encoding="utf-8"))
    with pytest.raises(CdtpError, match="lacks glyphs"):
        make_plots(tmp_path / "plots", stats, {"HP": {"train": 1}}, [10], [{"relation": "国籍", "count": 1}])
    monkeypatch.setenv("CDTP_CJK_FONT", str(tmp_path / "nofont.ttc"))
    with pytest.raises(CdtpError, match="is not a font file"):
        make_plots(tmp_path / "plots", stats, {"HP": {"train": 1}}, [10], [{"relation": "国籍", "count": 1}])


def test_release_refuses_a_damaged_build_and_a_non_empty_out(build, release, tmp_path, capsys, cjk_font):
    copy = tmp_path / "b"
    shutil.copytree(build, copy)
    sorted((copy / "pairs").rglob("*.parquet"))[0].unlink()
    assert main(["release", "--shards", str(copy), "--out", str(tmp_path / "R")]) == 2
    assert "but the funnel counted" in capsys.readouterr().err
    assert not (tmp_path / "R").exists() and not (tmp_path / "R.partial").exists()
    assert main(["release", "--shards", str(build), "--out", str(release)]) == 2
    assert "pass --overwrite" in capsys.readouterr().err


def test_release_license_is_a_hub_id_and_a_name_belongs_to_other_only(build, tmp_path, capsys, cjk_font):
    """A license the Hub does not know shows as none; a name beside cc-by-4.0 contradicts it."""
    import yaml

    for flags, message in ((["--license", "CC BY-NC-SA"], "is not a Hugging Face license id"),
                           (["--license", "other", "--license-name", "Encyclopedia Terms"], "is no license id"),
                           (["--license", "other", "--license-name", ""], "is no license id")):
        assert main(["release", "--shards", str(build), "--out", str(tmp_path / "R"), *flags]) == 2
        assert message in capsys.readouterr().err
        assert not (tmp_path / "R").exists()
    out = tmp_path / "ok"
    assert main(["release", "--shards", str(build), "--out", str(out), "--license", "CC-BY-NC-SA-4.0"]) == 0
    header = yaml.safe_load((out / "README.md").read_text(encoding="utf-8").split("---\n")[1])
    assert header["license"] == "cc-by-nc-sa-4.0" and "license_name" not in header


def _item(task: str, pair_id: str, head: str, relation: str, tail: str, options: list[str]) -> dict:
    row = {f.name: None for f in ITEM_SCHEMA}
    row.update(item_id=f"{task}-{pair_id}-{relation}", task=task, domain="HP", split="train", in_subset=False,
               pair_id=pair_id, head=head, relation=relation, tail=tail, question=f"{head}的{relation}是什么？",
               asked="tail", options=options, answer=tail, answer_index=options.index(tail))
    return row


def test_items_become_one_config_per_task_and_domain(build, tmp_path, hf_offline, cjk_font):
    copy = tmp_path / "b"
    shutil.copytree(build, copy)
    rows = [_item("qa", "p1", "长江", "发源地", "青藏高原", ["青藏高原", "云贵高原"]),
            _item("qa", "p2", "黄河", "注入", "渤海", ["东海", "渤海"])]
    part = copy / "items" / "task=qa" / "domain=HP" / "split=train"
    part.mkdir(parents=True)
    pq.write_table(pa.Table.from_pylist(rows, schema=ITEM_SCHEMA), part / "part-00000-of-00001.parquet")
    out = tmp_path / "R"
    # items the build did not write are refused ...
    from pipeline.release import load_build

    counted = sum(n for splits in json.loads((copy / "stats.json").read_text(encoding="utf-8"))["items"]["written"]
                  .values() for n in splits.values())
    with pytest.raises(CdtpError, match=rf"items/ holds {counted + 2} rows in \d+ files, but the funnel counted {counted}"):
        load_build(copy)
    # ... until its stats count them, as the items stage would have
    stats = json.loads((copy / "stats.json").read_text(encoding="utf-8"))
    written = stats.setdefault("items", {}).setdefault("written", {})
    written.setdefault("qa", {})["train"] = written.get("qa", {}).get("train", 0) + 2
    # and its output check records the files and rows it wrote
    recorded = stats["output_check"].setdefault("items", {"files": 0, "rows": 0})
    recorded["files"] += 1
    recorded["rows"] += 2
    import hashlib

    recorded.setdefault("sha256", {})["task=qa/domain=HP/split=train/part-00000-of-00001.parquet"] = hashlib.sha256(
        (part / "part-00000-of-00001.parquet").read_bytes()).hexdigest()
    (copy / "stats.json").write_text(json.dumps(stats), encoding="utf-8")
    assert main(["release", "--shards", str(copy), "--out", str(out)]) == 0
    manifest = json.loads((out / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["configs"]["qa"]["rows"] == {"train": 2}
    assert manifest["configs"]["qa_HP"]["rows"] == {"train": 2}
    assert manifest["schema_versions"]["items"] == "1"
    import datasets

    ds = datasets.load_dataset(str(out), "qa_HP")
    assert ds["train"]["answer"] == ["青藏高原", "渤海"] or sorted(ds["train"]["answer"]) == ["渤海", "青藏高原"]
    assert main(["release", "verify", str(out)]) == 0


def test_config_show_prints_a_config_that_round_trips(tmp_path, capsys):
    assert main(["config", "show", "--set", "split.seed=7", "--set", "relation_frequency.min_count=3"]) == 0
    captured = capsys.readouterr()
    shown = json.loads(captured.out)
    assert shown["split"]["seed"] == 7 and shown["relation_frequency"]["min_count"] == 3
    assert captured.err.startswith("# cdtp ")
    cfg_file = tmp_path / "c.json"
    cfg_file.write_text(captured.out, encoding="utf-8")
    assert main(["config", "show", "--config", str(cfg_file)]) == 0
    assert json.loads(capsys.readouterr().out) == shown
    assert main(["config", "show", "--set", "split.sed=1"]) == 2
    assert "unknown key(s) ['sed']" in capsys.readouterr().err


def test_config_show_from_a_build_names_its_code_version(build, capsys):
    assert main(["config", "show", "--from-build", str(build)]) == 0
    captured = capsys.readouterr()
    stats = json.loads((build / "stats.json").read_text(encoding="utf-8"))
    assert json.loads(captured.out) == stats["config"]
    assert stats["code_version"]["source_sha256"][:12] in captured.err
    # --set and --config would be ignored (they were, silently): a clear error instead
    assert main(["config", "show", "--from-build", str(build), "--set", "relation_frequency.min_count=3"]) == 2
    assert "--config and --set do not apply" in capsys.readouterr().err


@pytest.mark.parametrize("stats", ["[1]", "{}", '{"config": null}'])
def test_a_stats_file_without_a_config_is_refused_not_shown_as_the_defaults(build, tmp_path, capsys, stats):
    copy = tmp_path / "b"
    shutil.copytree(build, copy)
    (copy / "stats.json").write_text(stats, encoding="utf-8")
    assert main(["config", "show", "--from-build", str(copy)]) == 2
    assert "records no build configuration" in capsys.readouterr().err
    assert main(["release", "--shards", str(copy), "--out", str(tmp_path / "R")]) == 2
    assert "is not a complete cdtp stats file" in capsys.readouterr().err


def test_the_card_names_the_open_relations_whose_tails_are_not_asked():
    """A release user must see which relations the QA and KGC items leave out
    (items.skip_open_relations, docs/distractor_labels.md), and that their
    triples are still in the pairs."""
    from pipeline.release_card import ReleaseFacts, render_card

    facts = ReleaseFacts("plants", {"items": {"open_relations": {"功用价值": 610, "地理分布": 1174}}}, {}, {}, {})
    card = render_card(facts)
    assert "open relation" in card and "功用价值 610, 地理分布 1,174" in card
    assert "open relation" not in render_card(ReleaseFacts("plants", {"items": {"open_relations": {}}}, {}, {}, {}))


def test_a_build_of_no_pair_is_not_released(tmp_path, capsys, cjk_font):
    # It used to publish a card of placeholder configs (`pairs_unknown`, split `unassigned`).
    empty = tmp_path / "raw-00000.jsonl"
    empty.write_text("", encoding="utf-8")
    out = tmp_path / "build"
    assert main(["build", "--input", str(empty), "--out", str(out), "--no-domain"]) == 0
    assert main(["release", "--shards", str(out), "--out", str(tmp_path / "R")]) == 2
    assert "holds no pair" in capsys.readouterr().err
    assert not (tmp_path / "R").exists()


# ------------------------------------------------ --out, --overwrite, concurrency, Ctrl-C (release audit)

def test_a_release_never_goes_into_or_around_its_build(build, tmp_path, capsys, cjk_font):
    """`--out` naming the build (or a folder holding it) with --overwrite deleted the build itself."""
    copy = tmp_path / "p" / "b"
    shutil.copytree(build, copy)
    before = sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*"))
    for out in (copy, copy.parent, copy / "release"):
        assert main(["release", "--shards", str(copy), "--out", str(out), "--overwrite"]) == 2
        err = capsys.readouterr().err
        assert "overlap" in err and "Traceback" not in err, err
    assert sorted(p.relative_to(copy).as_posix() for p in copy.rglob("*")) == before


def test_overwrite_replaces_an_earlier_release_only(build, release, tmp_path, capsys, cjk_font):
    """--overwrite emptied any folder: a user's files in --out were removed without a word."""
    other = tmp_path / "mine"
    other.mkdir()
    (other / "notes.txt").write_text("mine", encoding="utf-8")
    assert main(["release", "--shards", str(build), "--out", str(other), "--overwrite"]) == 2
    assert "something other than a cdtp release" in capsys.readouterr().err
    assert [p.name for p in other.iterdir()] == ["notes.txt"]
    again = tmp_path / "R"
    shutil.copytree(release, again)
    assert main(["release", "--shards", str(build), "--out", str(again), "--overwrite", "--name", "second"]) == 0
    assert main(["release", "verify", str(again)]) == 0
    assert "pretty_name: second" in (again / "README.md").read_text(encoding="utf-8")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["R", "mine"]  # no partial or old folder left


def test_an_interrupted_overwrite_keeps_the_earlier_release(build, release, tmp_path, monkeypatch, capsys,
                                                            cjk_font):
    """Ctrl-C during `--overwrite` lost the earlier release: it was removed before the new one was made."""
    import pipeline.release_plots as plots

    kept = tmp_path / "R"
    shutil.copytree(release, kept)

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(plots, "make_plots", interrupted)
    assert main(["release", "--shards", str(build), "--out", str(kept), "--overwrite"]) == 130
    assert "interrupted" in capsys.readouterr().err
    assert main(["release", "verify", str(kept)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["R"]


def test_two_releases_into_one_folder_never_mix(build, tmp_path, monkeypatch, capsys, cjk_font):
    """Two releases into one folder at once shared one `OUT.partial`: each removed the other's
    files, and one said success for a release without its data or with the other build's.
    Here a second release runs to its end while the first is drawing its plots."""
    import pipeline.release_plots as plots
    from pipeline.release import make_release
    from pipeline.release_manifest import verify_release

    out = tmp_path / "R"
    draw = plots.make_plots
    calls = []

    def with_a_second_release(*args, **kwargs):
        calls.append(1)
        if len(calls) == 1:
            make_release(build, out, name="second")
        return draw(*args, **kwargs)

    monkeypatch.setattr(plots, "make_plots", with_a_second_release)
    with pytest.raises(CdtpError, match="was filled while this release was made"):
        make_release(build, out, name="first")
    problems, manifest = verify_release(out)
    assert problems == [] and manifest["name"] == "second"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["R"]


@pytest.mark.parametrize("damage, message", [
    ("items", "items/ holds 0 rows in 0 files, but the funnel counted"),
    ("discarded_triples", "discarded_triples/ holds 0 rows in 0 files, but the build wrote"),
    ("output_check", "pairs/ holds .* but the build wrote 1 rows"),
    ("totals", "a section has the wrong type"),
    ("replaced", r"pairs/domain=.*\.parquet: its sha256 is not the one the build wrote"),
])
def test_a_build_changed_after_the_fact_is_not_released(build, tmp_path, capsys, cjk_font, damage, message):
    """A whole output folder removed (items/, discarded_triples/) was released without it, exit 0; an
    edited output_check was not compared; a stats section of the wrong type was a traceback; a shard
    replaced by other Parquet of the same rows was released (output_check held no content hash)."""
    copy = tmp_path / "b"
    shutil.copytree(build, copy)
    stats = json.loads((copy / "stats.json").read_text(encoding="utf-8"))
    if damage in ("items", "discarded_triples"):
        assert stats["output_check"][damage]["rows"] > 0
        shutil.rmtree(copy / damage)
    elif damage == "output_check":
        stats["output_check"]["pairs"]["rows"] = 1
    elif damage == "replaced":  # other valid Parquet of the same schema and rows: files and rows agree
        victim = next(p for p in sorted((copy / "pairs").rglob("*.parquet")) if pq.read_metadata(p).num_rows)
        t = pq.ParquetFile(victim).read()
        i = t.schema.get_field_index("text")
        texts = t.column("text").to_pylist()
        texts[0] += "（已改）"
        pq.write_table(t.set_column(i, t.schema.field(i), pa.array(texts, t.schema.field(i).type)), victim)
    else:
        stats["totals"] = "x"
    (copy / "stats.json").write_text(json.dumps(stats, ensure_ascii=False), encoding="utf-8")
    assert main(["release", "--shards", str(copy), "--out", str(tmp_path / "R")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("cdtp: error: ") and "Traceback" not in err
    import re
    assert re.search(message, err), err
    assert not (tmp_path / "R").exists()


def test_the_relations_plot_counts_the_released_pairs(build, tmp_path):
    """stats.json's top relations were counted before search validation and near-duplicates drop
    triples; Figure 6 of a release showed relations its pairs do not hold."""
    from pipeline.release import pair_columns

    files = sorted((build / "pairs").rglob("*.parquet"))
    t = pa.concat_tables([pq.read_table(f, columns=["triples"]) for f in files])
    counts: dict[str, int] = {}
    for triples in t.column("triples").to_pylist():
        for tr in triples:
            counts[tr["relation"]] = counts.get(tr["relation"], 0) + 1
    got = pair_columns(files)[2]
    assert {r["relation"]: r["count"] for r in got} == dict(sorted(counts.items(), key=lambda kv: -kv[1])[:20])
    assert [r["count"] for r in got] == sorted((r["count"] for r in got), reverse=True)


def test_every_pair_field_is_described_on_the_card():
    """The card's field table left `coverage` (schema version 2) without a meaning."""
    from pipeline.release_card import PAIR_FIELDS

    assert [n for n in PAIR_SCHEMA.names if not PAIR_FIELDS.get(n)] == []


@pytest.mark.parametrize("flag", ["--shards", "--out"])
def test_an_object_store_path_is_named_as_such(build, tmp_path, capsys, monkeypatch, flag):
    """`--shards gs://b/x` became the local path `gs:/b/x` and was refused as holding no stats.json;
    `--out gs://b/x` made a release in a local folder `gs:`."""
    monkeypatch.chdir(tmp_path)
    args = {"--shards": str(build), "--out": str(tmp_path / "R"), flag: "gs://bucket/cdtp"}
    assert main(["release", "--shards", args["--shards"], "--out", args["--out"]]) == 2
    err = capsys.readouterr().err
    assert f"{flag} gs://bucket/cdtp: a release is made from and into local folders" in err
    assert not (tmp_path / "R").exists() and not Path("gs:").exists()


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_release_carries_the_ontologies_of_its_t2kg_items(t2kg_build, tmp_path, capsys, cjk_font):
    """The build writes ontologies/ for the T2KG task, the release shipped none: its T2KG items named
    ontologies nobody could read, and `cdtp export --format text2kgbench` worked from a build only."""
    build, release = t2kg_build, tmp_path / "R"
    assert main(["release", "--shards", str(build), "--out", str(release)]) == 0
    t2kg = sorted((build / "items" / "task=t2kg").rglob("*.parquet"))
    ids = {i for f in t2kg for i in pq.ParquetFile(f).read(columns=["ontology"]).column("ontology").to_pylist()}
    assert ids, "the fixture build has T2KG items"
    shipped = release / "data" / "ontologies"
    assert {p.stem for p in shipped.glob("*.json")} == {p.stem for p in (build / "ontologies").glob("*.json")} >= ids
    for p in shipped.glob("*.json"):
        assert p.read_bytes() == (build / "ontologies" / p.name).read_bytes()
    manifest = json.loads((release / "manifest.json").read_text(encoding="utf-8"))
    listed = {f["path"]: f for f in manifest["files"]}
    for p in shipped.glob("*.json"):
        assert len(listed[f"data/ontologies/{p.name}"]["sha256"]) == 64
    card = (release / "README.md").read_text(encoding="utf-8")
    assert "`data/ontologies/<id>.json`" in card
    # Both export formats give from the release what they give from the build.
    for fmt in ("text2kgbench", "cdtp"):
        assert main(["export", "--shards", str(build), "--format", fmt, "--out", str(tmp_path / f"b-{fmt}")]) == 0
        assert main(["export", "--shards", str(release), "--format", fmt, "--out", str(tmp_path / f"r-{fmt}")]) == 0
        got, want = _tree(tmp_path / f"r-{fmt}"), _tree(tmp_path / f"b-{fmt}")
        assert got == want and got, fmt
    assert any(k.startswith("ontologies/") for k in _tree(tmp_path / "r-text2kgbench"))
    # A release whose ontology changed is not exported, and `verify` names the file.
    copy = tmp_path / "R2"
    shutil.copytree(release, copy)
    victim = sorted((copy / "data" / "ontologies").glob("*.json"))[0]
    victim.write_bytes(victim.read_bytes() + b" ")
    capsys.readouterr()
    assert main(["export", "--shards", str(copy), "--format", "text2kgbench", "--out", str(tmp_path / "x")]) == 2
    err = capsys.readouterr().err
    assert f"data/ontologies/{victim.name}" in err and "sha256" in err
    assert not (tmp_path / "x").exists()
    assert main(["release", "verify", str(copy)]) == 2
    # ... nor a build whose ontology is not the one it wrote (stats.json output_check)
    bcopy = tmp_path / "b2"
    shutil.copytree(build, bcopy)
    (bcopy / "ontologies" / victim.name).write_bytes((build / "ontologies" / victim.name).read_bytes() + b" ")
    capsys.readouterr()
    assert main(["export", "--shards", str(bcopy), "--format", "text2kgbench", "--out", str(tmp_path / "y")]) == 2
    err = capsys.readouterr().err
    assert f"ontologies/{victim.name}" in err and "sha256" in err and not (tmp_path / "y").exists()


def test_a_build_whose_t2kg_items_name_a_missing_ontology_is_not_released(t2kg_build, tmp_path, capsys, cjk_font):
    """Released without it, a T2KG item names an ontology the release does not hold."""
    copy = tmp_path / "b"
    shutil.copytree(t2kg_build, copy)
    t2kg = sorted((copy / "items" / "task=t2kg").rglob("*.parquet"))
    name = pq.ParquetFile(t2kg[0]).read(columns=["ontology"]).column("ontology")[0].as_py()
    (copy / "ontologies" / f"{name}.json").unlink()
    stats = json.loads((copy / "stats.json").read_text(encoding="utf-8"))
    stats["output_check"].pop("ontologies", None)  # as a build of a version that recorded none
    (copy / "stats.json").write_text(json.dumps(stats, ensure_ascii=False), encoding="utf-8")
    assert main(["release", "--shards", str(copy), "--out", str(tmp_path / "R")]) == 2
    err = capsys.readouterr().err
    assert name in err and "ontologies/" in err
    assert not (tmp_path / "R").exists()
