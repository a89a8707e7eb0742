""""Never a true answer": what may not be offered as a distractor, and why.

For an item asking (h, r, ?) with gold g, a candidate x is excluded when
  - `true_answer`: (h, r, x) is stated anywhere in the graph (any sense of
    the name h: a question cannot tell the senses apart unless it shows the
    subtitle, so every sense's values count), compared after the build's own
    multi-value split (transforms/cells.split_values) and normalisation
    (transforms/text.normalise: width, case, spaces, punctuation), so
    `《呐喊》` is `呐喊` and `A、B` is both A and B;
  - `gold_alias`: x is another name of the gold (its 中文名/别名/简称/外文名
    values, value-link titles) — offering 石头记 beside 红楼梦 offers the gold twice;
  - `contains_gold`: x contains the gold or is contained in it (`浙江绍兴` vs `绍兴`);
  - `contains_true_answer`: the same against any other true value of (h, r);
  - `either_or_holds_true`: x offers alternatives (`落叶灌木或小乔木`, `白色或粉红色`)
    and one of them is the gold or a true value, contains it or is contained
    in it, or ends in the gold's head noun (its last two characters: Chinese
    compounds are head-final, so `落叶乔木或灌木` offers a tree for the gold
    `小乔木`): an option right in part is a second answer;
  - `either_or_gold_part`: the gold offers alternatives (`落叶灌木或小乔木`) and
    x is one of them, holds one or is held by one (`落叶小乔木`, `灌木`): the
    gold says x may be right, so x is no wrong answer;
  - `same_taxon`: x and the gold (or a true value) name one plant taxon
    under two names, or a family one classification sinks into the other
    (`槭树科` / `无患子科`, `木犀科` / `木樨科`: resources/taxon_synonyms.json);
  - `empty`: nothing left after normalisation.
The same rules, mirrored, hold for an item asking (?, r, t).
"""
from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources

from transforms.cells import PairConfig, split_values
from transforms.text import normalise

_SPLIT = PairConfig()
# The same separators with no relation exempt: a candidate that is a whole
# unsplit cell (a 中文名 list) is still checked piece by piece.
_SPLIT_ALL = PairConfig(no_split_relations=frozenset())

# Relations whose values are other names of their head (aliases of it).
ALIAS_RELATIONS = frozenset({
    "中文名", "中文名称", "外文名", "外文名称", "英文名", "英文名称", "别名", "别称", "简称", "全称", "本名", "原名",
    "又名", "又称", "昵称", "俗名", "学名", "拉丁学名", "中文学名", "其他名称", "英文简称", "外号", "字", "号",
})


_EITHER_OR = re.compile("或者|或")


def _holds(part: str, values) -> bool:
    """One alternative of an either-or option is, holds, is held by or shares
    the head noun of one of `values` (a part of one character, `或许`'s 许, is no alternative)."""
    return len(part) >= 2 and any(len(v) >= 2 and (v in part or part in v or part[-2:] == v[-2:]) for v in values)


@lru_cache(maxsize=65536)
def pieces(value: str, relation: str = "") -> frozenset[str]:
    """Normalised forms of a value and of every piece the build's split gives."""
    out = {normalise(value)}
    for cfg in (_SPLIT, _SPLIT_ALL):
        out.update(normalise(p) for p in split_values(value, relation, cfg))
    out.discard("")
    return frozenset(out)


@lru_cache(maxsize=1)
def _taxon_pairs() -> dict[str, frozenset[str]]:
    """name -> the names resources/taxon_synonyms.json pairs it with (both ways)."""
    table = json.loads(resources.files("transforms").joinpath("resources/taxon_synonyms.json").read_text("utf-8"))
    out: dict[str, set[str]] = {}
    for kind in ("names", "merged", "split"):
        for a, b in table[kind]:
            out.setdefault(a, set()).add(b)
            out.setdefault(b, set()).add(a)
    return {k: frozenset(v) for k, v in out.items()}


def same_taxon(name: str, gold: str, known: frozenset[str]) -> bool:
    """`name` may name the taxon of the gold or of a known true value (all
    normalised). Most names pair with none: no set is built for them."""
    partners = _taxon_pairs().get(name)
    return partners is not None and (gold in partners or not partners.isdisjoint(known))


def known_set(values, relation: str = "") -> frozenset[str]:
    """Normalised pieces of every true value of one (h, r) (or (r, t)) in the graph."""
    out: set[str] = set()
    for v in values:
        out.update(pieces(v, relation))
    return frozenset(out)


def exclusion_reason(candidate: str, gold: str, relation: str, known: frozenset[str],
                     aliases: frozenset[str]) -> str | None:
    """Why `candidate` may not be a distractor for `gold`, or None when it may."""
    nc = normalise(candidate)
    if not nc:
        return "empty"
    cand_pieces = pieces(candidate, relation)
    if not cand_pieces.isdisjoint(known):
        return "true_answer"
    ng = normalise(gold)
    if nc in ng or ng in nc:
        return "contains_gold"
    if not cand_pieces.isdisjoint(aliases):
        return "gold_alias"
    if same_taxon(nc, ng, known):
        return "same_taxon"
    # A longer string around another true value (`呐喊（小说集）`) is that value too.
    for k in known:
        if len(k) >= 2 and (k in nc or (len(nc) >= 2 and nc in k)):
            return "contains_true_answer"
    if "或" in nc and any(_holds(part, (ng, *known)) for part in _EITHER_OR.split(nc) if part):
        return "either_or_holds_true"
    if "或" in ng and _part_of_either_or(nc, ng):
        return "either_or_gold_part"
    return None


def _part_of_either_or(candidate: str, gold: str) -> bool:
    """The candidate (normalised) is, holds or is held by one alternative of an
    either-or gold: `落叶小乔木` holds 小乔木 of `落叶灌木或小乔木`. Unlike a
    candidate's alternatives, no head noun is shared: `常绿灌木` stays a wrong
    answer to a deciduous shrub."""
    return any(len(alt) >= 2 and (alt in candidate or candidate in alt) for alt in _EITHER_OR.split(gold))
