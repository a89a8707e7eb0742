"""Reading the seed list `cdtp crawl --seeds FILE` takes.

The format is the plain list `cdtp seeds` writes: one entry title per line,
optionally `title<TAB>subtitle` for one sense of a polysemous name. Blank
lines and `#` comments are ignored; duplicates are dropped in order.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from crawlers.keys import seed_key
from pipeline.errors import CdtpError


@dataclass(frozen=True)
class Seed:
    title: str
    subtitle: str | None = None

    @property
    def label(self) -> str:
        return f"{self.title}（{self.subtitle}）" if self.subtitle else self.title

    def url(self, base_url: str) -> str:
        return f"{base_url.rstrip('/')}/item/{quote(self.title, safe='')}"

    @property
    def key(self) -> str:
        return seed_key(self.title, self.subtitle)


def read_seeds(path: str | Path) -> list[Seed]:
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise CdtpError(f"seed file {p} does not exist") from None
    except UnicodeDecodeError as exc:
        raise CdtpError(f"seed file {p} is not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    except OSError as exc:
        raise CdtpError(f"cannot read seed file {p}: {exc.strerror}") from None
    from crawlers.seed_lines import Malformed, parse_list_line

    seeds: list[Seed] = []
    seen: set[Seed] = set()
    bad: list[str] = []
    for n, raw in enumerate(text.splitlines(), 1):
        # `cdtp seeds`' own line checks: a title of 100,000 characters was
        # dropped by Scrapy's URL limit with no trace in the crawl's stats, a
        # third column ignored, `<TAB>subtitle` crawled as a title
        parsed = parse_list_line(raw)
        if parsed is None:
            continue
        if isinstance(parsed, Malformed):
            bad.append(f"line {n}: {parsed.reason}")
            continue
        line = raw.strip()
        if line.startswith(("http://", "https://")):  # a Baike /item/ URL names its title
            seed = Seed(parsed.title, parsed.subtitle)
        else:
            # The checked line is crawled as written: parse_list_line's seed is
            # NFKC-folded (`（` to `(`, `Ｃ` to `C`), and the title goes into the
            # request path and every entry's `seed` field as the list gives it.
            title, _, subtitle = line.partition("\t")
            seed = Seed(title.strip(), subtitle.strip() or None)
        if seed not in seen:
            seen.add(seed)
            seeds.append(seed)
    if bad:
        raise CdtpError(f"seed file {p}: {len(bad)} line(s) hold no seed ({'; '.join(bad[:5])}"
                        f"{'; …' if len(bad) > 5 else ''}); `cdtp seeds --out FILE {p}` writes the good ones")
    return seeds


def parse_shard(text: str) -> tuple[int, int]:
    """`i/N` (0 <= i < N) from `cdtp crawl --shard`, or a clear error."""
    index, sep, count = text.partition("/")
    try:
        i, n = int(index), int(count)
    except ValueError:
        i, n = -1, 0
    if not sep or n < 1 or not 0 <= i < n:
        raise CdtpError(f"--shard takes i/N with 0 <= i < N (e.g. 0/4), got {text!r}")
    return i, n


def shard_of(seed: Seed, n: int) -> int:
    """The shard of a seed: crc32 of its key (stable across processes, machines and Python versions)."""
    import zlib

    return zlib.crc32(seed.key.encode("utf-8")) % n


def shard_seeds(seeds: list[Seed], i: int, n: int) -> list[Seed]:
    """The seeds crawler i of n starts from: every seed goes to exactly one of the n crawlers."""
    return [s for s in seeds if shard_of(s, n) == i]
