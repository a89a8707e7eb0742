"""One line of a seed source into a seed: a Baike title and its subtitle.

Each source format has a line parser here (`crawlers.seeds` picks the format
and reads the file). A parser returns a `Seed`, a `Malformed` with its reason,
or None for a line that is structure and carries no seed (a blank line, a
header, an NLPCC question). Where a source attaches a disambiguation to the
head, it is split off as the subtitle (see `split_trailing_group`).
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from urllib.parse import unquote_to_bytes

from transforms import safejson

#: Baike titles are short; anything longer is a sentence or a parsing accident.
MAX_TITLE_CHARS = 100
MAX_SUBTITLE_CHARS = 200
#: Header cells that mark the first row of a triple file as a header, not data.
HEADER_CELLS = frozenset(
    {"实体", "头实体", "主语", "主体", "entity", "head", "subject", "title"}
)
TRIPLE_SEP = "|||"
NLPCC_TAG = re.compile(r"^<(question|triple|answer)\s+id=(\d+)>\s*(.*)$", re.S)

_WS = re.compile(r"\s+")
_OPEN_FULL, _CLOSE_FULL = "（", "）"
_NLPCC_SEPARATOR = re.compile(r"^=+$")
_ITEM_URL = re.compile(r"^https?://[^/\s]+/item/([^/?#\s]+)(?:/\d+)?/?(?:[?#]\S*)?$")


@dataclass(frozen=True)
class Seed:
    """One crawl seed: a Baike title and, for a polysemous name, the sense's subtitle."""

    title: str
    subtitle: str | None = None

    def key(self) -> tuple[str, str]:
        """Dedup key: case-insensitive, because Baike resolves `iPhone` and `iphone` alike."""
        return (self.title.casefold(), (self.subtitle or "").casefold())

    def line(self) -> str:
        return self.title if not self.subtitle else f"{self.title}\t{self.subtitle}"


@dataclass(frozen=True)
class Malformed:
    """A line that should have carried a seed but did not; `reason` is snake_case."""

    reason: str


#: A parsed line is a seed, a malformed line, or None (structure without a seed).
Parsed = Seed | Malformed | None


# --------------------------------------------------------------------------- text


def clean_text(text: str) -> str:
    """NFKC, whitespace runs collapsed to one space, trimmed.

    NFKC folds full-width Latin letters, digits and ASCII-range punctuation
    (`ＡＢＣ１２３` → `ABC123`, `（` → `(`), so the same entry written by two
    sources gets one key. It also means a subtitle's inner full-width brackets
    become ASCII: compare subtitles after the same normalisation.
    """
    text = unicodedata.normalize("NFKC", text)
    return _WS.sub(" ", text).strip()


def split_trailing_group(text: str, opening: str, closing: str) -> tuple[str, str | None]:
    """Split `name（group）` into (name, group) when the text ENDS with a balanced group.

    Nested groups are matched by depth (`语言学（语言学（语言理论））` →
    `语言学`, `语言学（语言理论）`). Text that is only a group, or whose trailing
    bracket has no partner, is returned whole.
    """
    stripped = text.rstrip()
    if not stripped.endswith(closing):
        return text, None
    depth = 0
    for i in range(len(stripped) - 1, -1, -1):
        ch = stripped[i]
        if ch == closing:
            depth += 1
        elif ch == opening:
            depth -= 1
            if depth == 0:
                head = stripped[:i].rstrip()
                if not head:
                    return text, None
                return head, stripped[i + 1 : -1]
    return text, None


def _garbage_reason(title: str) -> str | None:
    if not title:
        return "empty_title"
    if len(title) > MAX_TITLE_CHARS:
        return "title_too_long"
    if "\ufffd" in title or any(unicodedata.category(c) in ("Cc", "Cs", "Co") for c in title):
        return "bad_characters"
    if title[0] in "{<" or title.startswith(("http://", "https://")):
        return "looks_like_markup"
    if TRIPLE_SEP in title:
        return "unsplit_triple"
    if not any(c.isalnum() for c in title):
        return "no_word_characters"
    return None


