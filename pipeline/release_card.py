"""The dataset card (README.md) of a release: Hugging Face YAML header + what a user must know.

Why a generated card: the numbers in it (funnel, sizes, parameters) must be
this build's, not numbers copied from an earlier run. Everything here is a
pure function of the release's facts (`ReleaseFacts`), so the card of a
rebuild changes exactly where the build changed.

The YAML header follows the Hugging Face datasets card format: one config per
task and domain (`pairs`, `pairs_HP`, ... and, once items exist, `qa`,
`qa_HP`, ...), each with its splits' data files and its features, plus
language, license, size category and provenance.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pyarrow as pa

from pipeline.errors import CdtpError
from pipeline.release_plots import DOMAIN_NAMES, PLOTS

PAIR_FIELDS = {
    "pair_id": "stable hash of the entry key (lemma id, else normalised title)",
    "entity": "the entry's title (the head of its triples)",
    "subtitle": "Baike's disambiguation subtitle, if any",
    "text": "the entry's summary paragraph",
    "triples": "kept triples, each aligned with its support: text[start:end], alignment level `match`",
    "source_url": "the page the pair was built from",
    "position_index": "end of the last matched triple / text length (kept when > threshold)",
    "coverage": "share of the text's clauses (between ，；。) that hold the support of a kept triple",
    "num_triples": "number of triples", "text_length": "characters of text", "tags": "Baike's open tags",
    "entity_type": "coarse type of the entity", "domain": "HP, HS, TE, NE or unknown",
    "domain_confidence": "confidence of the domain", "domain_evidence": "the signals that decided the domain",
    "split": "train or eval (80/20 per domain, seeded hash)", "in_subset": "in the stratified subset (§4.1)",
}
LIMITATIONS = (
    "Texts and infoboxes are those of the crawled encyclopedia pages; errors and omissions of the pages "
    "remain. A triple is kept when the text supports it, not when it is true.",
    "The redundant-description filter is a heuristic (position index and uncovered relation mentions, "
    "paper §3.2): some pairs keep text that no triple covers, some good pairs are dropped.",
    "Relation names are normalised with a fixed synonym map; rare relations (below the minimum count) are "
    "dropped, so a small build keeps few relations.",
    "Search co-occurrence validation depends on its corpus (the local index or a search service); with it "
    "off, triples are not checked against other sources.",
    "Domains come from tags, infobox signatures and text, with an embedding fallback; the classifier's "
    "accuracy on labelled sets is about 0.93, so some pairs sit in the wrong domain or in `unknown`.",
    "The eval split and the subset are drawn by seeded hashes: the same input and seed give the same "
    "split; a different crawl gives a different one.",
    "Alignment is measured on cdtp's hand-labelled set (`cdtp align eval`, docs/alignment.md): on its "
    "held-out part 0.90 of the kept triples point at the mention that states them and 9% are not stated "
    "by the text (0.4% on plant pages, 9% on travel sights, 13% on sentences about someone else, DuIE-style). "
    "QA and KGC items ask such facts all the same.",
    "T2T and T2KG items leave out a person's role kept with no cue word near its mention, and T2KG uses "
    "no sentence that states a triple a later stage dropped: on the same held-out part 0.95 of their "
    "gold triples are stated in their text.",
)


@dataclass
class ReleaseFacts:
    """Everything the card says, gathered from the build and the copied files."""

    name: str
    stats: dict[str, Any]
    # config name -> {"task", "domain", "data_dir", "schema", "splits": {split: [glob]}, "rows": {split: n}}
    configs: dict[str, dict[str, Any]]
    code_version: dict[str, Any]
    release_code_version: dict[str, Any]
    license: str = "other"
    license_name: str | None = None
    license_link: str | None = None
    extra_files: list[str] = field(default_factory=list)


# The license ids the Hugging Face Hub accepts in a card's `license:` field
# (huggingface.co/docs/hub/repositories-licenses). Any other id is shown as
# no license at all; a license of one's own is `other` with a name and a link.
HUB_LICENSES = frozenset("""
    apache-2.0 mit openrail bigscience-openrail-m creativeml-openrail-m bigscience-bloom-rail-1.0
    bigcode-openrail-m afl-3.0 artistic-2.0 bsl-1.0 bsd bsd-2-clause bsd-3-clause bsd-3-clause-clear
    c-uda cc cc0-1.0 cc-by-2.0 cc-by-2.5 cc-by-3.0 cc-by-4.0 cc-by-sa-3.0 cc-by-sa-4.0 cc-by-nc-2.0
    cc-by-nc-3.0 cc-by-nc-4.0 cc-by-nd-4.0 cc-by-nc-nd-3.0 cc-by-nc-nd-4.0 cc-by-nc-sa-2.0
    cc-by-nc-sa-3.0 cc-by-nc-sa-4.0 cdla-sharing-1.0 cdla-permissive-1.0 cdla-permissive-2.0 wtfpl
    ecl-2.0 epl-1.0 epl-2.0 etalab-2.0 eupl-1.1 eupl-1.2 agpl-3.0 gfdl gpl gpl-2.0 gpl-3.0 lgpl
    lgpl-2.1 lgpl-3.0 isc h-research intel-research lppl-1.3c ms-pl apple-ascl apple-amlr mpl-2.0
    odc-by odbl openrail++ osl-3.0 postgresql ofl-1.1 ncsa unlicense zlib pddl lgpl-lr
    deepfloyd-if-license llama2 llama3 llama3.1 llama3.2 llama3.3 llama4 gemma unknown other
