"""Domain classification of a pair into the CDTP paper's four domains.

Labelling guide (also the rules the lexicons encode; docs/domains.md repeats it)
-------------------------------------------------------------------------------
HP 历史与政治 History and Politics: dynasties, emperors, consorts and nobles;
   politicians and officials (any era); generals, armies, wars, battles,
   uprisings, revolutions, martyrs; treaties, laws, regulations, government
   bodies, parliaments, political parties; era names, imperial exams and
   official posts; historic political sites (imperial tombs, palaces of
   princes, martyrs' cemeteries, seats of government).
HS 人文与社会 Humanities and Society: films, TV series, anime, variety shows,
   songs, albums, books, novels, comics and their characters; writers, poets,
   artists, calligraphers, actors, singers, hosts, directors, athletes,
   players and teams; schools, universities, colleges, majors and journals;
   language (characters, idioms, dialects), religion, festivals, customs,
   food; museums, theatres, art venues; sports events and cultural prizes.
TE 科技与经济 Technology and Economics: companies, banks, brands, products
   (phones, cars, apps, software functions); finance, economics and
   management; scientists, engineers, professors of science and engineering,
   entrepreneurs; research institutes, laboratories, academies of science and
   engineering; chemistry, physics, mathematics, medicine, drugs and diseases;
   railways, stations, spacecraft, power stations and other engineering.
NE 自然与环境 Nature and Environment: plant and animal species and taxa;
   mountains, rivers, lakes, seas, islands, canyons, volcanoes; nature
   reserves, forests, wetlands, natural scenic areas; climate and geology;
   geographic units described by area, population, altitude or climate
   (provinces, counties, towns, villages, regions).

Borderline rules: people go by their field, not their era (a Qing poet is HS,
a Qing minister HP; a professor of chemistry TE, of literature HS). Works are
HS whatever their topic. A company in the entertainment trade is still TE
unless it is a record label or studio described by its artists. Places are NE
unless the page is about a building or site whose significance is political
(HP) or cultural (HS).

How a decision is made (WHY this shape)
--------------------------------------
A raw Baike entry offers four kinds of evidence, of unequal reliability:
  1. tags (词条标签): short category words; strong when specific, useless when
     generic (人物, 社会, 组织机构 are on half the site), so generic tags are
     simply absent from the lexicon;
  2. the infobox relation signature: which relation NAMES the entry has
     (学名/界/门 vs 主演/导演 vs 注册资本 vs 朝代/谥号) - robust because the
     site's templates differ by category;
  3. the title and its disambiguation subtitle (e.g. "（民国将领）");
  4. the head noun of the summary's defining clause ("X是……的<head>"): the
     author's own statement of what the entry is, so it outweighs a tag and
     the dynasty it mentions (《西游记》是明代……的长篇神魔小说 -> HS); a title
     the summary opens with in 《》 is a work (HS) unless the head makes it a
     treaty or law;
  5. the summary text and tail values (keyword counts, capped so one long text
     cannot outvote the infobox); dynasty words only date an entry, so they
     weigh little.
Each signal adds capped, weighted votes per domain. When the rule evidence is
weak or split, an embedding classifier (nearest centroid over seed phrases per
domain, `transforms/resources/domain_lexicon.json` "prototypes") adds its
vote. Confidence is the softmax share of the winning domain; below
`threshold` the code is "unknown". Evidence is kept as compact JSON naming
every signal that fired, so a reviewer can see why a pair got its domain.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Sequence

from transforms.defining_clause import (  # noqa: F401  (re-exported: older imports use transforms.domain)
    COPULA_CHARS,
    defining_phrases,
    head_nouns,
    norm_relation,
    segments_before_copula,
    split_title,
)
from transforms.entity_type import entity_type

DOMAINS = ("HP", "HS", "TE", "NE")
UNKNOWN = "unknown"
DOMAIN_NAMES = {
    "HP": "历史与政治",
    "HS": "人文与社会",
    "TE": "科技与经济",
    "NE": "自然与环境",
}

# Signal weights and caps. A tag or subtitle word is a deliberate statement
# of category, so it weighs more than one keyword in running text.
W_TAG, CAP_TAG = 2.0, 4.0
W_REL, CAP_REL = 1.0, 4.0
W_SUB, CAP_SUB = 2.0, 4.0
W_TITLE, CAP_TITLE = 1.0, 2.0
W_TEXT, CAP_TEXT = 0.5, 3.0
W_OCC, CAP_OCC = 2.0, 4.0
W_FIELD, CAP_FIELD = 1.0, 2.0
# The defining clause of a Baike summary ("X是……的<head>") is the author's own
# statement of what the entry IS, so its head noun outweighs a tag; a 《》 title
# marks a work (HS); dynasty words only date an entry (a Ming novel, a Tang poet).
W_HEAD, CAP_HEAD = 3.0, 3.0
W_WORK = 3.0
W_PERIOD, CAP_PERIOD = 0.125, 0.25
OCCUPATION_CHARS = 120  # occupations are stated in a biography's opening


@dataclass
class DomainConfig:
    """Typed config of the domain stage (BuildConfig.domain)."""

    enabled: bool = True
    threshold: float = 0.4  # winning softmax share below this -> "unknown"
    embedder: str = "use-m3"  # transforms.embed spec; "none" disables the fallback
    weak_evidence: float = 2.5  # top rule score below this consults the embedder
    weak_margin: float = 1.0  # ... or a lead smaller than this
    text_chars: int = 400  # how much of the text the keyword signal reads
    batch_size: int = 64
    emb_weight: float = 2.5  # votes the embedding fallback adds, spread by its softmax
    emb_temperature: float = 0.03  # softmax temperature over centroid similarities
    emb_mode: str = "centroid"  # "knn": mean of the k best seed phrases per domain; "centroid"
    emb_k: int = 3

    def __post_init__(self) -> None:
        if not 0.0 <= self.threshold <= 1.0:
            raise ValueError(f"domain threshold must be in [0, 1], got {self.threshold}")
        if self.batch_size < 1:
            raise ValueError(f"domain batch_size must be >= 1, got {self.batch_size}")
        if self.emb_mode not in ("centroid", "knn"):
            raise ValueError(f"domain emb_mode must be 'centroid' or 'knn', got {self.emb_mode!r}")
        if self.emb_temperature <= 0:
            raise ValueError("domain emb_temperature must be > 0")


@dataclass
class DomainResult:
    domain: str
    confidence: float
    scores: dict[str, float]
    evidence: dict[str, Any] = field(default_factory=dict)

    def evidence_json(self) -> str:
        return json.dumps(self.evidence, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@lru_cache(maxsize=1)
def load_lexicon() -> dict[str, Any]:
    text = resources.files("transforms").joinpath("resources/domain_lexicon.json").read_text("utf-8")
    return json.loads(text)


def _triples(item: dict[str, Any]) -> list[tuple[str, str]]:
    out = []
    for t in item.get("triples") or []:
        if isinstance(t, dict):
            out.append((norm_relation(t.get("relation") or t.get("name") or ""), str(t.get("tail") or t.get("value") or "")))
        elif isinstance(t, (list, tuple)) and len(t) >= 3:
            out.append((norm_relation(str(t[1])), str(t[2])))
        elif isinstance(t, (list, tuple)) and len(t) == 2:
            out.append((norm_relation(str(t[0])), str(t[1])))
    return [(r, v) for r, v in out if r]


def _match_words(text: str, words: Iterable[str], suffix_only_single: bool) -> list[str]:
    hits = []
    for w in words:
        if len(w) == 1 and suffix_only_single:
            if text.endswith(w):
                hits.append(w)
        elif w and w in text:
            hits.append(w)
    return hits


class DomainClassifier:
    """Rule evidence + embedding fallback. Build once, call `classify_batch`."""

    def __init__(self, cfg: DomainConfig | None = None, embedder: Any = None, lexicon: dict | None = None):
        self.cfg = cfg or DomainConfig()
        self.lex = lexicon or load_lexicon()
        self._rel_sets = {d: set(self.lex["relations"][d]) for d in DOMAINS}
        self._embedder = embedder
        self._centroids = None
        self._want_embedder = (self.cfg.embedder or "none").lower() != "none"

    # ----------------------------------------------------------------- rules
    def rule_scores(self, item: dict[str, Any]) -> tuple[dict[str, float], dict[str, Any]]:
        title, subtitle = split_title(item.get("entity") or item.get("title") or "", item.get("subtitle"))
        tags = [str(t).strip() for t in (item.get("tags") or []) if str(t).strip()]
        triples = _triples(item)
        text = (item.get("text") or item.get("summary") or "")[: self.cfg.text_chars]
        scores = {d: 0.0 for d in DOMAINS}
        ev: dict[str, Any] = {}

        # 1. tags: each tag votes once, split between the domains it matches.
        tag_votes = {d: 0.0 for d in DOMAINS}
        tag_ev: dict[str, list[str]] = {}
        for tag in tags:
            matched = {d: _match_words(tag, self.lex["tags"][d], False) for d in DOMAINS}
            matched = {d: w for d, w in matched.items() if w}
            for d in matched:
                tag_votes[d] += W_TAG / len(matched)
                tag_ev.setdefault(d, []).append(tag)
        self._add(scores, tag_votes, CAP_TAG, ev, "tags", tag_ev)

        # 2. infobox relation signature (distinct relation names).
        rel_votes = {d: 0.0 for d in DOMAINS}
        rel_ev: dict[str, list[str]] = {}
        for rel in dict.fromkeys(r for r, _ in triples):
            for d in DOMAINS:
                if rel in self._rel_sets[d]:
                    rel_votes[d] += W_REL
                    rel_ev.setdefault(d, []).append(rel)
        self._add(scores, rel_votes, CAP_REL, ev, "relations", rel_ev)

        # 3. disambiguation subtitle, then the title itself (weaker).
        for key, source, weight, cap in (("subtitle", subtitle, W_SUB, CAP_SUB), ("title", title, W_TITLE, CAP_TITLE)):
            if not source:
                continue
            votes = {d: 0.0 for d in DOMAINS}
            hits_ev: dict[str, list[str]] = {}
            for d in DOMAINS:
                hits = _match_words(source, self.lex["subtitle"][d], True)
                # "下辖村" also contains "村": count the longest reading only once.
                hits = [h for h in hits if not any(h != o and h in o for o in hits)]
                if hits:
                    votes[d] = weight * len(hits)
                    hits_ev[d] = hits
            self._add(scores, votes, cap, ev, key, hits_ev)

        # 4. people go by their field: occupation words in the opening of the
        # text (and occupation/position tails); biography noise is ignored.
        is_person = self._is_person(item, title, subtitle, tags, triples)
        noise: dict[str, set[str]] = {}
        if is_person:
            ev["person"] = True
            noise = {d: set(w) for d, w in self.lex.get("person_noise", {}).items()}
            opening = text[:OCCUPATION_CHARS] + " " + " ".join(
                v for r, v in triples if r in ("职业", "职务", "身份", "主要成就", "头衔", "军衔", "官职"))
            votes = {d: 0.0 for d in DOMAINS}
            occ_ev: dict[str, list[str]] = {}
            for d, words in self.lex.get("occupations", {}).items():
                hits = [w for w in words if w in opening]
                hits = [h for h in hits if not any(h != o and h in o for o in hits)]
                if hits:
                    votes[d] = W_OCC * len(hits)
                    occ_ev[d] = hits
            self._add(scores, votes, CAP_OCC, ev, "occupation", occ_ev)
            votes = {d: 0.0 for d in DOMAINS}
            field_ev: dict[str, list[str]] = {}
            for d, words in self.lex.get("fields", {}).items():
                hits = [w for w in words if w in opening]
                if hits:
                    votes[d] = W_FIELD * len(hits)
                    field_ev[d] = hits
            self._add(scores, votes, CAP_FIELD, ev, "field", field_ev)

        # 5. the defining clause's head noun, and 《》 works.
        head_hits = self._head_hits(text, is_person, title)
        votes = {d: 0.0 for d in DOMAINS}
        head_ev: dict[str, list[str]] = {}
        for d, w in head_hits:
            votes[d] += W_HEAD / len(head_hits)
            head_ev.setdefault(d, []).append(w)
        self._add(scores, votes, CAP_HEAD, ev, "head", head_ev)
        work_not = set(self.lex.get("work_not", ()))
        if self._is_work_title(item.get("entity") or item.get("title") or "", title, text) and not any(
            w in work_not for _, w in head_hits
        ):
            self._add(scores, {"HS": W_WORK}, W_WORK, ev, "work", {"HS": [f"《{title}》"]})

        # 6. keywords in the text and the tail values; dynasty words count little.
        body = text + " " + " ".join(v for _, v in triples[:40])
        votes = {d: 0.0 for d in DOMAINS}
        kw_ev: dict[str, list[str]] = {}
        for d in DOMAINS:
            hits = [w for w in self.lex["keywords"][d] if w in body and w not in noise.get(d, ())]
            if hits:
                votes[d] = W_TEXT * len(hits)
                kw_ev[d] = hits
        self._add(scores, votes, CAP_TEXT, ev, "text", kw_ev)
        periods = [w for w in self.lex.get("periods", ()) if w in body]
        if periods:
            self._add(scores, {"HP": W_PERIOD * len(periods)}, CAP_PERIOD, ev, "period", {"HP": periods})
        return scores, ev

    def _head_hits(self, text: str, is_person: bool = True, title: str = "") -> list[tuple[str, str]]:
        shape, phrases = defining_phrases(text, title)
        heads = self.lex.get("heads") or {}
        for phrase in phrases:
            hits = head_nouns(phrase, heads, strict=shape == "strict", person=is_person)
            if hits:
                return hits
        if shape == "copula":
            for seg in segments_before_copula(text):
                hits = head_nouns(seg, heads, strict=True, person=is_person)
                if hits:
                    return hits
        return []

    @staticmethod
    def _is_work_title(raw: str, title: str, text: str) -> bool:
        """A title in 《》, or a summary that opens by naming the entry in 《》."""
        bare = title.strip("《》 ")
        if not bare:
            return False
        return raw.strip().startswith("《") or f"《{bare}》" in text[: len(bare) + 12]

    @staticmethod
    def _is_person(item, title, subtitle, tags, triples) -> bool:
        typed = item.get("entity_type")
        if typed:
            return typed == "person"
        return entity_type(title, tags, [r for r, _ in triples], subtitle).type == "person"

    @staticmethod
    def _add(scores, votes, cap, ev, key, hits) -> None:
        fired = {}
        for d, v in votes.items():
            if v > 0:
                v = min(v, cap)
                scores[d] += v
                fired[d] = hits.get(d, [])[:5]
        if fired:
            ev[key] = fired

    # ------------------------------------------------------------- embedding
    def _ensure_embedder(self):
        if self._embedder is None and self._want_embedder:
            from transforms.embed import make_embedder

            self._embedder = make_embedder(self.cfg.embedder)
        if self._embedder is not None and self._centroids is None:
            import numpy as np

            self._protos = [self._embedder.encode(self.lex["prototypes"][d]) for d in DOMAINS]
            cents = []
            for vecs in self._protos:
                c = vecs.mean(axis=0)
                cents.append(c / (np.linalg.norm(c) or 1.0))
            self._centroids = np.stack(cents).astype("float32")
        return self._embedder

    def _domain_similarities(self, vecs):
        """Per-domain similarity: centroid cosine, or mean of the k nearest seeds.

        k-NN over seed phrases copes better than one centroid with domains
        that are unions of unlike things (TE = phones + drugs + banks).
        """
        import numpy as np

        if self.cfg.emb_mode == "centroid":
            return vecs @ self._centroids.T
        cols = []
        for protos in self._protos:
            s = vecs @ protos.T
            k = min(self.cfg.emb_k, s.shape[1])
            cols.append(np.sort(s, axis=1)[:, -k:].mean(axis=1))
        return np.stack(cols, axis=1)

    @staticmethod
    def embedding_query(item: dict[str, Any]) -> str:
        title, subtitle = split_title(item.get("entity") or item.get("title") or "", item.get("subtitle"))
        rels = list(dict.fromkeys(r for r, _ in _triples(item)))[:8]
        text = (item.get("text") or item.get("summary") or "")[:80]
        parts = [title, subtitle, " ".join(item.get("tags") or []), " ".join(rels), text]
        return " ".join(p for p in parts if p)

    def _needs_embedding(self, scores: dict[str, float]) -> bool:
        ranked = sorted(scores.values(), reverse=True)
        return ranked[0] < self.cfg.weak_evidence or ranked[0] - ranked[1] < self.cfg.weak_margin

    # -------------------------------------------------------------- decision
    def classify(self, item: dict[str, Any]) -> DomainResult:
        return self.classify_batch([item])[0]

    def classify_batch(self, items: Sequence[dict[str, Any]]) -> list[DomainResult]:
        ruled = [self.rule_scores(it) for it in items]
        need = [i for i, (s, _) in enumerate(ruled) if self._needs_embedding(s)]
        sims: dict[int, list[float]] = {}
        if need and self._ensure_embedder() is not None:
            for start in range(0, len(need), max(1, self.cfg.batch_size)):
                chunk = need[start : start + self.cfg.batch_size]
                vecs = self._embedder.encode([self.embedding_query(items[i]) for i in chunk])
                for i, row in zip(chunk, self._domain_similarities(vecs)):
                    sims[i] = [float(x) for x in row]
        results = []
        for i, (scores, ev) in enumerate(ruled):
            scores = dict(scores)
            if i in sims:
                s = sims[i]
                # A sharp softmax over centroid similarities: USE similarities
                # of short Chinese strings live in a narrow band (0.1-0.5).
                m = max(s)
                ex = [math.exp((x - m) / self.cfg.emb_temperature) for x in s]
                z = sum(ex)
                for d, e in zip(DOMAINS, ex):
                    scores[d] += self.cfg.emb_weight * e / z
                ev["embedding"] = {d: round(x, 3) for d, x in zip(DOMAINS, s)}
            results.append(self._decide(scores, ev))
        return results

    def _decide(self, scores: dict[str, float], ev: dict[str, Any]) -> DomainResult:
        m = max(scores.values())
        ex = {d: math.exp(v - m) for d, v in scores.items()}
        z = sum(ex.values())
        best = max(DOMAINS, key=lambda d: (scores[d], -DOMAINS.index(d)))
        conf = ex[best] / z
        rounded = {d: round(v, 2) for d, v in scores.items()}
        ev = dict(ev)
        ev["scores"] = rounded
        if m <= 0 or conf < self.cfg.threshold:
            ev["reason"] = "no_evidence" if m <= 0 else "below_threshold"
            return DomainResult(UNKNOWN, round(conf, 4), rounded, ev)
        return DomainResult(best, round(conf, 4), rounded, ev)


def classify_pairs(pairs: Sequence[dict[str, Any]], classifier: DomainClassifier) -> list[dict[str, Any]]:
    """Return copies of pair dicts with domain, domain_confidence, domain_evidence set."""
    out = []
    for pair, res in zip(pairs, classifier.classify_batch(pairs)):
        new = dict(pair)
        new["domain"] = res.domain
        new["domain_confidence"] = float(res.confidence)
        new["domain_evidence"] = res.evidence_json()
        out.append(new)
    return out
