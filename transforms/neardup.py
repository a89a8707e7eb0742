"""Near-duplicate texts: MinHash LSH, exact verification, one copy kept (issue 8 §8).

The same entry reaches a build more than once under different keys: from
Baidu and from Sogou (Sogou often copies Baidu's summary), or re-crawled
under another lemma id. Exact deduplication (transforms/dedup.py) cannot see
these copies, since their keys differ. If one copy lands in train and the other
in eval, the benchmark measures memorisation. So near-duplicate texts are
found and reduced to one copy.

Everything here is pure numpy, so the Beam stage (pipeline/neardup_stage.py)
only moves data. Reruns, runners and worker counts give the same result:

* **Shingles.** The text is normalised (width, case, spaces, punctuation:
  transforms/text.py, so Baidu's and Sogou's punctuation do not matter), cut
  into character k-shingles (k = ``shingle_size``), each hashed to 64 bits
  with a fixed polynomial and a bit mixer (never Python's salted ``hash``).
* **MinHash.** ``num_perm`` hash functions ``a·x + b mod 2⁶⁴`` with seeded
  odd ``a``. The minimum of each over the shingles is the signature. Two
  signatures agree in each position with probability ≈ Jaccard(A, B).
  This is datasketch's scheme with a multiply-add family that needs no modulo,
  vectorised over a whole batch of pairs.
* **LSH bands.** The signature is cut into ``bands`` bands of ``rows`` rows
  and each band is hashed to one 64-bit *band key*. Pairs that share a band
  key are candidates: with rows = 4 and 16 bands, a Jaccard of 0.8 gives
  P(candidate) > 0.999, 0.7 gives 0.988, 0.5 gives 0.64, 0.2 gives 0.025.
  The Beam stage groups 24-byte (band key, pair hash, text digest) records
  by band-key bucket, so no worker holds every signature. Exact copies
  (same normalised text) are linked to one representative only.
* **Verification.** Exact copies form one group without any comparison. A
  candidate edge between groups is kept only when the *exact* Jaccard of the
  two shingle sets is ≥ ``threshold``. This is computed only for the few
  pairs that share a band, so MinHash false positives cost nothing downstream.
* **One copy kept.** Pairs are visited in priority order: most triples
  first, then the smallest pair_id. A pair is kept unless a near-duplicate of it
  is already kept. In that case it is dropped, naming that kept copy (the
  first one in priority order). This is a greedy maximal independent set, so
  chains A~B, B~C with A !~ C keep A and C and drop B. The copy a dropped pair
  names is always kept, and no two kept texts are near-duplicates.
"""
from __future__ import annotations

import hashlib
import itertools
from dataclasses import dataclass
from typing import Any, Iterable, Mapping, Sequence

import numpy as np

from transforms.text import _TABLE, _STRAY_DOT

# One LSH band of one pair: band key, pair hash, and a hash of the normalised text
# (equal for exact copies, which then need no pairwise comparison).
BAND = np.dtype([("band", "<u8"), ("pair", "<u8"), ("text", "<u8")])

_POLY = np.uint64(0x100000001B3)          # FNV-1a 64 prime: shingle polynomial
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)     # splitmix64 finaliser constants
_MIX2 = np.uint64(0x94D049BB133111EB)
_BAND_MUL = np.uint64(0x9E3779B97F4A7C15)  # golden ratio: band index and row combining


