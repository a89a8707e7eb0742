"""Typed configuration of `cdtp build`.

`BuildConfig` composes one dataclass per stage. Every stage reads only its own
section, so a stage's knobs live next to its code and the echo in stats.json
records exactly what a run decided with.

Sources, later wins: dataclass defaults < `--config FILE.json` < CLI flags
(including generic `--set section.field=JSON` overrides).

Issue-4 stages add their own typed section here, e.g.

    search: SearchConfig | None = None     # None or enabled=False: stage skipped

and wire their PTransform into pipeline/build.py at the marked insertion point.
"""
from __future__ import annotations

import dataclasses
import types
import typing
from dataclasses import dataclass, field
from typing import Any

from pipeline.errors import CdtpError
from transforms import safejson
from transforms.redundancy import CleaningConfig
from transforms.relations import RelationFrequencyConfig
from transforms.search.types import SearchConfig
from transforms.domain import DomainConfig
from transforms.entity_type import TypingConfig
from transforms.neardup import NearDuplicateConfig
from transforms.review import RelationReviewConfig
from transforms.split import SplitConfig
from transforms.items.config import ItemsConfig


@dataclass
class InputConfig:
    """Where raw entries come from: crawler JSON Lines shards and/or Parquet."""

    # File patterns (Beam filesystems: local paths, gs://...). A pattern may
    # match `.jsonl`, `.jsonl.gz`, `.json`, `.parquet` files.
    patterns: list[str] = field(default_factory=list)
    # Minimum relation count for a name to enter the global relation
    # vocabulary used by the redundant-description filter (side input).
    vocabulary_min_count: int = 1


@dataclass
class OutputConfig:
    """How the Parquet outputs are laid out."""

    out_dir: str = ""
    # Shards per output (per partition for pairs). 0 = automatic: one shard per
    # `input_bytes_per_shard` of input, decided at launch from the file sizes
    # (deterministic for a given input, and no counting pass over the rows).
    num_shards: int = 0
    input_bytes_per_shard: int = 16 * 1024 * 1024
    # Rows per Parquet row group: small enough that a reader can skip, large
    # enough that column statistics are worth having.
    row_group_size: int = 50_000
    # Hive partition columns of DIR/pairs (issue 4). A null value is written
    # as `domain=unknown` / `split=unassigned`.
    partition_by: tuple[str, ...] = ("domain", "split")
    # Top relations reported in stats.json (the paper's Figure 6).
    top_relations: int = 20

    def __post_init__(self) -> None:
        # -1 once ran as automatic while stats.json recorded -1; 0 rows per group, one row each
        if self.num_shards < 0:
            raise ValueError(f"num_shards must be >= 0 (0 = one per {self.input_bytes_per_shard:,} bytes of input)")
        if self.input_bytes_per_shard < 1 or self.row_group_size < 1 or self.top_relations < 0:
            raise ValueError("input_bytes_per_shard and row_group_size must be >= 1, top_relations >= 0")


@dataclass
class BuildConfig:
    """Everything `cdtp build` decides with, one typed section per stage."""

    input: InputConfig = field(default_factory=InputConfig)
    # redundant_triple + redundant_description stages (paper §3.2).
    cleaning: CleaningConfig = field(default_factory=CleaningConfig)
    # relation_frequency stage (paper §3.2, App. B.1).
    relation_frequency: RelationFrequencyConfig = field(default_factory=RelationFrequencyConfig)
    output: OutputConfig = field(default_factory=OutputConfig)
    # ---- issue-4 stage sections go here (typed, Optional, default None) ----
    # entity_typing stage: entity_type + triples[].tail_type (on by default).
    typing: TypingConfig = field(default_factory=TypingConfig)
    # domain_classification stage: HP/HS/TE/NE/unknown + confidence + evidence; --no-domain skips it.
    domain: DomainConfig = field(default_factory=DomainConfig)
    # relation_review stage (annotators' decisions): None = off; --relation-review FILE sets it.
    relation_review: RelationReviewConfig | None = None
    # near_duplicate stage (issue 8 §8): MinHash LSH over the texts, one copy kept; --no-near-duplicate skips it.
    near_duplicate: NearDuplicateConfig = field(default_factory=NearDuplicateConfig)
    # split stage (§4.1): train/eval split + stratified subset; on by default, --no-split skips it.
    split: SplitConfig = field(default_factory=SplitConfig)
    # search_validation stage (§3.2): off by default; --search-backend local|searxng switches it on.
    search: SearchConfig = field(default_factory=SearchConfig)
    # items stage (issue 8): QA/KGC/T2T/T2KG items after split; on by default, --no-items skips it.
    items: ItemsConfig = field(default_factory=ItemsConfig)

    def to_dict(self) -> dict[str, Any]:
        return _jsonable(dataclasses.asdict(self))


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        items = [_jsonable(v) for v in value]
        return sorted(items, key=repr) if isinstance(value, (set, frozenset)) else items
    return value