def make_seed(raw_title: str, raw_subtitle: str | None = None) -> Seed | Malformed:
    """Normalise a (title, subtitle) pair into a Seed, or say why it is garbage."""
    title = clean_text(raw_title)
    reason = _garbage_reason(title)
    if reason:
        return Malformed(reason)
    subtitle = clean_text(raw_subtitle) if raw_subtitle is not None else ""
    if subtitle and len(subtitle) > MAX_SUBTITLE_CHARS:
        return Malformed("subtitle_too_long")
    if subtitle and ("\ufffd" in subtitle or any(unicodedata.category(c) == "Cc" for c in subtitle)):
        return Malformed("bad_characters")
    return Seed(title, subtitle or None)


def seed_from_head(head: str, *, square_brackets: bool = False) -> Seed | Malformed:
    """A triple head with Baike's disambiguation attached: `龙晶（游戏）` → 龙晶 / 游戏."""
    if not head.strip():
        return Malformed("empty_head")
    title, subtitle = split_trailing_group(head.strip(), _OPEN_FULL, _CLOSE_FULL)
    if subtitle is None and square_brackets:
        title, subtitle = split_trailing_group(head.strip(), "[", "]")
    return make_seed(title, subtitle)


# ------------------------------------------------------------------- line parsers


def seed_from_url(url: str) -> Seed | Malformed:
    """A Baike entry URL (`https://baike.baidu.com/item/长江/12345`) names its title.

    The lemma id is not kept: a seed is a title (plus subtitle), and the crawl
    resolves `/item/<title>` itself.
    """
    m = _ITEM_URL.match(url.strip())
    if not m:
        return Malformed("not_an_entry_url")
    raw = unquote_to_bytes(m.group(1))
    for enc in ("utf-8", "gb18030"):
        try:
            return make_seed(raw.decode(enc))
        except UnicodeDecodeError:
            continue
    return Malformed("bad_characters")


def parse_list_line(line: str) -> Parsed:
    """`title`, `title<TAB>subtitle` or a Baike `/item/` URL; blank lines and `#` comments carry no seed."""
    if not line.strip() or line.lstrip().startswith("#"):
        return None
    if line.strip().startswith(("http://", "https://")):
        return seed_from_url(line)
    cells = line.split("\t")
    if len(cells) > 2:
        return Malformed("too_many_columns")
    return make_seed(cells[0], cells[1] if len(cells) == 2 else None)


def parse_kgclue_line(line: str) -> Parsed:
    """KgCLUE: `{"id", "question", "answer": "head（disambiguation） ||| relation ||| tail"}`."""
    if not line.strip():
        return None
    try:
        record = safejson.loads(line)
    except ValueError:  # not JSON, or nested too deeply (RecursionError before)
        return Malformed("bad_json")
    if not isinstance(record, dict):
        return Malformed("not_an_object")
    answer = record.get("answer")
    if not isinstance(answer, str) or not answer.strip():
        return Malformed("missing_answer")
    parts = answer.split(TRIPLE_SEP)
    if len(parts) != 3:
        return Malformed("answer_not_a_triple")
    return seed_from_head(parts[0])


def parse_nlpcc_line(line: str) -> Parsed:
    """NLPCC-KBQA: only `<triple id=N>\\th ||| r ||| t` lines carry a seed (the head)."""
    text = line.strip()
    if not text or _NLPCC_SEPARATOR.match(text):
        return None
    match = NLPCC_TAG.match(text)
    if not match:
        return Malformed("unrecognised_line")
    if match.group(1) != "triple":
        return None
    cells = match.group(3).split(TRIPLE_SEP)
    if len(cells) != 3:
        return Malformed("triple_not_three_fields")
    if not cells[0].strip():
        return Malformed("empty_head")
    return make_seed(cells[0])


def is_header(cells: list[str]) -> bool:
    return clean_text(cells[0]).casefold() in HEADER_CELLS


def parse_triple_cells(cells: list[str]) -> Parsed:
    """One row of a generic triple file: the head column is the seed."""
    if not any(c.strip() for c in cells):
        return None
    if len(cells) < 3:
        return Malformed("too_few_columns")
    return seed_from_head(cells[0], square_brackets=True)