@dataclass(frozen=True)
class NearDuplicateConfig:
    """Configuration of the ``near_duplicate`` stage (``--no-near-duplicate`` switches it off).

    threshold: exact Jaccard of the shingle sets at or above which two texts
        are near-duplicates. With 5-character shingles one edited character
        changes up to 5 shingles, so a 70-character Sogou copy of a Baidu
        summary with a conjunction dropped and a comma moved is at 0.75: 0.7
        catches such copies (benchmarks/bench_neardup.py measures recall by
        edit rate).
    num_perm: MinHash functions per signature; must be bands × rows.
    bands: LSH bands; rows = num_perm / bands. More bands, more candidates.
    shingle_size: characters per shingle (of the normalised text).
    seed: seeds the MinHash functions (a different seed, other signatures,
        the same verified edges up to LSH misses).
    drop: False finds and reports near-duplicates (and the leakage count)
        but keeps every copy.
    min_chars: texts shorter than this (normalised) are not compared: a
        sentence of a few characters is shared by chance, not copied.
    max_bucket: pairs sharing one band key beyond this are linked only to
        the first of them, so a degenerate band cannot give quadratically
        many candidate edges.
    """

    enabled: bool = True
    threshold: float = 0.7
    num_perm: int = 64
    bands: int = 16
    shingle_size: int = 5
    seed: int = 1
    drop: bool = True
    min_chars: int = 10
    max_bucket: int = 200

    def __post_init__(self) -> None:
        if not 0.0 < self.threshold <= 1.0:
            raise ValueError(f"threshold must be in (0, 1], got {self.threshold}")
        if self.bands <= 0 or self.num_perm <= 0 or self.num_perm % self.bands:
            raise ValueError(f"num_perm ({self.num_perm}) must be a positive multiple of bands ({self.bands})")
        if self.shingle_size <= 0:
            raise ValueError(f"shingle_size must be positive, got {self.shingle_size}")
        if self.max_bucket < 2:
            raise ValueError(f"max_bucket must be at least 2, got {self.max_bucket}")

    @property
    def rows(self) -> int:
        return self.num_perm // self.bands


# ---------------------------------------------------------------- shingles

def normalise_text(text: str) -> str:
    """The text as compared: width, case, spaces and punctuation removed (uncached)."""
    out = (text or "").translate(_TABLE)
    return _STRAY_DOT.sub("", out) if "." in out else out


def _mix(x: np.ndarray) -> np.ndarray:
    x = x ^ (x >> np.uint64(30))
    x = x * _MIX1
    x = x ^ (x >> np.uint64(27))
    x = x * _MIX2
    return x ^ (x >> np.uint64(31))


