"""Hermetic: the suite's own tests pass with another package's backend plugin installed in
the environment it runs in (here one that cannot even load, which `--help` would list). Tests
in the pytest process never read it (conftest's `_no_third_party_backends`); the processes those
tests start, `schemanav` itself included, never see it (tests/hermetic/sitecustomize.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import python_path

ROOT = Path(__file__).resolve().parents[1]


def _installed(site: Path, name: str, entry_points: bytes, module: str = "") -> None:
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    if module:
        (site / f"{name}.py").write_text(module)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_bytes(entry_points)


@pytest.mark.slow
def test_the_suite_passes_beside_a_third_party_plugin(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _installed(
        site,
        "elsewhere_backend",
        b"[schemanav.backends]\nelsewhere = elsewhere_backend\n",
        module='raise ImportError("not for schemanav\'s tests")\n',
    )
    # the environment the suite runs in: these plugins on the path before the session starts
    env = {**os.environ, "PYTHONPATH": python_path(str(site))}
    env.pop("HIDDEN_BACKEND_PLUGINS", None)
    seen = subprocess.run(
        [sys.executable, "-m", "schemanav", "search", "--help"],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert seen.returncode == 0, seen.stderr
    assert "elsewhere" in seen.stdout  # installed, as far as schemanav can tell
    in_process = ["tests/test_backend_contract.py", "tests/test_settings.py"]
    in_process.append("tests/test_cli_search.py")  # every backend the registry lists
    started = "tests/test_plugins.py::test_an_installed_plugin_is_a_backend_in_help_and_in_bench"
    for chosen in (["-m", "not slow", *in_process], [started]):  # the latter: exact lists
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:xdist",
             *chosen],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stdout[-3000:]
        assert "elsewhere" not in done.stdout
