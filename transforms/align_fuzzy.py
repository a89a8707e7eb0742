"""The fuzzy alignment level (split out of transforms/align.py).

rapidfuzz partial_ratio on normalised strings locates a candidate, then an
edit script verifies it: at most (100 - `fuzzy_threshold`)% of the value's
characters inserted or omitted (`美国纽约曼哈顿` / `美国纽约市曼哈顿`), no
replaced character in values shorter than `fuzzy_substitution_min_length`
(山东/山西电影制片厂 are two studios), and the same digit runs. It is the
slowest level, so it runs only on what every exact level missed.
"""
from __future__ import annotations

import re

from transforms.text import absent_ideographs, normalise, normalise_with_map

# Digit runs, and numerals that count (`两届`, `五座`): a near match must keep them.
_DIGITS = re.compile(r"\d+|[一二两三四五六七八九十百]+(?=[届座次项部张首])")


def fuzzy_score(value: str, text: str) -> tuple[float, int, int] | None:
    """Best partial_ratio of the normalised value in the normalised text, with
    its original span."""
    from rapidfuzz import fuzz

    nv = normalise(value)
    nt = normalise_with_map(text)
    if not nv or not nt.text:
        return None
    res = fuzz.partial_ratio_alignment(nv, nt.text)
    if res is None or res.dest_end <= res.dest_start:
        return None
    s, e = nt.span(res.dest_start, res.dest_end)
    return res.score, s, e


def _gapped_span(nv: str, window: str, cfg) -> tuple[int, int] | None:
    """Verify a fuzzy candidate window and return the matched [start, end)
    inside it, or None.

    The value may differ from the text by inserted or omitted characters
    (`美国纽约曼哈顿` / `美国纽约市曼哈顿`, `奥斯卡奖最佳男配角` / `奥斯卡最佳男配角`),
    at most (100 - threshold)% of its length. Replaced characters are not
    tolerated in values shorter than `fuzzy_substitution_min_length`: in a
    Chinese name one replaced character names another thing (山东/山西
    电影制片厂).
    """
    from rapidfuzz.distance import Levenshtein

    ops = [o for o in Levenshtein.opcodes(nv, window)]
    while ops and ops[0].tag == "insert":  # text before the match
        ops.pop(0)
    while ops and ops[-1].tag == "insert":  # text after the match
        ops.pop()
    if not ops or ops[0].tag == "delete" or ops[-1].tag == "delete":
        # A value longer at an edge than the text names more than the text
        # says (`老克林特·伊斯特伍德` is not `克林特·伊斯特伍德`; rule 2).
        return None
    replaced = sum(o.src_end - o.src_start for o in ops if o.tag == "replace")
    edits = sum(max(o.src_end - o.src_start, o.dest_end - o.dest_start) for o in ops if o.tag != "equal")
    if replaced and len(nv) < cfg.fuzzy_substitution_min_length:
        return None
    if edits == 0 or edits * 100 > (100 - cfg.fuzzy_threshold) * len(nv):
        return None
    return ops[0].dest_start, ops[-1].dest_end


def fuzzy_edits(n: int, cfg) -> int:
    """The edits the fuzzy level allows a normalised value of n characters;
    0 for a value too short to be matched fuzzily at all (the exact level
    already decided it). align.py skips the level for such a value."""
    if n < cfg.fuzzy_min_length:
        return 0
    return int((100 - cfg.fuzzy_threshold) * n // 100)


def fuzzy_span(value: str, text: str, cfg) -> tuple[int, int] | None:
    """The fuzzy level: [start, end) of a verified near match of the value, or None."""
    nv = normalise(value)
    n = len(nv)
    k = fuzzy_edits(n, cfg)
    if k == 0:
        return None  # too short, or no edit allowed: the exact level already decided

    # The character bound below, first with the ideographs surely absent
    # from the text, before the text is normalised.
    if (n - absent_ideographs(nv, text)) * 100 < cfg.fuzzy_threshold * n:
        return None
    nt = normalise_with_map(text)
    if len(nt.text) < n - k:
        return None
    # partial_ratio compares the value with text windows of its own length,
    # scoring 100 * LCS / len(value); the LCS cannot exceed the number of the
    # value's characters that occur in the text at all. Most misses stop here.
    ntext = nt.text
    if sum(c in ntext for c in nv) * 100 < cfg.fuzzy_threshold * len(nv):
        return None
    # At most k edits are allowed; they cut the value into at most k + 1 runs
    # that appear contiguously in the text, so some run of length
    # ceil((n - k) / (k + 1)) must occur verbatim. One str.find per n-gram
    # rules out most remaining candidates before any edit distance is run.
    run = -(-(n - k) // (k + 1))
    if run >= 2 and not any(nv[i:i + run] in nt.text for i in range(n - run + 1)):
        return None
    # Imported here, after the cheap bounds that stop most values (an import
    # statement costs a look-up in sys.modules on every call; no decision reads it).
    from rapidfuzz import fuzz

    # partial_ratio (C++) locates the best candidate window; a slightly lower
    # cutoff lets a window shifted by an insertion through to verification.
    res = fuzz.partial_ratio_alignment(nv, nt.text, score_cutoff=max(0.0, cfg.fuzzy_threshold - 10))
    if res is None or res.dest_end <= res.dest_start:
        return None
    pad = max(2, len(nv) // 5)
    w0 = max(0, res.dest_start - pad)
    window = nt.text[w0:res.dest_end + pad]
    sub = _gapped_span(nv, window, cfg)
    if sub is None:
        return None
    ns, ne = w0 + sub[0], w0 + sub[1]
    # A different number is a different fact (10.7亿 is not 10.5亿, 9220 is
    # not 9320, 两届 is not one win): a fuzzy match must keep every number of the value.
    if _DIGITS.findall(nv) != _DIGITS.findall(nt.text[ns:ne]):
        return None
    return nt.span(ns, ne)