""".split())
_LICENSE_NAME = re.compile(r"[a-z0-9]+(?:[-.][a-z0-9]+)*")


def check_license(license: str, name: str | None, link: str | None) -> tuple[str, str | None, str | None]:
    """(license, license_name, license_link) for the card, or a CdtpError.

    A name and a link belong to `other` only: on `cc-by-4.0` the Hub would show
    a second, contradicting license. The name is the Hub's lowercase slug.
    """
    license = (license or "").strip().lower()
    if license not in HUB_LICENSES:
        raise CdtpError(f"--license {license!r} is not a Hugging Face license id (e.g. cc-by-nc-sa-4.0, "
                        "odc-by, apache-2.0); a license of your own is --license other with "
                        "--license-name and --license-link")
    if license != "other":
        return license, None, (link or None)
    name = (name or "").strip()
    if not _LICENSE_NAME.fullmatch(name):
        raise CdtpError(f"--license-name {name!r} is no license id: lowercase letters, digits, - and . "
                        "(e.g. encyclopedia-terms)")
    return license, name, (link or "").strip() or None


def arrow_to_feature(t: pa.DataType) -> dict[str, Any]:
    """An Arrow type as a Hugging Face datasets YAML feature (without the name)."""
    if pa.types.is_list(t) or pa.types.is_large_list(t):
        inner = t.value_type
        if pa.types.is_struct(inner):
            return {"list": [{"name": f.name, **arrow_to_feature(f.type)} for f in inner]}
        return {"list": arrow_to_feature(inner).get("dtype", "string")}
    if pa.types.is_struct(t):
        return {"struct": [{"name": f.name, **arrow_to_feature(f.type)} for f in t]}
    names = {pa.string(): "string", pa.large_string(): "large_string", pa.int32(): "int32",
             pa.int64(): "int64", pa.float32(): "float32", pa.float64(): "float64", pa.bool_(): "bool"}
    if t in names:
        return {"dtype": names[t]}
    raise ValueError(f"no datasets feature for Arrow type {t}")


def features(schema: pa.Schema) -> list[dict[str, Any]]:
    return [{"name": f.name, **arrow_to_feature(f.type)} for f in schema]


def size_category(n: int) -> str:
    for limit, label in ((1_000, "n<1K"), (10_000, "1K<n<10K"), (100_000, "10K<n<100K"),
                         (1_000_000, "100K<n<1M"), (10_000_000, "1M<n<10M"), (100_000_000, "10M<n<100M")):
        if n < limit:
            return label
    return "100M<n<1B"


def card_header(f: ReleaseFacts) -> dict[str, Any]:
    total = sum(f.configs.get("pairs", {}).get("rows", {}).values())
    header: dict[str, Any] = {
        "pretty_name": f.name,
        "language": ["zh"],
        "license": f.license,
    }
    if f.license_name:
        header["license_name"] = f.license_name
    if f.license_link:
        header["license_link"] = f.license_link
    header.update({
        "task_categories": ["table-to-text", "text-generation", "question-answering"],
        "tags": ["data-to-text", "knowledge-graph", "cdtp", "baike"],
        "size_categories": [size_category(total)],
        "source_datasets": ["original"],
        "configs": [{"config_name": name, **({"default": True} if name == "pairs" else {}),
                     "data_files": [{"split": s, "path": globs} for s, globs in c["splits"].items()]}
                    for name, c in f.configs.items()],
        "dataset_info": [{"config_name": name, "features": features(c["schema"])}
                         for name, c in f.configs.items()],
        "cdtp_provenance": {
            "built_by": f.code_version,
            "released_by": f.release_code_version,
            "schema_version": f.stats.get("schema_version"),
            "inputs": f.stats.get("config", {}).get("input", {}).get("patterns", []),
        },
    })
    return header


def _md_escape(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _short(value: Any) -> str:
    if isinstance(value, dict):
        return f"{len(value)} entries" if len(value) > 4 else ", ".join(f"{k}: {_short(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return f"{len(value)} items" if len(value) > 6 else "[" + ", ".join(map(str, value)) + "]"
    return "null" if value is None else str(value)


def _flat(prefix: str, value: Any) -> list[tuple[str, str]]:
    """One row per leaf parameter; a long name -> name table (e.g. synonyms) stays one row."""
    is_table = isinstance(value, dict) and len(value) > 8 and all(isinstance(v, str) for v in value.values())
    if isinstance(value, dict) and value and not is_table:
        return [row for k, v in value.items() for row in _flat(f"{prefix}.{k}", v)]
    return [(prefix, _short(value))]


def funnel_table(stats: dict[str, Any]) -> list[str]:
    lines = ["| stage | entries in → out | triples in → out | dropped (reason: count) |", "|---|---|---|---|"]
    for s in stats.get("funnel", []):
        drops = [f"{r}: {n:,}" for kind in ("entry", "triple") for r, n in s["dropped"].get(kind, {}).items()]
        lines.append(f"| {s['stage']} | {s['in']['entries']:,} → {s['out']['entries']:,} | "
                     f"{s['in']['triples']:,} → {s['out']['triples']:,} | {_md_escape('; '.join(drops)) or '—'} |")
    return lines


def parameter_table(config: dict[str, Any]) -> list[str]:
    lines = ["| parameter | value |", "|---|---|"]
    skip = {"output.out_dir", "input.patterns", "search.cache_dir", "search.index_path"}
    for section, value in config.items():
        if value is None:
            lines.append(f"| {section} | off |")
            continue
        for key, text in _flat(section, value):
            if key not in skip:
                lines.append(f"| `{key}` | {_md_escape(text)} |")
    return lines


def render_card(f: ReleaseFacts) -> str:
    import yaml

    stats = f.stats
    pairs = f.configs.get("pairs", {"rows": {}})
    n_pairs = sum(pairs["rows"].values())
    t = stats.get("totals", {})
    n_entries = t.get("entry", {}).get("kept", 0) + t.get("entry", {}).get("dropped", 0)
    header = yaml.safe_dump(card_header(f), allow_unicode=True, sort_keys=False, width=1000)
    domain_rows = [(c["domain"], c["rows"]) for c in f.configs.values() if c["task"] == "pairs" and c["domain"]]
    L = ["---", header.rstrip(), "---", "", f"# {f.name}", "",
         f"Chinese data–text pairs in the style of CDTP, built by `cdtp build` from {n_entries:,} raw "
         f"encyclopedia entries: {n_pairs:,} pairs, each a Baike summary with the triples it states. "
         "Every number below is this build's.", "",
         "## Loading", "", "```python", "import datasets",
         "pairs = datasets.load_dataset(\"parquet\", data_dir=\"data/pairs\")      # splits: train, test (= eval)",
         "hp = datasets.load_dataset(\"path/to/this/release\", \"pairs_HP\")  # one config per task and domain",
         "```", "", "```sql",
         "-- DuckDB, from the release folder",
         "SELECT domain, split, count(*) FROM read_parquet('data/pairs/**/*.parquet', hive_partitioning = true) "
         "GROUP BY ALL ORDER BY ALL;", "```", "",
         "Files are Hive-partitioned (`domain=XX/split=train|eval`) and named `<split>-NNNNN-of-NNNNN.parquet`, "
         "so `datasets` infers the splits (it calls `eval` `test`). `manifest.json` lists every file with its "
         "sha256 and row count; `cdtp release verify .` checks them.", "",
         "## Configurations", "", "| config | task | domain | rows by split |", "|---|---|---|---|"]
    for name, c in f.configs.items():
        rows = ", ".join(f"{s}: {n:,}" for s, n in c["rows"].items())
        L.append(f"| `{name}` | {c['task']} | {c['domain'] or 'all'} | {rows} |")
    L += ["", "## Fields (`pairs`)", "", "| field | type | meaning |", "|---|---|---|"]
    schema = pairs.get("schema")
    for fld in (schema or []):
        L.append(f"| `{fld.name}` | {_md_escape(str(fld.type))} | {_md_escape(PAIR_FIELDS.get(fld.name, ''))} |")
    if domain_rows:
        L += ["", "Domains: " + "; ".join(f"{d} {DOMAIN_NAMES.get(d, d)} ({sum(r.values()):,})"
                                          for d, r in domain_rows) + "."]
    L += ["", "## Construction funnel", "",
          "What entered and left each stage of this build (counts from Beam metrics; the audit table of the "
          "build has one row per entry and triple with its reason):", ""]
    L += funnel_table(stats)
    hist = stats.get("triples_per_pair", {}).get("counts", {})
    if hist:
        L += ["", "Triples per pair: " + ", ".join(f"{b}: {n:,}" for b, n in hist.items()) + "."]
    L += ["", "## Figures", ""]
    titles = {"relations.png": "Top-20 relations (paper Figure 6)",
              "triples_per_pair.png": "Triples per pair (paper Figure 7)", "domains.png": "Pairs per domain",
              "text_lengths.png": "Text lengths", "funnel.png": "Construction funnel"}
    for name in PLOTS:
        L.append(f"![{titles[name]}](plots/{name})")
    L += ["", "## Stage parameters", "", "The full configuration is in `config.json`.", ""]
    L += parameter_table(stats.get("config", {}))
    L += ["", "## Provenance", "",
          f"- Built by {_version(f.code_version)}; released by {_version(f.release_code_version)}.",
          f"- Output schema version {stats.get('schema_version')}; the build's own `stats.json` is included.",
          "- Inputs: " + ", ".join(f"`{p}`" for p in stats.get("config", {}).get("input", {}).get("patterns", []))
          + ".",
          "- Method: the CDTP paper (§3.2 cleaning, §4.1 split and subset), as implemented in cdtp."]
    if "data/ontologies/" in f.extra_files:
        L.append("- T2KG ontologies: `data/ontologies/<id>.json` (Text2KGBench format, one per domain); a T2KG "
                 "item's `ontology` names its file, whose relations are the ones to extract.")
    others = [p for p in f.extra_files if p != "data/ontologies/"]
    if others:
        L.append("- Also included: " + ", ".join(f"`{p}`" for p in others) + ".")
    L += ["", "## License", "",
          f"License: `{f.license}`" + (f" ({f.license_name})" if f.license_name else "")
          + (f", see {f.license_link}" if f.license_link else "") + ". The texts and infoboxes come from "
          "encyclopedia pages whose own terms apply; check them before you redistribute.",
          "", "## Known limitations", ""]
    L += [f"- {item}" for item in LIMITATIONS]
    open_relations = (stats.get("items") or {}).get("open_relations") or {}
    if open_relations:
        L.append("- QA and KGC items do not ask the tail of an open relation, whose cells list some of an "
                 "entity's values and whose values other entities share, so a wrong option is often right too "
                 "(items not asked, both tasks): " + _md_escape(", ".join(f"{r} {n:,}" for r, n in open_relations.items()))
                 + ". Their triples are in the pairs, T2T and T2KG.")
    return "\n".join(L) + "\n"


def _version(cv: dict[str, Any] | None) -> str:
    if not cv:
        return "an unknown cdtp version"
    git = f", git {cv['git']}" if cv.get("git") else ""
    return f"cdtp {cv.get('package')}{git}, source sha256 {str(cv.get('source_sha256', ''))[:12]}"
