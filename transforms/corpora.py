"""Raw entries from public corpora, to measure the cleaning logic on real text.

Neither corpus is a Baike crawl, but both give (entity, text, triples) in the
RawEntry shape, and both are read at run time from ../shared/data (never
copied into the project):

* DuIE (`duie_to_raw_entries`): every spo of a sentence is annotated as
  expressed in that sentence, so it is ground truth for the redundant-triple
  filter. One raw entry per (sentence, subject); its infobox holds the true
  triples plus *negative* triples of the same relations taken from other
  sentences, which the filter must remove.
* KDConv (`kdconv_to_raw_entries`): Baike-like entity summaries with
  infobox-style triples of film and music entities; no ground truth, but a
  realistic mix where most triples are not in the summary.
  `kdconv_travel_to_raw_entries` reads its travel knowledge base the same
  way: a sight's `Information` is its summary, the other rows its infobox.
* LandscapeKnowledge (`landscape_to_raw_entries`): plant sentences with
  their spo, regrouped per plant so that, as on a Baike page, the text states
  some of the cells and not others; `duie_pages_to_raw_entries` regroups
  DuIE's sentences per subject the same way (a labelled set's pages, where
  `duie_to_raw_entries` is one entry per sentence with its gold triples).
"""
from __future__ import annotations

import json
import random
import re
from collections import Counter, defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from transforms.text import SENTENCE_END

# Where the shared corpora are beside a checkout (../shared/data): the default
# `--data` of the commands that score a labelled set against them.
DEFAULT_DATA_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "data"

_TITLE_NOTE = re.compile(r"^(.*?)[（(]([^（）()]*)[)）]$")


@dataclass
class LabelledEntries:
    """DuIE-derived raw entries and their gold labels.

    `positives[i]` / `negatives[i]` are the (relation, value) pairs of entry i
    that the text does / does not express.
    """

    entries: list[dict]
    positives: list[set[tuple[str, str]]]
    negatives: list[set[tuple[str, str]]]


def _duie_entry(i: int, subject: str, text: str, facts: set[tuple[str, str]]) -> dict:
    """One DuIE subject as a raw entry: its sentence as the summary, the facts as its infobox."""
    return {
        "url": f"duie://train/{i}#{subject}", "source": "duie", "lemma_id": f"{i}:{subject}",
        "title": subject, "subtitle": None, "summary": text,
        "infobox": [{"name": p, "value": o, "value_links": []} for p, o in sorted(facts)],
        "links": [], "tags": [], "depth": 0, "seed": None, "fetched_at": None,
    }


def _read_jsonl(path: Path) -> Iterator[dict]:
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.strip()
            if line:
                yield json.loads(line)


def reword_value(value: str) -> str:
    """Another surface form of a value, as an infobox might write it: a full
    date as ISO `YYYY-MM-DD`, Latin letters and digits in full width. Used to
    check that alignment does not depend on the text and the infobox sharing
    one spelling."""
    from transforms.align import parse_date

    d = parse_date(value)
    if d is not None and d[1] is not None and d[2] is not None:
        return f"{d[0]:04d}-{d[1]:02d}-{d[2]:02d}"
    if any(c.isascii() and c.isalnum() for c in value):
        return "".join(chr(ord(c) + 0xFEE0) if c.isascii() and c.isalnum() else c for c in value)
    return value


def _duie_rows(path: str | Path, limit: int | None) -> list[dict]:
    """The first `limit` (or all) records of a DuIE JSON Lines file."""
    rows = list(_read_jsonl(Path(path)))
    return rows if limit is None else rows[:limit]


def _spo_by_subject(row: dict) -> dict[str, list[tuple[str, str]]]:
    """{subject: [(predicate, object), ...]} of one DuIE record, in its order."""
    groups: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for spo in row.get("spo_list") or []:
        groups[spo["subject"]].append((spo["predicate"], spo["object"]["@value"]))
    return groups


