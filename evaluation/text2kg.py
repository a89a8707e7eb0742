"""Text2KGBench metrics (Mihindukulasooriya et al., ISWC 2023), exactly as its
evaluation script (`src/evaluation/run_eval.py`) computes them, plus a parser
for `rel(sub, obj)` LLM outputs.

Per sentence, given the gold triples, the system triples, the ontology and the
sentence:
  * P/R/F1 — system triples are first filtered to the relations of the
    sentence's gold triples (spaces in gold relations become `_`). Triples are
    compared as normalised strings: `_` and whitespace removed, lowercased,
    subject+relation+object concatenated. Nothing left after filtering → 0/0/0.
  * OC (ontology conformance) — share of *all* system triples whose relation
    is an ontology relation label (spaces → `_`); RH = 1 − OC. No system
    triples → OC 1, RH 0.
  * SH / OH — share of system triples whose subject / object, stemmed and
    normalised, is not a substring of the stemmed, normalised sentence
    concatenated (without a separator, as the script does) with the ontology's
    concept labels. No system triples → 0, 0.
Per ontology, each metric is summed over the sentences that have a system
output and divided by the number of gold sentences; the global score is the
mean over ontologies.

English uses nltk's Porter stemmer over nltk's word tokens (Punkt sentence
splitting, then the Treebank-style word tokenizer; neither needs downloaded
data here, see `_word_tokenize`). Chinese text has no stems: NFKC
normalisation replaces stemming (`lang="zh"`, or "auto" per sentence).
"""
from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

METRICS = ("p", "r", "f1", "oc", "sh", "rh", "oh")
_NORM_RE = re.compile(r"(_|\s+)")
_CJK_RE = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")

Triple = tuple[str, str, str]


def normalize_triple(sub: str, rel: str, obj: str) -> str:
    """The script's comparison key: `_`/whitespace removed, lowercased, concatenated."""
    return "".join(_NORM_RE.sub("", x).lower() for x in (sub, rel, obj))


def precision_recall_f1(gold: set[str], pred: set[str]) -> tuple[float, float, float]:
    if not pred:
        return 0.0, 0.0, 0.0
    hit = len(gold & pred)
    p = hit / len(pred)
    r = hit / len(gold) if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r > 0 else 0.0)


def ontology_relation_labels(ontology: dict) -> set[str]:
    return {rel["label"].replace(" ", "_") for rel in ontology.get("relations", [])}


def ontology_conformance(ont_rels: set[str], triples: Sequence[Sequence[str]]) -> tuple[float, float]:
    """(OC, RH) of all system triples."""
    if not triples:
        return 1.0, 0.0
    oc = sum(1 for tr in triples if tr[1] in ont_rels) / len(triples)
    return oc, 1.0 - oc


# Common English abbreviations the trained Punkt model knows, so "Warner
# Bros. Pictures" is not split into two sentences (which would detach the
# period differently from nltk.word_tokenize).
_ABBREVIATIONS = (
    "bros", "co", "corp", "inc", "ltd", "jr", "sr", "mr", "mrs", "ms", "dr", "prof", "st", "mt", "ft",
    "gen", "col", "lt", "capt", "sgt", "rev", "vs", "etc", "no", "vol", "u.s", "u.k", "jan", "feb",
    "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "e.g", "i.e", "approx", "dept",
)

_stemmer = None
_sent_tok = None
_word_tok = None


def _word_tokenize(text: str) -> list[str]:
    """nltk.word_tokenize without the downloaded Punkt model: an untrained
    PunktSentenceTokenizer splits sentences (the English model only adds a
    list of abbreviations), then NLTKWordTokenizer splits words."""
    global _sent_tok, _word_tok
    if _word_tok is None:
        from nltk.tokenize.destructive import NLTKWordTokenizer
        from nltk.tokenize.punkt import PunktSentenceTokenizer

        from nltk.tokenize.punkt import PunktParameters

        params = PunktParameters()
        params.abbrev_types = set(_ABBREVIATIONS)
        _sent_tok, _word_tok = PunktSentenceTokenizer(params), NLTKWordTokenizer()
    return [tok for sent in _sent_tok.tokenize(text) for tok in _word_tok.tokenize(sent)]


@functools.lru_cache(maxsize=65536)
def _stem_join(text: str) -> str:
    global _stemmer
    if _stemmer is None:
        from nltk.stem import PorterStemmer

        _stemmer = PorterStemmer()
    return "".join(_stemmer.stem(w) for w in _word_tokenize(text))


def _chinese_norm(text: str) -> str:
    return unicodedata.normalize("NFKC", text)


def _is_chinese(text: str) -> bool:
    return bool(_CJK_RE.search(text))