def _coerce(tp: Any, value: Any, where: str) -> Any:
    """Turn a JSON value into the declared field type, or explain why not."""
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if tp is Any:
        return value
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        errors = []
        for arg in args:
            if arg is type(None):
                continue
            try:
                return _coerce(arg, value, where)
            except CdtpError as exc:
                errors.append(str(exc))
        raise CdtpError(errors[0] if errors else f"{where}: bad value {value!r}")
    if dataclasses.is_dataclass(tp):
        if isinstance(value, tp):
            return value
        if not isinstance(value, dict):
            raise CdtpError(f"{where}: expected an object, got {value!r}")
        return from_dict(tp, value, where)
    if origin in (list, tuple, set, frozenset):
        if not isinstance(value, (list, tuple, set, frozenset)):
            raise CdtpError(f"{where}: expected a list, got {value!r}")
        inner = args[0] if args else Any
        items = [_coerce(inner, v, f"{where}[]") for v in value]
        return origin(items)
    if origin is dict:
        if not isinstance(value, dict):
            raise CdtpError(f"{where}: expected an object, got {value!r}")
        kt, vt = args if args else (Any, Any)
        return {_coerce(kt, k, where): _coerce(vt, v, f"{where}.{k}") for k, v in value.items()}
    if tp is bool:
        if isinstance(value, bool):
            return value
        raise CdtpError(f"{where}: expected true/false, got {value!r}")
    if tp is int:
        if isinstance(value, int) and not isinstance(value, bool):
            return value
        raise CdtpError(f"{where}: expected an integer, got {value!r}")
    if tp is float:
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            return float(value)
        raise CdtpError(f"{where}: expected a number, got {value!r}")
    if tp is str:
        if isinstance(value, str):
            return value
        raise CdtpError(f"{where}: expected a string, got {value!r}")
    return value


def from_dict(cls: type, data: dict[str, Any], where: str = "config") -> Any:
    """Build dataclass `cls` from a JSON object; unknown keys are an error."""
    hints = typing.get_type_hints(cls)
    names = {f.name for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise CdtpError(f"{where}: unknown key(s) {unknown}; known: {sorted(names)}")
    kwargs = {k: _coerce(hints[k], v, f"{where}.{k}") for k, v in data.items()}
    try:
        return cls(**kwargs)
    except ValueError as exc:  # a section's own validation (__post_init__)
        raise CdtpError(f"{where}: {exc}") from None


def _merge(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for k, v in over.items():
        if isinstance(v, dict) and isinstance(out.get(k), dict):
            out[k] = _merge(out[k], v)
        else:
            out[k] = v
    return out


def _section_default(cls: type, name: str) -> dict[str, Any]:
    """Defaults of a (possibly Optional, default None) dataclass section."""
    hint = typing.get_type_hints(cls)[name]
    for arg in (hint, *typing.get_args(hint)):
        if dataclasses.is_dataclass(arg):
            return dataclasses.asdict(arg())
    return {}


def load_config(
    config_file: str | None = None,
    overrides: dict[str, Any] | None = None,
    sets: list[str] | None = None,
) -> BuildConfig:
    """Defaults < JSON file < explicit overrides (nested dict) < `--set a.b=JSON`."""
    data: dict[str, Any] = {}
    if config_file:
        try:
            with open(config_file, encoding="utf-8") as fh:
                data = safejson.loads(fh.read())
        except OSError as exc:
            raise CdtpError(f"cannot read config file {config_file}: {exc}") from exc
        except ValueError as exc:  # not JSON, not UTF-8, or nested too deeply
            raise CdtpError(f"config file {config_file} is not valid JSON: {exc}") from None
        if not isinstance(data, dict):
            raise CdtpError(f"config file {config_file} must hold a JSON object")
    if overrides:
        data = _merge(data, overrides)
    for item in sets or []:
        path, sep, raw = item.partition("=")
        if not sep or not path:
            raise CdtpError(f"--set expects section.field=VALUE, got {item!r}")
        try:
            value = safejson.loads(raw)
        except safejson.JSONTooDeep as exc:
            raise CdtpError(f"--set {path}: {exc}") from None
        except ValueError:
            value = raw  # a bare string
        keys = path.split(".")
        sections = {f.name for f in dataclasses.fields(BuildConfig)}
        if len(keys) < 2 or not all(keys):
            raise CdtpError(f"--set expects section.field=VALUE, got {item!r}")
        if keys[0] not in sections:
            raise CdtpError(f"--set {path}: unknown section {keys[0]!r}; sections: {', '.join(sorted(sections))}")
        node = data
        for key in keys[:-1]:
            if not isinstance(node.get(key), dict):
                # An Optional section switched on from the command line starts
                # from its dataclass defaults.
                node[key] = _section_default(BuildConfig, key) if node is data else {}
            node = node[key]
        node[keys[-1]] = value
    return from_dict(BuildConfig, data)