def duie_to_raw_entries(path: str | Path, negatives_per_triple: int = 1, seed: int = 0,
                        limit: int | None = None, reword: bool = False) -> LabelledEntries:
    """Raw entries built from DuIE sentences, with gold labels.

    For each (sentence, subject): title = subject, summary = sentence,
    infobox = its annotated (predicate, object) rows plus, per true triple,
    `negatives_per_triple` objects of the same predicate drawn (seeded) from
    OTHER sentences and not among this entry's annotated objects of that
    predicate. Negatives are drawn blind: if a drawn object happens to occur
    in the sentence unannotated, it still counts as a negative, so precision
    is measured against the annotation, not against string presence.
    With `reword`, the true values are written in another surface form
    (`reword_value`) so the date and width levels are exercised.
    """
    rows = _duie_rows(path, limit)
    by_rel: dict[str, list[tuple[str, int]]] = defaultdict(list)
    for i, r in enumerate(rows):
        for spo in r.get("spo_list") or []:
            by_rel[spo["predicate"]].append((spo["object"]["@value"], i))
    for rel in by_rel:
        by_rel[rel].sort()
    rng = random.Random(seed)
    entries: list[dict] = []
    pos_out: list[set] = []
    neg_out: list[set] = []
    for i, r in enumerate(rows):
        groups = _spo_by_subject(r)
        # Annotated facts of this sentence, whatever the subject: a negative
        # never repeats one of them.
        own = {(p, o) for ss in groups.values() for p, o in ss}
        for subject, spos in sorted(groups.items()):
            positives = {(p, reword_value(o)) for p, o in spos} if reword else set(spos)
            negatives: set[tuple[str, str]] = set()
            for p, _ in spos:
                cands = [o for o, j in by_rel[p] if j != i and (p, o) not in own]
                for _ in range(negatives_per_triple):
                    if cands:
                        negatives.add((p, rng.choice(cands)))
            entries.append(_duie_entry(i, subject, r["text"], positives | negatives))
            pos_out.append(positives)
            neg_out.append(negatives)
    return LabelledEntries(entries, pos_out, neg_out)


def _corpus_entry(url: str, entity: str, summary: str, cells, domain: str | None, source: str = "kdconv") -> dict:
    """One corpus entity (KdConv's, a plant) as a raw entry: the bracketed
    note of its name becomes the subtitle, each (relation, tail) cell an
    infobox row."""
    m = _TITLE_NOTE.match(entity)
    title, subtitle = (m.group(1), m.group(2)) if m and m.group(1) else (entity, None)
    return {
        "url": url, "source": source, "lemma_id": None,
        "title": title, "subtitle": subtitle, "summary": summary or "",
        "infobox": [{"name": rel, "value": tail, "value_links": []} for rel, tail in cells],
        "links": [], "tags": [domain] if domain else [], "depth": 0, "seed": None, "fetched_at": None,
    }


def kdconv_to_raw_entries(path: str | Path) -> list[dict]:
    """Raw entries from KDConv's entity file: title (without the bracketed
    disambiguation, which becomes the subtitle), summary, and one infobox row
    per triple. Entities without summary or triples are kept: the cleaning
    stage must account for them (empty_text / no_triples)."""
    return [_corpus_entry(f"kdconv://{r.get('domain', '')}/{i}", r.get("entity") or "", r.get("summary"),
                          [(rel, tail) for _h, rel, tail in r.get("triples") or []], r.get("domain"))
            for i, r in enumerate(_read_jsonl(Path(path)))]


def kdconv_travel_to_raw_entries(path: str | Path) -> list[dict]:
    """Raw entries from KDConv's travel knowledge base (`kb_travel.json`, a
    sight -> [[head, relation, tail], ...] map), titled as the film and music
    entities are (a bracketed other name, `鸟巢（国家体育场）`, becomes the
    subtitle). The `Information` row is the sight's description, so it
    becomes the summary rather than a triple; the base repeats rows (one per dialogue that used them), and a reader sees
    each cell once, so repeats are dropped in their first order."""
    with open(path, encoding="utf-8") as fh:
        base = json.load(fh)
    return [_corpus_entry(f"kdconv://travel/{i}", sight, next((t for _h, r, t in rows if r == "Information"), ""),
                          list(dict.fromkeys((r, t) for _h, r, t in rows if r != "Information")), "travel")
            for i, (sight, rows) in enumerate(base.items())]


