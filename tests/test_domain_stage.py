"""Beam wrappers and the `cdtp domain` command (issue 4)."""
from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.slow


def _pairs():
    return [
        {"pair_id": "p1", "entity": "霸王别姬", "subtitle": None, "tags": ["电影"], "text": "陈凯歌执导的电影。",
         "triples": [{"head": "霸王别姬", "relation": "导演", "tail": "陈凯歌"},
                     {"head": "霸王别姬", "relation": "上映时间", "tail": "1993年1月1日"}]},
        {"pair_id": "p2", "entity": "银杏", "subtitle": None, "tags": ["植物"], "text": "落叶乔木。",
         "triples": [{"head": "银杏", "relation": "界", "tail": "植物界"},
                     {"head": "银杏", "relation": "高度", "tail": "40米"}]},
    ]


def test_type_and_classify_in_beam():
    import apache_beam as beam
    from apache_beam.options.pipeline_options import PipelineOptions
    from apache_beam.testing.test_pipeline import TestPipeline
    from apache_beam.testing.util import assert_that, equal_to, is_empty

    from pipeline.domain_stage import ClassifyDomain, TypeEntities
    from transforms.domain import DomainConfig

    with TestPipeline(runner="DirectRunner", options=PipelineOptions(runner="DirectRunner")) as p:
        pairs = p | beam.Create(_pairs())
        typed = pairs | "Type" >> TypeEntities()
        out = typed["pairs"] | "Domain" >> ClassifyDomain(DomainConfig(batch_size=8))
        summary = out["pairs"] | beam.Map(lambda r: (
            r["pair_id"], r["entity_type"], tuple(t["tail_type"] for t in r["triples"]), r["domain"],
            r["domain_confidence"] > 0.5, "relations" in json.loads(r["domain_evidence"])))
        assert_that(summary, equal_to([
            ("p1", "work", ("person", "date"), "HS", True, True),
            ("p2", "species", ("species", "quantity"), "NE", True, True),
        ]))
        assert_that(typed["audit"], is_empty(), label="NoTypingDrops")
        assert_that(out["audit"], is_empty(), label="NoDomainDrops")


def test_disabled_domain_stage_passes_pairs_through():
    import apache_beam as beam
    from apache_beam.testing.test_pipeline import TestPipeline
    from apache_beam.testing.util import assert_that, equal_to

    from pipeline.domain_stage import ClassifyDomain
    from transforms.domain import DomainConfig

    with TestPipeline(runner="DirectRunner") as p:
        out = p | beam.Create(_pairs()) | ClassifyDomain(DomainConfig(enabled=False))
        assert_that(out["pairs"] | beam.Map(lambda r: r.get("domain")), equal_to([None, None]))


def test_cli_eval_self_contained_rows(tmp_path, capsys):
    from pipeline.cli import main

    rows = [
        {"title": "曹操", "summary": "东汉末年的政治家、军事家。", "tags": ["历史人物"],
         "relations": ["朝代", "谥号"], "label": "HP"},
        {"entity": "周杰伦", "text": "华语流行歌手，发行多张专辑。", "tags": ["歌手"],
         "infobox": {"代表作品": "《七里香》", "经纪公司": "杰威尔"}, "domain": "人文与社会"},
        {"entity": "阿里巴巴集团", "text": "", "tags": ["企业"],
         "triples": [{"relation": "总部地点", "tail": "杭州"}, {"relation": "创始人", "tail": "马云"}], "domain": "TE"},
        {"entity": "珠穆朗玛峰", "text": "世界最高峰。", "tags": ["山峰"],
         "triples": [["珠穆朗玛峰", "海拔", "8848.86米"]], "domain": "NE"},
    ]
    f = tmp_path / "labels.jsonl"
    f.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    assert main(["domain", "eval", "--labels", str(f), "--embedder", "none"]) == 0
    out = capsys.readouterr().out
    assert "accuracy: 1.000" in out and "confusion" in out

    assert main(["domain", "classify", "--input", str(f), "--embedder", "none"]) == 0
    preds = [json.loads(l) for l in capsys.readouterr().out.splitlines()]
    assert [p["domain"] for p in preds] == ["HP", "HS", "TE", "NE"]


