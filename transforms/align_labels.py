"""The labelled alignment set: load it, rebuild its entries, score an aligner.

The set (`tests/data/alignment_labels.jsonl`, rules in docs/alignment.md)
stores locators and labels only. The entries are rebuilt at run time (rows
of source `raw` from RawEntry JSON Lines given with them, e.g. a crawl's
output) or from ../shared/data: Baike pages (named by their bare title, without the page's
disambiguation) parsed by the crawler's own parser, KdConv entities by
`transforms.corpora.kdconv_to_raw_entries` (film and music) and
`kdconv_travel_to_raw_entries` (sights), plants by
`landscape_to_raw_entries`, DuIE subjects by `duie_pages_to_raw_entries`
(and those of one line, source `duie-line`, by `duie_line_pages_to_raw_entries`);
a corpus page is named by its url, or by its title when no other page of
its source has it.
A short value is stored as `tail`; a longer one (a cell of the page, not a name) only as `tail_key`, a
hash of its normalised form, so no page text is copied into the project. The
scorer runs the redundant-triple stage (`clean_entry`) on each entry and
compares what it keeps with the labels, joined on (relation, value key):

- span precision: kept triples whose span overlaps a labelled span / kept;
- recall: stated triples kept / stated triples;
- false keeps: kept triples labelled not stated, or not labelled at all
  (a stray `个` split off a cell) / kept;
- beside them, the T2KG cases the kept spans make of these pages, and how
  faithful their gold is by the labels (_t2kg_gold).
"""
from __future__ import annotations

import hashlib
import re
from collections import defaultdict
from pathlib import Path

from transforms.text import normalise

# Values longer than this (normalised) are labelled by hash only: they are page text, not names.
MAX_STORED_TAIL = 12
# The corpus sources of ../shared/data: source -> the corpora its pages come from
# (transforms.corpora.DATA_FOLDER_CORPORA, read only when a label names the source).
_CORPUS_PAGES = {"kdconv": ("kdconv", "kdconv-travel"), "plant": ("plant",), "duie": ("duie",),
                 "duie-line": ("duie-line",), "poet": ("poet",)}
# The sources a row may name (docs/alignment.md): Baike pages are parsed from
# their HTML, the corpora rebuilt as above, `raw` pages come with the labels
# (`--entries`).
LABEL_SOURCES = ("baike2019", *_CORPUS_PAGES, "raw")


def value_key(value: str) -> str:
    """The join key of a value: its normalised form, or a hash of it when it is long."""
    n = normalise(value)
    return n if len(n) <= MAX_STORED_TAIL else "sha1:" + hashlib.sha1(n.encode("utf-8")).hexdigest()[:16]


def label_key(row: dict) -> str:
    return row["tail_key"] if "tail_key" in row else value_key(row["tail"])


def page_title(file_name: str) -> str:
    """`李三立_百度百科.html` -> `李三立`; a disambiguation in brackets is dropped."""
    stem = file_name.split("_百度百科")[0]
    return re.sub(r"（[^（）]*）$", "", stem)


def load_labels(path: str | Path) -> list[dict]:
    """Every row of a labels file (blank lines skipped; bad JSON is a ValueError naming the line)."""
    from transforms.safejson import iter_jsonl

    return [row for _, row in iter_jsonl(str(path))]


_BAIKE_ITEM_URL = re.compile(r"^https?://baike\.baidu\.com/item/")


def _baike_page_name(page: str) -> str:
    """A Baike page named by its URL (`https://baike.baidu.com/item/%E5%BE%90%E5%BD%AC/123`)
    is named by its title, read as a seed URL is (UTF-8 or GB18030 escapes);
    any other name is kept as it is."""
    from crawlers.seed_lines import Seed, seed_from_url

    seed = seed_from_url(page) if _BAIKE_ITEM_URL.match(page.strip()) else None
    return seed.title if isinstance(seed, Seed) else page


