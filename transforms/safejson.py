"""JSON from untrusted sources (input lines, search replies, seed files, caches).

Why: Python's json decoder recurses once per nesting level, so a single line
like `{"tags": [[[[…1000 levels…]]]]}` raises RecursionError, which is not a
ValueError and so escaped every `except ValueError` around `json.loads`,
crashing a whole build with a traceback. Worse, where the decoder gives up
depends on how deep the caller's stack already is, so the same line could be
accepted by one worker and rejected by another.

`loads` bounds the nesting explicitly (MAX_DEPTH, far above what any record
of ours needs: a raw entry is 4 levels deep), before decoding, so the answer
is the same everywhere, and turns every failure into a ValueError the caller
already handles. The depth check costs two `bytes.count` calls for ordinary
lines; only lines with more than MAX_DEPTH brackets get the full check.
"""
from __future__ import annotations

import json
import re
from typing import Any

MAX_DEPTH = 64

_STR_S = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STR_B = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET_S = re.compile(r"[^\[\]{}]+")
_NOT_BRACKET_B = re.compile(rb"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


class JSONTooDeep(ValueError):
    """A JSON document nested deeper than allowed."""


def too_deep(data: str | bytes, max_depth: int = MAX_DEPTH) -> bool:
    """True when the JSON text `data` nests arrays/objects deeper than `max_depth`.

    Brackets inside strings do not count. Malformed text (unbalanced
    brackets) answers False unless it is already too deep: json reports it.
    """
    if isinstance(data, (bytes, bytearray)):
        if data.count(b"[") + data.count(b"{") <= max_depth:
            return False
        skeleton = _NOT_BRACKET_B.sub(b"", _STR_B.sub(b"", bytes(data))).decode("ascii")
    else:
        if data.count("[") + data.count("{") <= max_depth:
            return False
        skeleton = _NOT_BRACKET_S.sub("", _STR_S.sub("", data))
    # Each round removes the innermost level of brackets: a document of depth d
    # is empty after d rounds.
    for _ in range(max_depth):
        shorter = _INNERMOST.sub("", skeleton)
        if not shorter:
            return False
        if len(shorter) == len(skeleton):
            # Unbalanced: count the depth of what is left, as json would read it.
            depth = best = 0
            for ch in shorter:
                depth += 1 if ch in "[{" else -1
                best = max(best, depth)
            return best + _ > max_depth
        skeleton = shorter
    return True


def loads(data: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """json.loads with a fixed nesting bound; every failure is a ValueError.

    Raises JSONTooDeep (a ValueError) when the document nests deeper than
    `max_depth`, json.JSONDecodeError / UnicodeDecodeError (ValueErrors) when
    it is not JSON.
    """
    if too_deep(data, max_depth):
        raise JSONTooDeep(f"JSON nested more than {max_depth} levels deep")
    try:
        return json.loads(data)
    except RecursionError as exc:  # a backstop: too_deep should have caught it
        raise JSONTooDeep(f"JSON nested too deeply for the decoder ({exc})") from None


def iter_jsonl(path: str):
    """(line number, value) for every non-blank line of a JSON Lines file.

    A line that is not JSON, or nests too deeply, is a ValueError naming the
    file and line (so is a file that is not UTF-8); callers turn it into
    their own clear error."""
    with open(path, encoding="utf-8") as fh:
        for n, line in enumerate(fh, 1):
            if not line.strip():
                continue
            try:
                yield n, loads(line)
            except ValueError as exc:
                raise ValueError(f"{path}:{n}: not JSON ({getattr(exc, 'msg', exc)})") from None
