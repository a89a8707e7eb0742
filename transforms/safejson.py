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

A build parses every input line twice (the input scan and the validate
stage), so bytes are decoded by orjson first, 2-3 times faster than json.
The answer is json's all the same: orjson accepts a subset of what json
accepts and gives the same values, except that it reads an integer beyond
64 bits as a float, so a line with a run of 19 digits goes to json; what
orjson rejects (NaN, a BOM, UTF-16, a lone surrogate, a float out of range)
goes to json too, which accepts it or raises its own error. A test holds
the two to the same answer on generated and hostile documents. Since orjson
rejects lone surrogates, what it read needs no search for them
(`loads_and_vouch`: the validate stage skips that search).
"""
from __future__ import annotations

import json
import re
from typing import Any

import orjson

MAX_DEPTH = 64

_STR_S = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_STR_B = re.compile(rb'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_BRACKET_S = re.compile(r"[^\[\]{}]+")
_NOT_BRACKET_B = re.compile(rb"[^\[\]{}]+")
_INNERMOST = re.compile(r"\[\]|\{\}")


# Digits -> "0", every other byte -> " ": a run of LONG_DIGITS zeros is a
# number orjson might read otherwise than json (one C pass over the line).
_DIGITS_ONLY = bytes(0x30 if 0x30 <= b <= 0x39 else 0x20 for b in range(256))
_LONG_DIGITS = b"0" * 19


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
    return loads_and_vouch(data, max_depth)[0]


def loads_and_vouch(data: str | bytes, max_depth: int = MAX_DEPTH) -> tuple[Any, bool]:
    """`loads`, and whether every string of the value is known to be valid
    Unicode: true when orjson read it, since orjson rejects a lone surrogate
    (`"\\ud800"`, or its bytes) that json lets through. A caller that must
    reject such strings (a Parquet writer cannot encode them) need not look
    for them in what is vouched for."""
    if too_deep(data, max_depth):
        raise JSONTooDeep(f"JSON nested more than {max_depth} levels deep")
    try:
        return _decode(data)
    except RecursionError as exc:  # a backstop: too_deep should have caught it
        raise JSONTooDeep(f"JSON nested too deeply for the decoder ({exc})") from None


def decode(data: str | bytes) -> Any:
    """json.loads(data), by orjson where that gives the same answer (bytes
    without a run of 19 digits), else by json. No depth bound: for data this
    program wrote itself (pipeline/spill.py)."""
    return _decode(data)[0]


def _decode(data: str | bytes) -> tuple[Any, bool]:
    """(decode(data), whether orjson read it)."""
    if data.__class__ is bytes and _LONG_DIGITS not in data.translate(_DIGITS_ONLY):
        try:
            return orjson.loads(data), True
        except orjson.JSONDecodeError:
            pass  # json decides, with its own message
    return json.loads(data), False


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
