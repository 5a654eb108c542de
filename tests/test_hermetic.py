"""Hermetic: the suite's own tests pass with another package's backend plugin installed (one
that cannot even load: no test of this project may touch it)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _third_party_backend(site: Path) -> None:
    package = site / "elsewhere_backend"
    package.mkdir()
    (package / "__init__.py").write_text('raise ImportError("not for schemanav\'s tests")\n')
    info = site / "elsewhere_backend-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: elsewhere-backend\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[schemanav.backends]\nelsewhere = elsewhere_backend:Backend\n"
    )


@pytest.mark.slow
def test_the_tests_that_list_backends_pass_beside_a_third_party_plugin(tmp_path: Path) -> None:
    _third_party_backend(tmp_path)
    env = {**os.environ, "PYTHONPATH": str(tmp_path)}
    seen = subprocess.run(
        [sys.executable, "-c", "from schemanav.retrieval.registry import backend_names as b; "
         "print(b())"],
        env=env, capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert "elsewhere" in seen.stdout  # the plugin is installed, as far as schemanav can tell
    tests = ["tests/test_backend_contract.py", "tests/test_settings.py", "tests/test_cli_search.py"]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "not slow",
         *tests],
        cwd=ROOT, env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-3000:]
    assert "elsewhere" not in done.stdout