def test_cli_errors_are_clear(tmp_path, capsys):
    from pipeline.cli import main

    assert main(["domain", "eval", "--labels", str(tmp_path / "none.jsonl")]) == 2
    assert "does not exist" in capsys.readouterr().err
    f = tmp_path / "bad.jsonl"
    f.write_text("{not json\n", encoding="utf-8")
    assert main(["domain", "eval", "--labels", str(f), "--embedder", "none"]) == 2
    assert "not JSON" in capsys.readouterr().err
    f.write_text(json.dumps({"entity": "x", "domain": "HP"}) + "\n", encoding="utf-8")
    assert main(["domain", "eval", "--labels", str(f), "--embedder", "nope"]) == 2
    assert "unknown embedder spec" in capsys.readouterr().err


def test_build_writes_domain_and_types_and_accounts_for_everything(tmp_path):
    """`cdtp build` with the issue-4 stages: domain partitions, typed triples, audit complete."""
    import pyarrow.parquet as pq

    from pipeline.cli import main

    raw = [
        {"url": "http://baike.test/item/银杏/1", "source": "baidu", "lemma_id": "1", "title": "银杏",
         "summary": "银杏是银杏科银杏属的落叶乔木，树高可达40米。",
         "infobox": [{"name": "科", "value": "银杏科", "value_links": []},
                     {"name": "属", "value": "银杏属", "value_links": []},
                     {"name": "高度", "value": "40米", "value_links": []}],
         "links": [], "tags": ["植物"], "depth": 0},
        {"url": "http://baike.test/item/霸王别姬/2", "source": "baidu", "lemma_id": "2", "title": "霸王别姬",
         "summary": "《霸王别姬》是陈凯歌执导的电影，张国荣主演，1993年上映。",
         "infobox": [{"name": "导演", "value": "陈凯歌", "value_links": []},
                     {"name": "主演", "value": "张国荣", "value_links": []},
                     {"name": "上映时间", "value": "1993年", "value_links": []}],
         "links": [], "tags": ["电影"], "depth": 0},
    ]
    src = tmp_path / "raw-0.jsonl"
    src.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in raw) + "\n", encoding="utf-8")
    out = tmp_path / "out"
    assert main(["build", "--input", str(src), "--out", str(out), "--set", "relation_frequency.min_count=1"]) == 0
    rows = {}
    for f in sorted((out / "pairs").rglob("*.parquet")):
        for r in pq.read_table(f).to_pylist():
            rows[r["entity"]] = (f.relative_to(out / "pairs").parts[0], r)
    part, ginkgo = rows["银杏"]
    assert part == "domain=NE" and ginkgo["entity_type"] == "species"
    assert {t["relation"]: t["tail_type"] for t in ginkgo["triples"]} == {"科": "species", "属": "species", "高度": "quantity"}
    assert "relations" in json.loads(ginkgo["domain_evidence"])
    part, film = rows["霸王别姬"]
    assert part == "domain=HS" and film["entity_type"] == "work"
    assert {t["relation"]: t["tail_type"] for t in film["triples"]} == {"导演": "person", "主演": "person", "上映时间": "date"}
    audit = pq.read_table(out / "audit").to_pylist()
    assert not [a for a in audit if a["stage"] in ("entity_typing", "domain_classification")]  # these stages drop nothing
    assert sum(1 for a in audit if a["kind"] == "triple") == 6


@pytest.mark.parametrize("content, reason", [
    (b'{"entity": "\xe6\x9d\x8e\xe7\x99\xbd", "domain": "HS"}\n\xff\n', "not UTF-8 text"),
    (b"null\n", ":1: expected a JSON object, got NoneType"),
    (b'{"title": 5, "domain": "HP"}\n', ":1: 'entity' must be a string, not int"),
    (b'{"entity": "x", "summary": 5, "domain": "HP"}\n', ":1: 'text' must be a string, not int"),
    (b'{"entity": "x", "tags": 5, "domain": "HP"}\n', ":1: 'tags' must be a list of strings"),
    (b'{"entity": "x", "infobox": [{"name": 1}], "domain": "HP"}\n', ":1: a triple or infobox row must give"),
])
def test_a_malformed_labelled_row_is_a_clear_error_naming_its_line(tmp_path, capsys, content, reason):
    # each was a traceback (UnicodeDecodeError, AttributeError, TypeError) in all three commands
    from pipeline.cli import main

    f = tmp_path / "labels.jsonl"
    f.write_bytes(content)
    for argv in (["domain", "eval", "--labels", str(f), "--embedder", "none"],
                 ["domain", "classify", "--input", str(f), "--embedder", "none"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert f"cdtp: error: {f}" in err and reason in err and "Traceback" not in err