def clean_entity(entity: str, lang: str) -> str:
    if lang == "zh":
        return _NORM_RE.sub("", _chinese_norm(entity)).lower()
    return _NORM_RE.sub("", _stem_join(entity)).lower().replace("01januari", "")


def subject_object_hallucination(ontology: dict, sentence: str, triples: Sequence[Sequence[str]],
                                 lang: str = "auto") -> tuple[float, float]:
    """(SH, OH): share of triples whose subject / object the sentence+concepts do not contain."""
    if not triples:
        return 0.0, 0.0
    if lang == "auto":
        lang = "zh" if _is_chinese(sentence) else "en"
    context = sentence + " ".join(c["label"] for c in ontology.get("concepts", []))
    if lang == "zh":
        haystack = _NORM_RE.sub("", _chinese_norm(context)).lower()
    else:
        haystack = _NORM_RE.sub("", _stem_join(context)).lower()
    sh = sum(1 for tr in triples if clean_entity(tr[0], lang) not in haystack)
    oh = sum(1 for tr in triples if clean_entity(tr[2], lang) not in haystack)
    return sh / len(triples), oh / len(triples)


def sentence_scores(gold_triples: Sequence[Sequence[str]], system_triples: Sequence[Sequence[str]],
                    ontology: dict, sentence: str, *, ont_rels: set[str] | None = None,
                    lang: str = "auto") -> dict[str, float]:
    """All seven metrics for one sentence that has a system output."""
    if ont_rels is None:
        ont_rels = ontology_relation_labels(ontology)
    gold_rels = {tr[1].replace(" ", "_") for tr in gold_triples}
    filtered = [tr for tr in system_triples if tr[1] in gold_rels]
    p, r, f1 = precision_recall_f1({normalize_triple(*tr) for tr in gold_triples},
                                   {normalize_triple(*tr) for tr in filtered})
    oc, rh = ontology_conformance(ont_rels, system_triples)
    sh, oh = subject_object_hallucination(ontology, sentence, system_triples, lang)
    return {"p": p, "r": r, "f1": f1, "oc": oc, "sh": sh, "rh": rh, "oh": oh}


@dataclass
class OntologyScore:
    """Sums over sentences with output, divided by all gold sentences."""

    key: str
    n_gold: int = 0
    n_with_output: int = 0
    sums: dict[str, float] = field(default_factory=lambda: dict.fromkeys(METRICS, 0.0))

    def add(self, scores: dict[str, float]) -> None:
        self.n_with_output += 1
        for k in METRICS:
            self.sums[k] += scores[k]

    def averages(self) -> dict[str, float]:
        return {k: (self.sums[k] / self.n_gold if self.n_gold else 0.0) for k in METRICS}


def score_ontology(key: str, ontology: dict, gold: dict[str, dict], system: dict[str, list],
                   lang: str = "auto") -> tuple[OntologyScore, list[dict]]:
    """Score one ontology. `gold`: id → {"sent", "triples": [[s, r, o], ...]};
    `system`: id → list of [s, r, o]. Returns the aggregate and per-sentence rows."""
    ont_rels = ontology_relation_labels(ontology)
    agg = OntologyScore(key, n_gold=len(gold))
    rows = []
    for sent_id, g in gold.items():
        if sent_id not in system:
            continue
        s = sentence_scores(g["triples"], system[sent_id], ontology, g["sent"], ont_rels=ont_rels, lang=lang)
        agg.add(s)
        rows.append({"id": sent_id, **s})
    return agg, rows


def global_scores(per_ontology: Iterable[OntologyScore]) -> dict[str, float]:
    avgs = [o.averages() for o in per_ontology]
    if not avgs:
        return dict.fromkeys(METRICS, 0.0)
    return {k: sum(a[k] for a in avgs) / len(avgs) for k in METRICS}


# ---- parsing `rel(sub, obj)` outputs -------------------------------------------------

# The Text2KGBench baselines' parsing, reproduced: it yields exactly the `triples`
# stored with all 3,925 Vicuna-13B responses. Lenient on purpose (an object may
# hold commas, a subject may span lines); text is not stripped, since the
# metrics normalise whitespace themselves.
# Chinese answers write full-width brackets and commas: read them as ASCII.
_FULLWIDTH = str.maketrans({"（": "(", "）": ")", "，": ","})
_CALL_RE = re.compile(r"(\w+)\(([^,]+),([^)]+)\)")


def parse_triples(response: str) -> list[Triple]:
    """Triples from an LLM answer holding `relation(subject, object)` calls.

    Markdown escapes (`\\_`) are undone first; every call anywhere in the
    text counts, prose around it is ignored. A call with an empty object, or
    fewer than two arguments, is not a triple.
    """
    text = (response or "").replace("\\_", "_").translate(_FULLWIDTH)
    return [(sub, rel, obj) for rel, sub, obj in _CALL_RE.findall(text)]