def _subject_pages(rows, source: str, domain: str | None, object_value,
                   lines_wanted=lambda n: n >= 2) -> list[dict]:
    """One raw entry per subject named on as many lines as `lines_wanted`
    accepts (two or more unless told) of a corpus of
    sentences with their spo_list (SKE/LIC2019 format). The summary is the
    first half of those sentences (in file order, a full stop added where one
    is missing, so that two sentences never run into one); the infobox is
    every (predicate, object) of the subject on all of them, once each, in
    first order. So the text states the cells of its own sentences and, as a
    Baike summary does its infobox, leaves those of the other half unstated
    unless it happens to say them too. The corpus' spo are no labels: a
    labeller reads the text. `object_value` reads an spo's object."""
    sentences: dict[str, list[str]] = defaultdict(list)
    cells: dict[str, list[tuple[str, str]]] = defaultdict(list)
    for obj in rows:
        text = (obj.get("text") or "").strip()
        spo_list = obj.get("spo_list") or []
        for subject in dict.fromkeys(spo.get("subject") for spo in spo_list):
            if subject and text:
                sentences[subject].append(text if text[-1] in SENTENCE_END else text + "。")
        for spo in spo_list:
            value = object_value(spo.get("object"))
            if spo.get("subject") and spo.get("predicate") and value:
                cells[spo["subject"]].append((spo["predicate"], value))
    return [_corpus_entry(f"{source}://{subject}", subject, "".join(lines[:(len(lines) + 1) // 2]),
                          list(dict.fromkeys(cells[subject])), domain, source=source)
            for subject, lines in sentences.items() if lines_wanted(len(lines))]


def landscape_to_raw_entries(path: str | Path) -> list[dict]:
    """Raw entries from LandscapeKnowledge's plant texts (`dev.jsonl`: one
    sentence and its spo_list per line), one per plant named as a subject on
    two lines or more (_subject_pages)."""
    return _subject_pages(_read_jsonl(Path(path)), "plant", "植物", lambda o: o if isinstance(o, str) else None)


def duie_pages_to_raw_entries(path: str | Path) -> list[dict]:
    """Raw entries from DuIE's sentences, one per subject named on two lines
    or more (_subject_pages), at `duie://<subject>`: people, works and
    organisations with Baike's own relations (导演, 父亲, 毕业院校), whose
    unstated cells are true facts of the same subject, often of a person the
    text names in another role. An object is its `@value`; the qualifiers
    of DuIE's complex objects (`inWork`, `onDate`) are not cells."""
    return _subject_pages(_read_jsonl(Path(path)), "duie", None, _duie_object)


def duie_line_pages_to_raw_entries(path: str | Path) -> list[dict]:
    """Raw entries from DuIE's sentences, one per subject named on exactly
    one line, at `duie-line://<subject>`: the text is that line and the cells
    are the subject's spo on it. DuIE's annotators said each is expressed
    there, yet a cell may still be unstated by the rules of docs/alignment.md
    (an inferred relation, a value named in another role): a labelled set's
    pages that share no line with duie_pages_to_raw_entries' texts when
    drawn so."""
    return _subject_pages(_read_jsonl(Path(path)), "duie-line", None, _duie_object,
                          lines_wanted=lambda n: n == 1)


def _duie_object(obj) -> str | None:
    return obj.get("@value") if isinstance(obj, dict) else None


# Infobox rows of the Song poets of the labelled set: our own facts, written
# from the poets' names alone before their biographies were read (the
# biographies carry no triples of their own).
POET_INFOBOXES = Path(__file__).resolve().parents[1] / "tests" / "data" / "song_poet_infoboxes.jsonl"


def song_poet_to_raw_entries(path: str | Path, infoboxes: str | Path = POET_INFOBOXES) -> list[dict]:
    """Raw entries of Song-dynasty poets at `poet://song/<name>`: the text is
    the poet's biography in chinese-poetry's `author.song.json` (its leading
    `--` dropped), the cells the poet's rows in `infoboxes`. So, as on a Baike
    page, a cell is stated by the text or not, and a person's facts meet a
    classical biography's style (`字子瞻`, `眉州眉山人`, `苏洵子`), which no
    other labelled page has. A poet without a biography or a row is left out."""
    rows = {r["name"]: r["cells"] for r in _read_jsonl(Path(infoboxes))} if Path(infoboxes).exists() else {}
    with open(path, encoding="utf-8") as fh:
        authors = json.load(fh)
    once = {n for n, k in Counter(a.get("name") for a in authors).items() if k == 1}  # a shared name is two poets
    out = []
    for a in authors:
        name, text = a.get("name"), (a.get("description") or "").strip()
        if text and name in once and rows.get(name):
            out.append(_corpus_entry(f"poet://song/{name}", name, text.lstrip("-"), [tuple(c) for c in rows[name]],
                                     "人物", source="poet"))
    return out


# The corpora of the data folder as pages (raw entries): name -> (reader, its file under the folder).
# The labelled sets name their pages by these (transforms/align_labels.py, `cdtp items distractors`).
DATA_FOLDER_CORPORA = {
    "kdconv": (kdconv_to_raw_entries, "kdconv/entities_film_music_from_dev_test.jsonl"),
    "kdconv-travel": (kdconv_travel_to_raw_entries, "kdconv/travel/kb_travel.json"),
    "plant": (landscape_to_raw_entries, "landscape-plant/dev.jsonl"),
    "duie": (duie_pages_to_raw_entries, "duie/train.jsonl"),
    "duie-line": (duie_line_pages_to_raw_entries, "duie/train.jsonl"),
    "poet": (song_poet_to_raw_entries, "npm/chinese-poetry/dist/songci/author.song.json"),
}


def data_folder_entries(data: Path, *names: str) -> list[dict]:
    """The pages of the named corpora of the data folder, corpus after corpus, each in its file's order."""
    out: list[dict] = []
    for name in names:
        reader, file = DATA_FOLDER_CORPORA[name]
        out += reader(Path(data) / file)
    return out


def evaluate_redundant_triple(data: LabelledEntries, cfg=None) -> dict:
    """Run clean_entry over labelled entries; precision of the kept triples
    and recall of the true triples, with per-level counts.

    A triple produced by splitting a cell inherits the cell's label.
    """
    from transforms.cells import split_values
    from transforms.redundancy import CleaningConfig, clean_entry

    cfg = cfg or CleaningConfig()
    tp = fp = fn = tn = 0
    by_level: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # level -> [tp, fp]
    false_pos: list[tuple[str, str, str, str]] = []
    false_neg: list[tuple[str, str, str]] = []
    for entry, pos, neg in zip(data.entries, data.positives, data.negatives):
        label: dict[tuple[str, str], bool] = {}
        for (p, o), is_pos in [*((x, False) for x in neg), *((x, True) for x in pos)]:
            for piece in split_values(o, p, cfg.pair, entry["summary"]):
                label[(p, piece)] = is_pos or label.get((p, piece), False)
        res = clean_entry(entry, cfg)
        for t in (res.pair or {}).get("triples", []):
            if label[(t["relation"], t["tail"])]:
                tp += 1
                by_level[t["match"]][0] += 1
            else:
                fp += 1
                by_level[t["match"]][1] += 1
                false_pos.append((t["relation"], t["tail"], t["match"], entry["summary"]))
        for t, _reason, _detail in res.dropped_triples:
            if label[(t["relation"], t["tail"])]:
                fn += 1
                false_neg.append((t["relation"], t["tail"], entry["summary"]))
            else:
                tn += 1
    return {
        "entries": len(data.entries), "tp": tp, "fp": fp, "fn": fn, "tn": tn,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "by_level": {k: {"true": v[0], "false": v[1]} for k, v in sorted(by_level.items())},
        "false_positives": false_pos, "false_negatives": false_neg,
    }


def duie_swapped_entries(path: str | Path, limit: int | None = None) -> LabelledEntries:
    """DuIE sentences with several triples of one subject, their tails swapped
    between relations (issue 10 §DuIE): `导演 A`, `主演 B` give the negatives
    `导演 B` and `主演 A`. A swapped triple that DuIE labels for the sentence
    (any subject) is left out, so every negative is false by the annotation;
    the text names every negative's tail, so string matching alone keeps all
    of them. The entry's infobox holds the true triples and the swapped ones.
    """
    entries: list[dict] = []
    pos_out: list[set] = []
    neg_out: list[set] = []
    for i, r in enumerate(_duie_rows(path, limit)):
        groups = _spo_by_subject(r)
        own = {(p, o) for ss in groups.values() for p, o in ss}
        for subject, spos in sorted(groups.items()):
            positives = set(spos)
            negatives = {(p1, o2) for p1, o1 in positives for p2, o2 in positives
                         if p1 != p2 and o1 != o2 and (p1, o2) not in own}
            if not negatives:
                continue
            entries.append(_duie_entry(i, subject, r["text"], positives | negatives))
            pos_out.append(positives)
            neg_out.append(negatives)
    return LabelledEntries(entries, pos_out, neg_out)
