"""Security: nothing a user or a server supplies is ever unpickled, eval'd or
loaded as unsafe YAML (issue 11, defect 10 and "what to build" 4).

Spill files under OUT/_spill were pickled: in a shared bucket whoever could
write there could run code in every worker. They are JSON Lines now.
"""
from __future__ import annotations

import ast
import os
import pickle
from pathlib import Path

import pytest

from pipeline.errors import CdtpError
from pipeline.spill import read_run, write_run

ROOT = Path(__file__).resolve().parents[1]
CODE_DIRS = ("pipeline", "transforms", "crawlers", "evaluation", "schemas", "benchmarks")

# Calls that turn bytes into code or arbitrary objects.
FORBIDDEN_CALLS = {
    ("pickle", "loads"), ("pickle", "load"), ("pickle", "Unpickler"), ("cPickle", "loads"),
    ("marshal", "loads"), ("marshal", "load"), ("shelve", "open"), ("dill", "loads"), ("dill", "load"),
    ("cloudpickle", "loads"), ("joblib", "load"), ("yaml", "load"), ("yaml", "unsafe_load"),
    ("yaml", "full_load"), ("numpy", "load"), ("np", "load"), ("torch", "load"),
}
FORBIDDEN_NAMES = {"eval", "exec", "compile", "__import__"}


def _python_files():
    for d in CODE_DIRS:
        yield from sorted((ROOT / d).rglob("*.py"))


def _violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        f = node.func
        if isinstance(f, ast.Name) and f.id in FORBIDDEN_NAMES:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {f.id}()")
        elif isinstance(f, ast.Attribute) and isinstance(f.value, ast.Name):
            if (f.value.id, f.attr) in FORBIDDEN_CALLS:
                # numpy.load is safe only with allow_pickle=False spelled out.
                if f.attr == "load" and f.value.id in ("np", "numpy") and any(
                        k.arg == "allow_pickle" and isinstance(k.value, ast.Constant) and k.value.value is False
                        for k in node.keywords):
                    continue
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {f.value.id}.{f.attr}()")
    return found


def test_the_checker_sees_what_it_forbids(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import pickle, yaml\npickle.loads(b'')\nyaml.load(s)\neval('1')\nnp.load(f)\n"
                   "np.load(f, allow_pickle=False)\n", encoding="utf-8")
    bad_rel = bad.relative_to(tmp_path)
    global ROOT
    old, ROOT = ROOT, tmp_path
    try:
        assert [v.split(": ", 1)[1] for v in _violations(tmp_path / bad_rel)] == [
            "pickle.loads()", "yaml.load()", "eval()", "np.load()"]
    finally:
        ROOT = old


def test_no_pickle_eval_or_unsafe_yaml_in_the_code():
    found = [v for path in _python_files() for v in _violations(path)]
    assert not found, "unsafe deserialisation or eval:\n" + "\n".join(found)


def test_no_module_imports_pickle_for_data():
    importers = [str(p.relative_to(ROOT)) for p in _python_files()
                 if any(isinstance(n, (ast.Import, ast.ImportFrom)) and
                        any(a.name.split(".")[0] in ("pickle", "cPickle", "dill", "cloudpickle", "shelve", "marshal")
                            for a in n.names) or (isinstance(n, ast.ImportFrom) and n.module in ("pickle", "shelve"))
                        for n in ast.walk(ast.parse(p.read_text(encoding="utf-8"))))]
    assert not importers, importers


# ------------------------------------------------------------------ spill files

def test_spill_files_are_json_lines_and_round_trip(tmp_path):
    items = [[{"pair_id": "p1", "entity": "鲁迅", "triples": [{"head": "鲁迅", "start": 0, "end": 2}],
               "position_index": 0.8125, "in_subset": None, "_source": "raw.jsonl@0"}],
             {"pair_id": "p2", "text": "\x00 NUL and \u2028 separators", "tags": []}]
    path = write_run(str(tmp_path), "frequency", items)
    assert path.endswith(".jsonl")
    data = Path(path).read_bytes()
    assert not data.startswith(b"\x80")  # no pickle protocol header
    assert read_run(path) == items
    restored = read_run(path, lambda e: ("restored", e))
    assert restored == [("restored", e) for e in items]


def test_spill_files_round_trip_what_only_json_reads(tmp_path):
    """The fast decoder leaves to json what it would read otherwise: an
    integer beyond 64 bits, NaN, a lone surrogate come back as they went."""
    items = [{"big": 2**70, "neg": -(2**64) - 1, "nan": float("nan"), "inf": float("inf"),
              "lone": "\ud800 half a pair", "zero": -0.0}]
    back = read_run(write_run(str(tmp_path), "frequency", items))
    assert ascii(back) == ascii(items)
    assert type(back[0]["big"]) is int


def test_a_planted_pickle_in_the_spill_dir_is_never_executed(tmp_path):
    marker = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    planted = tmp_path / "frequency-evil.jsonl"
    planted.write_bytes(pickle.dumps([Payload()]))
    with pytest.raises(CdtpError, match="spill file .*frequency-evil.jsonl is damaged"):
        read_run(str(planted))
    assert not marker.exists()


def test_a_deeply_nested_spill_line_is_a_clear_error(tmp_path):
    planted = tmp_path / "split-deep.jsonl"
    planted.write_text("[" * 100_000 + "]" * 100_000 + "\n", encoding="utf-8")
    with pytest.raises(CdtpError, match="damaged"):
        read_run(str(planted))


# ------------------------------------------------ names derived from the data

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

HOSTILE_NAMES = st.one_of(
    st.text(min_size=1, max_size=60),
    st.sampled_from(["..", ".", "../../etc/passwd", "/etc/passwd", "a/../../b", "..\\..\\win", "C:\\x", "CON",
                     "\x00", "名/../字", "~root", "%2e%2e%2f", " ", "\u202e..", "a" * 400]),
)


def _inside(base: Path, relative: str) -> bool:
    target = (base / relative).resolve()
    return target.parent == base.resolve() or base.resolve() in target.parents


@settings(max_examples=300, deadline=None)
@given(st.lists(HOSTILE_NAMES, min_size=1, max_size=6))
def test_review_sheet_names_from_relations_stay_in_the_folder(tmp_path_factory, relations):
    from transforms.review_sheets import ReviewError, decode_relation_filename, relation_filename, sheet_filenames

    base = tmp_path_factory.getbasetemp() / "review"
    try:
        names = sheet_filenames(relations)
    except ReviewError:
        return  # an empty relation name is refused with a reason
    assert len(set(names.values())) == len(names)  # never two relations in one file
    for relation, name in names.items():
        assert "/" not in name and "\\" not in name and "\x00" not in name and name not in (".csv", "..csv")
        assert not name.startswith(".") and _inside(base, name)
        stem = relation_filename(relation)
        if "~" not in stem:
            assert decode_relation_filename(stem) == relation


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(st.sampled_from(["domain", "split"]), st.one_of(st.none(), HOSTILE_NAMES)))
def test_partition_directories_from_values_stay_under_the_output(row):
    from pipeline.write import partition_of, shard_path

    base = Path("/srv/out/pairs")
    path = shard_path(str(base), partition_of(row, ("domain", "split")), 0, 1)
    parts = Path(path).relative_to(base).parts
    assert len(parts) == 3 and parts[0].startswith("domain=") and parts[1].startswith("split=")
    assert all(p not in (".", "..") and "/" not in p and "\x00" not in p for p in parts)
