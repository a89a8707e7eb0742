"""Spill a PCollection to temporary files in front of a global decision.

Why: a stage that needs a side input computed from ALL pairs (the relation
counts, the split's strata) cannot start before that side input exists,
so the runner must hold the stage's whole main input until then. Beam's
DirectRunner (FnApiRunner) holds it in memory, which made peak RSS grow with
the input. `SpillToFiles` writes the elements to files of about `per_file`
pairs (JSON Lines, through Beam's FileSystems, so gs:// works) and only the
file names wait for the side input; the consumer re-reads one file at a time.

The files are data only, never pickle: in a shared bucket whoever can write
under OUT/_spill could otherwise run code in every worker (issue 11). JSON
has no tuples, so an element that holds tuples is spilled with a `restore`
function that rebuilds them (the split stage's (stratum, rank, pair)).

The order of elements is not kept (no stage depends on it) and a retried
bundle writes new, uniquely named files, so no element is read twice.
"""
from __future__ import annotations

import json
import uuid
from typing import Any, Callable

import apache_beam as beam
from apache_beam.io.filesystem import CompressionTypes
from apache_beam.io.filesystems import FileSystems

from pipeline.batch import count_items
from pipeline.errors import CdtpError
from transforms import safejson

SUFFIX = ".jsonl"


def write_run(directory: str, prefix: str, items: list) -> str:
    """Write `items` (JSON values) as JSON Lines to a new, uniquely named file under `directory`; its path."""
    path = FileSystems.join(directory, f"{prefix}-{uuid.uuid4().hex}{SUFFIX}")
    dumps = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), check_circular=False).encode
    text = "\n".join(dumps(item) for item in items) + "\n"
    with FileSystems.create(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        fh.write(text.encode("utf-8", "surrogatepass"))
    return path


def read_run(path: str, restore: Callable[[Any], Any] | None = None) -> list:
    """The items of a spill file, each passed through `restore` when given.

    A damaged file is a clear error naming it, never code run: the files
    hold JSON only.
    """
    with FileSystems.open(path, compression_type=CompressionTypes.UNCOMPRESSED) as fh:
        data = fh.read()
    try:
        items = [safejson.decode(line) for line in data.split(b"\n") if line]
    except (ValueError, RecursionError) as exc:
        raise CdtpError(f"spill file {path} is damaged ({type(exc).__name__}: {str(exc)[:120]}); "
                        "rerun the build") from None
    return [restore(item) for item in items] if restore else items


def remove_dir(_, directory: str) -> None:
    """Delete a spill directory once its files are read (a leftover is harmless).

    An object store (s3://, gs://) has no directories: `exists(dir)` is false
    and deleting the bare prefix deletes nothing, so there the files under it
    are matched and deleted one by one.
    """
    try:
        if "://" in directory and not directory.startswith("file://"):
            found = FileSystems.match([FileSystems.join(directory, "**")])[0].metadata_list
            if found:
                FileSystems.delete([m.path for m in found])
        elif FileSystems.exists(directory):
            FileSystems.delete([directory])
    except Exception:  # noqa: BLE001 - cleanup must not fail a finished build
        pass


class _SpillFn(beam.DoFn):
    def __init__(self, directory: str, prefix: str, per_file: int):
        self.directory = directory
        self.prefix = prefix
        self.per_file = max(1, per_file)

    def start_bundle(self):
        self._items: list = []
        self._count = 0

    def process(self, element):
        self._items.append(element)
        self._count += count_items(element)  # a batch counts its pairs
        if self._count >= self.per_file:
            items, self._items, self._count = self._items, [], 0
            yield write_run(self.directory, self.prefix, items)

    def finish_bundle(self):
        from apache_beam.transforms.window import GlobalWindows

        if self._items:
            items, self._items, self._count = self._items, [], 0
            yield GlobalWindows.windowed_value(write_run(self.directory, self.prefix, items))


class SpillToFiles(beam.PTransform):
    """elements -> file names (a Reshuffle makes the names, not the elements, the barrier)."""

    def __init__(self, directory: str, prefix: str, per_file: int = 5_000):
        super().__init__()
        self.directory = directory
        self.prefix = prefix
        self.per_file = per_file

    def expand(self, elements):
        return (elements
                | "Spill" >> beam.ParDo(_SpillFn(self.directory, self.prefix, self.per_file))
                | "SpreadFiles" >> beam.Reshuffle())


class ReadSpilled(beam.PTransform):
    """file names from SpillToFiles -> the elements again (through `restore`, for tuples)."""

    def __init__(self, restore: Callable[[Any], Any] | None = None):
        super().__init__()
        self.restore = restore

    def expand(self, paths):
        return paths | "ReadSpilled" >> beam.FlatMap(read_run, self.restore)
