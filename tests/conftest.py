"""Shared test fixtures.

Real data lives in ../shared/data beside the project root. Tests that need it
take the `shared_data` fixture, which skips with a clear reason when the folder
is absent (CI always has it).
"""
from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

try:  # the hostile-input suites are property-based
    from hypothesis import settings as _hypothesis_settings

    # CI (CI=true) replays the same examples every run, so a green run stays green and
    # a red one reproduces; developers' runs keep drawing new examples to find new bugs.
    _hypothesis_settings.register_profile("ci", derandomize=True, deadline=None, print_blob=True)
    if os.environ.get("CI"):
        _hypothesis_settings.load_profile("ci")
except ImportError:  # pragma: no cover - hypothesis is in the dev extra
    pass

ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = ROOT.parent / "shared" / "data"


@pytest.fixture(scope="session", autouse=True)
def _private_tmpdir(tmp_path_factory):
    """Beam leaves temp dirs behind: point TMPDIR at pytest's own tmp tree."""
    tmp = tmp_path_factory.mktemp("tmpdir")
    old = os.environ.get("TMPDIR")
    os.environ["TMPDIR"] = str(tmp)
    tempfile.tempdir = None
    yield
    if old is None:
        os.environ.pop("TMPDIR", None)
    else:
        os.environ["TMPDIR"] = old
    tempfile.tempdir = None


@pytest.fixture(scope="session")
def shared_data() -> Path:
    if not SHARED_DATA.is_dir():
        pytest.skip(f"real data folder {SHARED_DATA} is absent (it sits beside the project root in CI)")
    return SHARED_DATA