def labelled_entries(shared_data: Path, labels: list[dict],
                     raw_entries: list[dict] | tuple = ()) -> dict[tuple[str, str], dict]:
    """(source, page) -> validated raw entry, for every page the labels name.
    Rows of source `raw` name a page of `raw_entries` (RawEntry dicts, as a
    crawl writes them), as a corpus page is named: by its url or its
    unshared title (a set labelled on pages of one's own crawl)."""
    from transforms.pairs import validate_raw_entry

    wanted = {(r["source"], r["page"]) for r in labels}
    out: dict[tuple[str, str], dict] = {}
    if any(s == "raw" for s, _ in wanted):
        _name_pages("raw", raw_entries, wanted, out)
    if any(s == "baike2019" for s, _ in wanted):
        from crawlers.parsers import parse_entry

        # a page is named by its bare title (`徐彬`), its file's title with
        # the disambiguation (`徐彬（云南省政协副主席、民盟省委主委）`) or its
        # file name: a set labelled by someone else may use any of them
        files: dict[str, list[Path]] = defaultdict(list)
        for f in sorted((shared_data / "baike-baidu-2019" / "pages").glob("*.html")):
            for name in dict.fromkeys((page_title(f.name), f.name.split("_百度百科")[0], f.name)):
                files[name].append(f)
        for source, page in sorted(wanted):
            name = _baike_page_name(page)
            if source != "baike2019" or name not in files:
                continue
            if len(files[name]) > 1:
                raise ValueError(f"labelled page {page!r} names {len(files[name])} files: {files[name]}")
            entry = parse_entry(files[name][0].read_bytes(),
                                f"http://baike.baidu.com/item/{page_title(files[name][0].name)}")
            out[(source, page)] = entry
    from transforms import corpora

    for source, names in _CORPUS_PAGES.items():
        if any(s == source for s, _ in wanted):
            _name_pages(source, corpora.data_folder_entries(shared_data, *names), wanted, out)
    missing = wanted - set(out)
    if missing:
        raise ValueError(f"labelled pages not found in the shared data (source `raw`: in the given entries): "
                         f"{sorted(missing)[:5]}")
    validated = {}
    for key, entry in out.items():
        raw, err = validate_raw_entry(entry)
        if raw is None:
            raise ValueError(f"{key}: {err}")
        validated[key] = raw
    return validated


def _name_pages(source: str, entries, wanted: set, out: dict) -> None:
    """Finds each wanted page of `source` among `entries` by its url
    (`kdconv://film/12`) or, when no other page has it, by its title
    (`阿甘正传`): a title of two pages is refused, with their urls."""
    by_title: dict[str, dict[str, dict]] = defaultdict(dict)  # title -> url -> entry
    for e in entries:
        url = e.get("url")
        if (source, url) in wanted:
            out[(source, url)] = e
        by_title[e.get("title") or ""][url] = e
    for s, page in sorted(wanted):
        if s == source and (s, page) not in out and page in by_title:
            pages = by_title[page]
            if len(pages) > 1:
                raise ValueError(f"labelled page {page!r} ({source}) is the title of {len(pages)} pages: "
                                 f"name one by its url ({', '.join(map(str, list(pages)[:5]))})")
            out[(s, page)] = next(iter(pages.values()))


# A page is read as labelled on another text when this many of its stated
# values or more are labelled, and none of their spans shares a character
# with its value (on our set no page has even three such rows with none).
SHIFTED_PAGE_MIN_ROWS = 3


def span_problems(labels: list[dict], entries: dict[tuple[str, str], dict]) -> list[tuple[int, str]]:
    """(row index, why) for each row whose spans cannot be offsets into its
    page's text as rebuilt here (`summary`): a span past the text's end, or
    a page whose stated values' spans name none of them (every span of
    SHIFTED_PAGE_MIN_ROWS stated rows or more shares no character with its
    value): offsets taken in another version of the text, or another parse.
    Scored anyway, such a set would count right keeps as false ones."""
    problems: list[tuple[int, str]] = []
    named: set[tuple[str, str]] = set()  # pages with a stated value its spans name
    unnamed: dict[tuple[str, str], list[int]] = defaultdict(list)
    for i, r in enumerate(labels):
        key = (r["source"], r["page"])
        text = entries[key].get("summary") or ""
        past = [sp for sp in r.get("spans") or () if sp[1] > len(text)]
        if past:
            problems.append((i, f"span {past[0]} runs past the end of the page's text ({len(text)} characters)"))
            continue
        if r["stated"] and "tail" in r:
            value = set(normalise(r["tail"]))
            shares = any(value & set(normalise(text[a:b])) for a, b in r["spans"])
            if shares:
                named.add(key)
            else:
                unnamed[key].append(i)
    for key, rows in unnamed.items():
        if len(rows) >= SHIFTED_PAGE_MIN_ROWS and key not in named:
            problems.append((rows[0], f"none of the {len(rows)} stated values of page {key[1]!r} shares a "
                                      "character with its spans: are they offsets into the text as parsed here?"))
    return problems


def _overlaps(s: int, e: int, spans) -> bool:
    return any(a < e and s < b for a, b in spans)