def shingle_hashes(text: str, k: int, min_chars: int = 0) -> np.ndarray:
    """Sorted unique 64-bit hashes of the normalised text's character k-shingles.

    Empty when the normalised text is shorter than ``min_chars`` (or empty).
    A text shorter than k is one shingle.
    """
    norm = normalise_text(text)
    if not norm or len(norm) < min_chars:
        return np.empty(0, dtype=np.uint64)
    codes = np.frombuffer(norm.encode("utf-32-le"), dtype="<u4").astype(np.uint64)
    m = max(1, len(codes) - k + 1)
    width = min(k, len(codes))
    h = np.zeros(m, dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(width):
            h = h * _POLY + codes[j:j + m]
        return np.unique(_mix(h + np.uint64(width)))


def batch_shingles(texts: Sequence[str], k: int, min_chars: int) -> tuple[np.ndarray, list[np.ndarray]]:
    """The shingle hashes of many texts at once, for MinHash: (indices of the texts
    sketched, one hash array per such text, repeats included).

    The same hashes as ``shingle_hashes`` (but not deduplicated: a minimum does
    not care), computed over the concatenation of the texts so numpy's per-call
    cost is paid per batch: about 4x faster than text by text on Baike summaries.
    """
    norms = [normalise_text(t) for t in texts]
    lengths = np.array([len(n) for n in norms], dtype=np.int64)
    ok = (lengths > 0) & (lengths >= min_chars)
    idx = np.flatnonzero(ok)
    if not len(idx):
        return idx, []
    short = idx[lengths[idx] < k]
    if len(short):  # a text shorter than a shingle is one shingle: rare, done one by one
        out = {int(i): shingle_hashes(texts[i], k, min_chars) for i in short}
        long_idx = idx[lengths[idx] >= k]
    else:
        out, long_idx = {}, idx
    if len(long_idx):
        joined = "".join(norms[i] for i in long_idx)
        codes = np.frombuffer(joined.encode("utf-32-le"), dtype="<u4").astype(np.uint64)
        lens = lengths[long_idx]
        n = len(codes) - k + 1
        h = np.zeros(n, dtype=np.uint64)
        with np.errstate(over="ignore"):
            for j in range(k):
                h = h * _POLY + codes[j:j + n]
            starts = np.concatenate(([0], np.cumsum(lens)[:-1]))
            counts = lens - k + 1
            # Shingle starts inside each text: start + 0 .. start + count - 1.
            first = np.repeat(starts, counts)
            within = np.arange(counts.sum()) - np.repeat(np.concatenate(([0], np.cumsum(counts)[:-1])), counts)
            hashed = _mix(h[first + within] + np.uint64(k))
        for i, part in zip(long_idx, np.split(hashed, np.cumsum(counts)[:-1])):
            out[int(i)] = part
    return idx, [out[int(i)] for i in idx]


def jaccard(a: np.ndarray, b: np.ndarray) -> float:
    """Exact Jaccard similarity of two sorted unique hash arrays."""
    if not len(a) or not len(b):
        return 0.0
    inter = len(np.intersect1d(a, b, assume_unique=True))
    return inter / (len(a) + len(b) - inter)


# ----------------------------------------------------------------- MinHash

def _perms(cfg: NearDuplicateConfig) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(cfg.seed)
    a = rng.integers(1, 2**63, size=cfg.num_perm, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    b = rng.integers(0, 2**63, size=cfg.num_perm, dtype=np.uint64)
    return a, b


_PERM_CACHE: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}


def signatures(shingles: Sequence[np.ndarray], cfg: NearDuplicateConfig, chunk: int = 1 << 21) -> np.ndarray:
    """(n, num_perm) MinHash signatures of non-empty shingle arrays, batch-vectorised.

    The shingles of many texts are concatenated and ``np.minimum.reduceat``
    takes each text's minimum, so numpy's per-call cost is paid per chunk of
    texts, not per text.
    """
    key = (cfg.seed, cfg.num_perm)
    if key not in _PERM_CACHE:
        _PERM_CACHE[key] = _perms(cfg)
    a, b = _PERM_CACHE[key]
    out = np.empty((len(shingles), cfg.num_perm), dtype=np.uint64)
    start = 0
    while start < len(shingles):
        # As many texts as fit in `chunk` matrix cells (at least one).
        end, cells = start, 0
        while end < len(shingles) and (end == start or cells + len(shingles[end]) * cfg.num_perm <= chunk):
            cells += len(shingles[end]) * cfg.num_perm
            end += 1
        part = shingles[start:end]
        x = np.concatenate(part)
        offsets = np.zeros(len(part), dtype=np.int64)
        np.cumsum([len(s) for s in part[:-1]], out=offsets[1:])
        with np.errstate(over="ignore"):
            m = a[:, None] * x[None, :] + b[:, None]
        out[start:end] = np.minimum.reduceat(m, offsets, axis=1).T
        start = end
    return out


def band_keys(sigs: np.ndarray, cfg: NearDuplicateConfig) -> np.ndarray:
    """(n, bands) 64-bit keys, one per band of each signature; the band index is mixed in."""
    n = sigs.shape[0]
    rows = sigs.reshape(n, cfg.bands, cfg.rows)
    with np.errstate(over="ignore"):
        h = (np.arange(cfg.bands, dtype=np.uint64) + np.uint64(1)) * _BAND_MUL
        h = np.broadcast_to(h, (n, cfg.bands)).copy()
        for r in range(cfg.rows):
            h = _mix(h ^ rows[:, :, r])
    return h


def text_digest(text: str) -> int:
    """64-bit hash of the normalised text: equal for exact copies."""
    return int.from_bytes(hashlib.blake2b(normalise_text(text).encode("utf-8"), digest_size=8).digest(), "little")


def band_records(pair_hashes: Sequence[int], keys: np.ndarray, text_digests: Sequence[int] | None = None
                 ) -> np.ndarray:
    """BAND records (band key, pair hash, text digest): one per band of each pair."""
    n, bands = keys.shape
    out = np.empty(n * bands, dtype=BAND)
    out["band"] = keys.reshape(-1)
    out["pair"] = np.repeat(np.asarray(pair_hashes, dtype=np.uint64), bands)
    digests = pair_hashes if text_digests is None else text_digests  # None: every text its own
    out["text"] = np.repeat(np.asarray(digests, dtype=np.uint64), bands)
    return out


# ---------------------------------------------------------- candidate edges

def candidate_edges(table: np.ndarray, max_bucket: int) -> tuple[np.ndarray, int]:
    """Pairs that share a band key, as a sorted unique (E, 2) uint64 array (a < b).

    Inside one band key, exact copies (same text digest) are linked to the
    copy with the smallest pair hash only, and those representatives to each
    other. Every band key that holds one copy of a text holds all of them, so
    the representative is the same everywhere, and the decision
    (``reduce_copies``) sees the copies through their exact group. A text
    given k times costs k edges, not k(k-1)/2.

    Also returns how many band keys held more than ``max_bucket`` distinct
    texts (the representatives beyond the first max_bucket are linked to the
    first only).
    """
    empty = np.empty((0, 2), dtype=np.uint64)
    if len(table) < 2:
        return empty, 0
    t = table[np.lexsort((table["pair"], table["text"], table["band"]))]
    band, text, pair = t["band"], t["text"], t["pair"]
    fresh = np.ones(len(t), dtype=bool)  # drop a pair's repeated band keys
    fresh[1:] = (band[1:] != band[:-1]) | (pair[1:] != pair[:-1])
    band, text, pair = band[fresh], text[fresh], pair[fresh]
    same = band[1:] == band[:-1]
    if not same.any():
        return empty, 0
    starts = np.flatnonzero(np.concatenate(([True], ~same)))
    ends = np.append(starts[1:], len(band))
    multi = (ends - starts) >= 2
    edges: list[tuple[int, int]] = []
    oversized = 0
    for s, e in zip(starts[multi].tolist(), ends[multi].tolist()):
        texts, pairs = text[s:e], pair[s:e]
        # Sorted by text then pair: the first row of each text is its representative.
        first = np.ones(e - s, dtype=bool)
        first[1:] = texts[1:] != texts[:-1]
        rep_of = np.maximum.accumulate(np.where(first, np.arange(e - s), 0))
        copies = np.flatnonzero(~first)
        edges.extend(zip(pairs[rep_of[copies]].tolist(), pairs[copies].tolist()))
        reps = pairs[first].tolist()
        if len(reps) > max_bucket:
            oversized += 1
            edges.extend((reps[0], p) for p in reps[max_bucket:])
            reps = reps[:max_bucket]
        edges.extend(itertools.combinations(reps, 2))
    arr = np.array(edges, dtype=np.uint64).reshape(-1, 2)
    arr.sort(axis=1)
    return unique_edges(arr), oversized


def unique_edges(edges: np.ndarray) -> np.ndarray:
    """Rows of an (E, 2) array, sorted and without repeats (lexsort: much faster than unique(axis=0))."""
    if not len(edges):
        return np.empty((0, 2), dtype=np.uint64)
    e = edges[np.lexsort((edges[:, 1], edges[:, 0]))]
    keep = np.ones(len(e), dtype=bool)
    keep[1:] = (e[1:, 0] != e[:-1, 0]) | (e[1:, 1] != e[:-1, 1])
    return e[keep]


# -------------------------------------------------------------- decisions

@dataclass(frozen=True)
class Candidate:
    """What the decision needs of a pair that shares a band with another."""

    pair_hash: int
    pair_id: str
    entity: str
    num_triples: int
    split: str | None
    shingles: np.ndarray

    def priority(self) -> tuple[int, str]:
        """Smaller first: most triples, then the smallest pair_id."""
        return (-self.num_triples, self.pair_id)

    def digest(self) -> bytes:
        """Equal for texts with the same shingle set (Jaccard 1)."""
        return hashlib.blake2b(self.shingles.tobytes(), digest_size=16).digest()


def exact_groups(candidates: Iterable[Candidate]) -> dict[str, str]:
    """{pair_id: pair_id of the best copy (priority order) with the same shingle set}.

    Copies of one text (a re-crawl, the same summary under several lemma ids)
    are settled here without comparing them pairwise, so a text given k times
    costs k, not k(k-1)/2 verifications.
    """
    best: dict[bytes, Candidate] = {}
    digest: dict[str, bytes] = {}
    for c in candidates:
        d = digest[c.pair_id] = c.digest()
        if d not in best or c.priority() < best[d].priority():
            best[d] = c
    return {pid: best[d].pair_id for pid, d in digest.items()}


def verify(edges: np.ndarray, candidates: Iterable[Candidate], threshold: float,
           rep: Mapping[str, str] | None = None) -> list[tuple[str, str, float]]:
    """Candidate edges whose exact shingle Jaccard is ≥ threshold: (pair_id, pair_id, similarity), sorted.

    With ``rep`` (exact_groups), each edge is moved to the groups' best
    copies and verified once per pair of groups.
    """
    by_hash = {c.pair_hash: c for c in candidates}
    by_id = {c.pair_id: c for c in by_hash.values()}
    seen: set[tuple[str, str]] = set()
    out = []
    for a, b in edges.tolist():
        ca, cb = by_hash.get(a), by_hash.get(b)
        if ca is None or cb is None:  # an endpoint not among `candidates` (e.g. survivors only)
            continue
        if rep is not None:
            ca, cb = by_id[rep[ca.pair_id]], by_id[rep[cb.pair_id]]
        x, y = sorted((ca.pair_id, cb.pair_id))
        if x == y or (x, y) in seen:
            continue
        seen.add((x, y))
        sim = jaccard(ca.shingles, cb.shingles)
        if sim >= threshold:
            out.append((x, y, round(sim, 4)))
    return sorted(out)


def choose_kept(candidates: Iterable[Candidate], verified: Sequence[tuple[str, str, float]]
                ) -> dict[str, dict[str, Any]]:
    """{dropped pair_id: {"kept", "kept_entity", "similarity"}} by greedy priority (see module docstring)."""
    info = {c.pair_id: c for c in candidates}
    neighbours: dict[str, dict[str, float]] = {}
    for a, b, sim in verified:
        neighbours.setdefault(a, {})[b] = sim
        neighbours.setdefault(b, {})[a] = sim
    kept: set[str] = set()
    dropped: dict[str, dict[str, Any]] = {}
    for pid in sorted(neighbours, key=lambda p: info[p].priority()):
        kept_near = [n for n in neighbours[pid] if n in kept]
        if not kept_near:
            kept.add(pid)
            continue
        best = min(kept_near, key=lambda n: info[n].priority())
        dropped[pid] = {"kept": best, "kept_entity": info[best].entity, "similarity": neighbours[pid][best]}
    return dropped


def reduce_copies(candidates: Sequence[Candidate], rep: Mapping[str, str],
                  verified: Sequence[tuple[str, str, float]]) -> dict[str, dict[str, Any]]:
    """What to drop: exact copies settle on their group's best copy (``rep``), and the
    groups' best copies go through choose_kept over the ``verified`` edges between them.
    A copy whose best copy is dropped names the copy kept in its place (the same
    text, so the same similarity)."""
    info = {c.pair_id: c for c in candidates}
    reps = [info[p] for p in sorted(set(rep.values()))]
    dropped = choose_kept(reps, verified)
    for pid, r in sorted(rep.items()):
        if pid == r:
            continue
        if r in dropped:
            dropped[pid] = dict(dropped[r])
        else:
            dropped[pid] = {"kept": r, "kept_entity": info[r].entity, "similarity": 1.0}
    return dropped


def leaked_eval_texts(candidates: Iterable[Candidate], rep: Mapping[str, str],
                      verified: Sequence[tuple[str, str, float]], dropped: Mapping[str, Any]) -> int:
    """Eval pairs that stay whose text near-duplicates the text of a train pair that stays.

    Counted on exact groups: two pairs are near-duplicates when they share a group
    (``rep``) or their groups' best copies have a ``verified`` edge.
    """
    stay = [c for c in candidates if c.pair_id not in dropped]
    train_groups = {rep[c.pair_id] for c in stay if c.split == "train"}
    neighbours: dict[str, set[str]] = {}
    for a, b, _ in verified:
        neighbours.setdefault(a, set()).add(b)
        neighbours.setdefault(b, set()).add(a)
    return sum(
        1 for c in stay
        if c.split == "eval" and (
            rep[c.pair_id] in train_groups or neighbours.get(rep[c.pair_id], set()) & train_groups)
    )


def decide(edges: np.ndarray, candidates: Sequence[Candidate], cfg: NearDuplicateConfig,
           oversized: int = 0) -> dict[str, Any]:
    """The stage's global decision: what to drop, and the numbers for stats.json."""
    entity = {c.pair_id: c.entity for c in candidates}
    rep = exact_groups(candidates)
    verified = verify(edges, candidates, cfg.threshold, rep)
    dropped = reduce_copies(candidates, rep, verified) if cfg.drop else {}
    splits_known = all(c.split is not None for c in candidates)
    return {
        "dropped": dropped,
        "stats": {
            "candidate_edges": int(len(edges)),
            "candidate_pairs": len(candidates),
            "oversized_band_buckets": int(oversized),
            "exact_copy_groups": len(set(rep.values())),
            "verified_edges": len(verified),
            "dropped": len(dropped),
            "dropped_other_entity": sum(1 for d, v in dropped.items() if entity[d] != v["kept_entity"]),
            "near_duplicate_texts": leaked_eval_texts(candidates, rep, verified, dropped) if splits_known else None,
        },
    }
