"""Cue words mined from the input itself (issue 10 §2).

The bundled cue table (transforms/roles.py) covers frequent Baike relations.
Any other relation gets cues from the corpus being built: the words that stand
right before or after its values where the text names them once, at a word
boundary, across many entries (`由X执导` gives 执导 to 导演; `X担任制作人`
gives 担任 and 制作人 to 制作人). A word becomes a cue of a relation when it
was seen next to at least `min_count` of its values and at least `min_share`
of its sightings next to any value are next to this relation's: a word next
to every kind of value (`的`, `是`) is no cue.

Only relations without a table entry are mined (the table's cues are
curated), and a cue must be a word of jieba's dictionary (执导, not 曾执). The
result is a plain {relation: (cue, ...)} map: `CleaningConfig.mined_cues`
takes it (e.g. `--config` with `{"cleaning": {"mined_cues": {...}}}`), and the
role check uses it like the table.
"""
from __future__ import annotations

import re
from collections import Counter, defaultdict
from typing import Iterable

from transforms.cells import PairConfig
from transforms.pairs import pair_with_aliases

_CJK2 = re.compile(r"^[\u4e00-\u9fff]{2}$")
_STOP = frozenset({"的是", "是一", "一个", "一部", "一首", "以及", "并且", "其中", "他的", "她的", "我们", "这个",
                   "该片", "该剧", "本片", "之后", "之前", "同时", "一位", "一名", "和其", "作为"})


def _neighbours(text: str, s: int, e: int) -> list[str]:
    out = []
    left, right = text[max(0, s - 2):s], text[e:e + 2]
    for w in (left, right):
        if _CJK2.match(w) and w not in _STOP:
            out.append(w)
    return out


def mine_cues(raw_entries: Iterable[dict], min_count: int = 5, min_share: float = 0.6,
              max_cues: int = 8, cfg: PairConfig | None = None) -> dict[str, tuple[str, ...]]:
    """{relation: cues} from entries whose summary names an infobox value once."""
    cfg = cfg or PairConfig()
    by_rel: dict[str, Counter] = defaultdict(Counter)
    by_word: Counter = Counter()
    for raw in raw_entries:
        text = raw.get("summary") or ""
        if not text:
            continue
        pair, _aliases = pair_with_aliases(raw, cfg)
        for t in pair["triples"]:
            v = t["tail"].strip()
            if len(v) < 2:
                continue
            i = text.find(v)
            if i == -1 or text.find(v, i + 1) != -1:
                continue  # not named, or named more than once: which one is it?
            for w in _neighbours(text, i, i + len(v)):
                by_rel[t["relation"]][w] += 1
                by_word[w] += 1
    from transforms.mentions import jieba_dictionary
    from transforms.cue_index import is_cued

    freq, _ = jieba_dictionary()
    out: dict[str, tuple[str, ...]] = {}
    for rel, words in sorted(by_rel.items()):
        if is_cued(rel):
            continue  # the bundled table's cues are curated; mining fills in the rest
        # a cue is a word (执导), not two characters that happen to sit there (曾执)
        cues = [w for w, n in sorted(words.items(), key=lambda x: (-x[1], x[0]))
                if n >= min_count and n / by_word[w] >= min_share and freq.get(w)]
        if cues:
            out[rel] = tuple(cues[:max_cues])
    return out