def _t2kg_gold(entity: str, text: str, kept: list[dict], rows: dict[tuple[str, str], dict], counts: dict) -> None:
    """What the T2KG items of this page would hold, against the labels: each
    sentence with a kept triple's support is a test case (items/t2kg.py, every
    relation as the ontology). A gold triple is right when the labels say
    the text states it in that sentence; a triple the labels find stated
    inside the sentence and the gold lacks would count against a model that
    extracts it (trivial triples are left out of both, as the items do)."""
    from transforms.items.t2kg import sentences, t2kg_cases
    from transforms.trivial import trivial_reason

    cases, _ = t2kg_cases({"entity": entity, "text": text, "triples": kept}, frozenset(t["relation"] for t in kept))
    spans = sentences(text)
    for case in cases:
        a, b = spans[case["sentence"]]
        gold = {(g["relation"], value_key(g["tail"])) for g in case["gold_triples"]}
        counts["sentences"] += 1
        counts["gold"] += len(gold)
        counts["gold_stated"] += sum(1 for k in gold if (row := rows.get(k)) and row["stated"]
                                     and _overlaps(a, b, row["spans"]))
        said = [k for k, row in rows.items() if row["stated"] and any(a <= s and e <= b for s, e in row["spans"])
                and not ("tail" in row and trivial_reason(entity, row["relation"], row["tail"]))]
        counts["said"] += len(said)
        counts["missing"] += sum(1 for k in said if k not in gold)


def _t2t_reference(entity: str, text: str, pair: dict, rows: dict, counts: dict) -> None:
    """What the page's T2T item would hold, against the labels (score_alignment's `t2t`)."""
    from transforms.items.t2kg import reference_spans, t2t_input
    from transforms.trivial import trivial_reason

    chosen, _ = t2t_input(pair)
    if not chosen:
        return
    keys = [(t["relation"], value_key(t["tail"])) for t in chosen]
    counts["input"] += len(keys)
    counts["stated"] += sum(1 for k in keys if (row := rows.get(k)) and row["stated"])
    spans = reference_spans(text, chosen)
    counts["reference_chars"] += sum(b - a for a, b in spans)
    counts["text_chars"] += len(text)
    said = [k for k, row in rows.items() if row["stated"]
            and any(a <= s and e <= b for s, e in row["spans"] for a, b in spans)
            and not ("tail" in row and trivial_reason(entity, row["relation"], row["tail"]))]
    counts["said"] += len(said)
    counts["missing"] += sum(1 for k in said if k not in set(keys))


def score_alignment(labels: list[dict], entries: dict[tuple[str, str], dict], cfg=None,
                    part: str | None = None, cleaned: dict | None = None) -> dict:
    """Span precision, recall and false keeps of `clean_entry` on the labels
    (of one `part`, or all), with the errors listed for reading. `cleaned`
    (page -> clean_entry result, filled here) lets several slices of one set
    clean each page once."""
    from transforms.cells import clean_relation_name
    from transforms.items.t2kg import uncued_person_role
    from transforms.trivial import trivial_reason
    from transforms.redundancy import CleaningConfig, clean_entry

    cfg = cfg or CleaningConfig()
    by_page: dict[tuple[str, str], dict[tuple[str, str], dict]] = defaultdict(dict)
    for r in labels:
        if part is None or r["part"] == part:
            # a relation as the page writes it (`中\xa0\xa0文\xa0\xa0名`) is the triple's
            by_page[(r["source"], r["page"])][(clean_relation_name(r["relation"]), label_key(r))] = r
    kept = right_span = false_keep = unlabelled = stated = stated_kept = 0
    errors: dict[str, list] = {"wrong_span": [], "false_keep": [], "missed": []}
    by_match: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    t2kg = {"sentences": 0, "gold": 0, "gold_stated": 0, "said": 0, "missing": 0}
    # the T2T items (items/t2kg.py): their input triples and how many the labels
    # call stated; the stated triples inside their reference, how many the input
    # lacks; the characters of the references and of their texts
    t2t = {"input": 0, "stated": 0, "said": 0, "missing": 0, "reference_chars": 0, "text_chars": 0}
    for key, rows in sorted(by_page.items()):
        raw = entries[key]
        res = cleaned.get(key) if cleaned is not None else None
        if res is None:
            res = clean_entry(raw, cfg)
            if cleaned is not None:
                cleaned[key] = res
        text = raw["summary"]
        if res.pair:
            _t2kg_gold(raw.get("title") or "", text, res.pair["triples"], rows, t2kg)
            _t2t_reference(raw.get("title") or "", text, res.pair, rows, t2t)
        seen = set()
        for t in (res.pair or {}).get("triples", []):
            k = (t["relation"], value_key(t["tail"]))
            row = rows.get(k)
            kept += 1
            by_match[t["match"]][0] += 1
            if row is None or not row["stated"]:
                false_keep += 1
                unlabelled += row is None
                errors["false_keep"].append((key[1], t["relation"], t["tail"], t["match"],
                                             text[t["start"]:t["end"]]))
                continue
            seen.add(k)
            if _overlaps(t["start"], t["end"], row["spans"]):
                right_span += 1
                by_match[t["match"]][1] += 1
            else:
                errors["wrong_span"].append((key[1], t["relation"], t["tail"], t["match"],
                                             text[max(0, t["start"] - 6):t["end"] + 6]))
        for k, row in rows.items():
            if row["stated"]:
                stated += 1
                if k in seen:
                    stated_kept += 1
                else:
                    errors["missed"].append((key[1], row["relation"], row.get("tail", row.get("tail_key")),
                                             [text[a:b] for a, b in row["spans"]]))
    return {
        "part": part or "all", "kept": kept, "stated": stated,
        "span_precision": right_span / kept if kept else 1.0,
        "recall": stated_kept / stated if stated else 1.0,
        "false_keeps": false_keep / kept if kept else 0.0,
        "unlabelled_kept": unlabelled,  # false keeps with no row at all: a page labelled in part?
        "by_match": {m: {"kept": v[0], "right_span": v[1]} for m, v in sorted(by_match.items())},
        # the T2KG test cases these pages give (_t2kg_gold): sentences, gold
        # triples, the share the labels find stated in their sentence, and the
        # share of the sentences' stated triples their gold lacks
        "t2kg": {"sentences": t2kg["sentences"], "gold_triples": t2kg["gold"],
                 "gold_stated": t2kg["gold_stated"] / t2kg["gold"] if t2kg["gold"] else 1.0,
                 "missing_from_gold": t2kg["missing"] / t2kg["said"] if t2kg["said"] else 0.0},
        # the T2T items' input triples and the share the labels call stated
        "t2t": {"input_triples": t2t["input"], "stated": t2t["stated"] / t2t["input"] if t2t["input"] else 1.0,
                "missing_from_input": t2t["missing"] / t2t["said"] if t2t["said"] else 0.0,
                "reference_share": t2t["reference_chars"] / t2t["text_chars"] if t2t["text_chars"] else 1.0},
        "errors": errors,
    }


