"""The sample site's page data (crawlers/sample_site/pages/*.json) and its generator.

The served site is the committed HTML; these tests keep it byte-identical to what
the page data renders to, and check that a hand edit gone wrong is a clear error
naming the file, not a traceback or a silently different page.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from crawlers.sample_site import build_pages
from crawlers.sample_site.page_data import PAGES_DIR, load_site
from pipeline.errors import CdtpError

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "crawlers" / "sample_site"


def test_regenerated_pages_are_byte_identical_to_the_committed_ones(tmp_path):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    run = subprocess.run(
        [sys.executable, "-m", "crawlers.sample_site.build_pages", str(tmp_path)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert "wrote 24 pages" in run.stdout
    built = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    committed = {p.name: p.read_bytes() for p in SAMPLE.glob("*.html")}
    assert sorted(built) == sorted(committed)  # no page without data, no data without a page
    assert [name for name in sorted(built) if built[name] != committed[name]] == []


def test_page_data_describes_the_site_the_tests_rely_on():
    site = load_site()
    assert Counter(p.domain for p in site.pages) == {"HP": 6, "HS": 6, "TE": 6, "NE": 6}
    assert Counter(p.markup for p in site.pages) == {"legacy": 12, "current": 12}
    assert [p.key for p in site.pages if p.encoding == "gbk"] == ["深圳证券交易所"]
    # the polysemous title: both senses subtitled, `/item/杜鹃` serves the smaller lemma id
    assert [(p.key, p.subtitle) for p in site.senses("杜鹃")] == [
        ("杜鹃（植物）", "杜鹃花科杜鹃花属植物"), ("杜鹃（鸟类）", "杜鹃科杜鹃属鸟类")]
    titles = {p.title for p in site.pages}
    seeds = (SAMPLE / "seeds.txt").read_text(encoding="utf-8").split()
    assert seeds and set(seeds) <= titles, "every seed names a page of the site"
    assert site.plain("建于{{2}}[[长城]]与[[杜鹃（鸟类）|子规]]") == "建于长城与子规"


@pytest.fixture()
def pages(tmp_path) -> Path:
    folder = tmp_path / "pages"
    shutil.copytree(PAGES_DIR, folder)
    return folder


def edit(folder: Path, key: str, change) -> None:
    path = folder / f"{key}.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")


@pytest.mark.parametrize(
    ("key", "change", "reason"),
    [
        ("长城", lambda d: d["summary"].append("见[[八达岭]]。"), r"长城\.json: link to unknown page '八达岭'"),
        ("长城", lambda d: d["summary"].append("见[[唐朝]。"), r"长城\.json: unbalanced \[\[link\]\]"),
        ("长城", lambda d: d.update(sumary=["typo"]), r"长城\.json: unknown field\(s\) sumary"),
        ("长城", lambda d: d.pop("tags"), r"长城\.json: missing field tags"),
        ("长城", lambda d: d.update(domain="XX"), r"长城\.json: domain 'XX' is not one of HP, HS, TE, NE"),
        ("长城", lambda d: d.update(lemma_id="6105741"), r"长城\.json: field lemma_id must be a non-empty int"),
        ("长城", lambda d: d["infobox"].append(["总长度"]), r"长城\.json: infobox must be .*\[name, value\] pairs"),
        ("长城", lambda d: d["sections"].append({"heading": "遗迹"}), r"长城\.json: section 3 must be"),
        ("长城", lambda d: d.update(lemma_id=6101237), r"lemma_id 6101237 is also used by"),
        ("杜鹃（鸟类）", lambda d: d.pop("subtitle"), r"title '杜鹃' has several senses, so it needs a subtitle"),
    ],
)
def test_bad_page_data_is_a_clear_error_naming_the_file(pages, key, change, reason):
    edit(pages, key, change)
    with pytest.raises(CdtpError, match=reason):
        load_site(pages)


def test_malformed_json_and_doubled_fields_are_caught(pages):
    path = pages / "长城.json"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace('"domain": "HP",', '"domain": "HP", "domain": "NE",'), encoding="utf-8")
    with pytest.raises(CdtpError, match=r"长城\.json: field\(s\) given twice: domain"):
        load_site(pages)
    path.write_text(text.rstrip().rstrip("}"), encoding="utf-8")
    with pytest.raises(CdtpError, match=r"长城\.json: bad JSON at line \d+"):
        load_site(pages)


def test_a_gbk_page_with_a_character_gbk_lacks_is_refused(pages):
    edit(pages, "深圳证券交易所", lambda d: d["summary"].append("上市代码以🐂开头。"))
    site = load_site(pages)
    with pytest.raises(CdtpError, match=r"深圳证券交易所\.json: '🐂' cannot be written as gbk"):
        build_pages.build(site)


def test_command_line_errors_exit_2_without_traceback(capsys, tmp_path):
    assert build_pages.main([str(tmp_path / "a"), str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("build_pages: error: usage:") and "Traceback" not in err
    assert not (tmp_path / "a").exists()