def label_group(row: dict) -> str:
    """The group a row is reported in: its source, and for KdConv the domain of
    its url (`kdconv:travel`): the domains differ far more than the sources."""
    page = row.get("page") or ""
    if page.startswith("kdconv://"):
        return "kdconv:" + page[len("kdconv://"):].split("/")[0]
    return row["source"]


def score_report(labels: list[dict], entries: dict[tuple[str, str], dict], cfg=None,
                 by_group: bool = False) -> dict[str, dict]:
    """score_alignment for each part present (tune, heldout) and for all
    rows, and with `by_group` for each part's groups (label_group) too."""
    parts = sorted({r["part"] for r in labels})
    cleaned: dict = {}  # each page is cleaned once, whatever slices it is scored in
    report = {"all": score_alignment(labels, entries, cfg, cleaned=cleaned)}
    for p in parts:
        report[p] = score_alignment(labels, entries, cfg, part=p, cleaned=cleaned)
        if by_group:
            for g in sorted({label_group(r) for r in labels if r["part"] == p}):
                rows = [r for r in labels if r["part"] == p and label_group(r) == g]
                report[f"{p}/{g}"] = score_alignment(rows, entries, cfg, part=p, cleaned=cleaned)
    return report


def format_line(name: str, r: dict) -> str:
    extra = f"  ({r['unlabelled_kept']} of them unlabelled)" if r.get("unlabelled_kept") else ""
    line = (f"{name:24s} kept {r['kept']:6d}  stated {r['stated']:6d}  span precision {r['span_precision']:.3f}"
            f"  recall {r['recall']:.3f}  false keeps {100 * r['false_keeps']:.1f}%{extra}")
    t = r.get("t2kg")
    if t and t["sentences"]:
        line += (f"\n{'':24s} T2KG cases {t['sentences']:5d}  gold triples {t['gold_triples']:5d}"
                 f"  stated in their sentence {t['gold_stated']:.3f}"
                 f"  the sentence's stated triples missing from the gold {100 * t['missing_from_gold']:.1f}%")
    t = r.get("t2t")
    if t and t["input_triples"]:
        line += (f"\n{'':24s} T2T input triples {t['input_triples']:5d}  stated {t['stated']:.3f}  "
                 f"the reference's stated triples missing from the input {t['missing_from_input']:.1%}  "
                 f"reference {t['reference_share']:.0%} of the text")
    return line
