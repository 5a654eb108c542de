"""Backends as plugins: an installed package's `schemanav.backends` entry point adds a backend.

The plugin under tests/data/schemanav-wordcount-backend is installed as a third party would
install it (pip, its own pyproject, a real .dist-info with its entry points) into a temporary
directory put on PYTHONPATH, and the real `schemanav` command is run beside it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import REPO_ROOT, python_path

PLUGIN = Path(__file__).parent / "data" / "schemanav-wordcount-backend"

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A directory holding the installed plugin (built from a copy: no build files left in
    tests/data)."""
    root = tmp_path_factory.mktemp("plugin")
    source = shutil.copytree(PLUGIN, root / "source")
    target = root / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
         "--no-index", "--target", str(target), str(source)],
        check=True, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert list(target.glob("schemanav_wordcount_backend-*.dist-info/entry_points.txt"))
    return target


def schemanav(site: Path | None, tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("SCHEMANAV_")}
    env["PYTHONPATH"] = python_path(str(REPO_ROOT / "src"), *([str(site)] if site else []))
    env["SCHEMANAV_CACHE_DIR"] = str(tmp_path / "cache")
    return subprocess.run(
        [sys.executable, "-m", "schemanav", *args],
        capture_output=True, text=True, timeout=120, cwd=tmp_path, env=env, check=False,
    )  # fmt: skip


def test_an_installed_plugin_is_a_backend_in_help_and_in_bench(site: Path, tmp_path: Path) -> None:
    helped = schemanav(site, tmp_path, "search", "--help")
    assert helped.returncode == 0, helped.stderr
    listed = " ".join(helped.stdout.split())
    assert "embedding-local, hybrid, hybrid-local, wordcount [default: structural]" in listed
    assert "hybrid-local, wordcount" in " ".join(
        schemanav(site, tmp_path, "bench", "-h").stdout.split()
    )

    benched = schemanav(
        site, tmp_path, "bench", "--backend", "wordcount,bm25", "-o", "min_words", "2", "--json"
    )
    assert benched.returncode == 0, benched.stderr
    rows = json.loads(benched.stdout)["rows"]
    assert [row["backend"] for row in rows] == ["wordcount", "bm25"]
    assert 0 < rows[0]["recall"]["50"] < rows[1]["recall"]["50"]

    searched = schemanav(site, tmp_path, "search", "movie title", "--backend", "wordcount", "-j")
    assert searched.returncode == 0, searched.stderr
    hits = json.loads(searched.stdout)["hits"]
    assert hits and all("from the root" not in hit["text"] for hit in hits)
    assert hits[0]["paths_to_root"]  # the pipeline adds paths to any backend's hits
    refused = schemanav(site, tmp_path, "search", "movie", "--backend", "wordcount", "-o", "x", "1")
    assert refused.returncode == 2
    assert "unknown option 'x' for --backend wordcount: wordcount accepts min_words" in (
        refused.stderr
    )


def test_without_the_plugin_its_name_is_unknown(tmp_path: Path) -> None:
    refused = schemanav(None, tmp_path, "bench", "--backend", "wordcount")
    assert refused.returncode == 2
    assert "unknown backend 'wordcount' (set by --backend): choose one of structural, bm25" in (
        refused.stderr
    )
    assert "wordcount" not in schemanav(None, tmp_path, "search", "--help").stdout


def test_a_broken_plugin_is_one_error_line(site: Path, tmp_path: Path) -> None:
    broken = tmp_path / "broken"
    shutil.copytree(site, broken)
    module = broken / "schemanav_wordcount_backend.py"
    module.write_text(
        module.read_text().replace('register_backend("wordcount"', 'register_backend("other"')
    )
    failed = schemanav(broken, tmp_path, "search", "movie", "--backend", "wordcount")
    assert failed.returncode == 1
    assert failed.stderr.strip() == (
        "error: the backend plugin 'wordcount' (package schemanav-wordcount-backend) registered "
        "no backend of that name: its module must call register_backend('wordcount')"
    )


# -- broken installations (issue 41): discovery reads entry points defensively ----------------


def _fake_package(site: Path, name: str, entry_points: Callable[[Path], object]) -> None:
    info = site / f"{name}-1.0.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 1.0\n")
    entry_points(info / "entry_points.txt")


def _zero(path: Path) -> None:
    path.symlink_to("/dev/zero")


def _fifo(path: Path) -> None:
    os.mkfifo(path)


def _latin1(path: Path) -> None:
    path.write_bytes(b"[schemanav.backends]\nd\xe9j\xe0 = nowhere\n")


def _escapes(path: Path) -> None:
    path.write_text("[schemanav.backends]\nevil\x1b]0;owned\x07 = nowhere\n")


@pytest.mark.parametrize(
    ("plant", "said"),
    [
        (_zero, "is a device"),
        (_fifo, "is a FIFO or socket"),
        (_latin1, "is not UTF-8 text"),
        (_escapes, "not a plain name; skipped"),
    ],
)
def test_a_broken_entry_points_file_is_one_warning_naming_the_package(
    tmp_path: Path, plant: Callable[[Path], None], said: str
) -> None:
    """Under a memory and CPU limit (a file read whole would pass it) and a time limit (a FIFO
    waited on would pass that): `--help` still lists the backends, with one warning."""
    from test_hostile import cli

    site = tmp_path / "site"
    _fake_package(site, "broken_plugin", plant)
    env = {"PYTHONPATH": os.pathsep.join([str(REPO_ROOT / "src"), str(site)])}
    run = cli(tmp_path / "work", "search", "--help", env=env, timeout=30)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "hybrid-local" in run.stdout and "owned" not in run.stdout + run.stderr
    assert "\x1b" not in run.stdout + run.stderr
    warnings = run.stderr.splitlines()
    assert len(warnings) == 1 and warnings[0].startswith("warning: "), run.stderr[-2000:]
    assert said in warnings[0] and "broken_plugin-1.0.dist-info" in warnings[0]
    assert "Traceback" not in run.stderr


def test_a_plugin_that_exits_at_import_is_a_failure(tmp_path: Path) -> None:
    site = tmp_path / "site"
    _fake_package(
        site, "quitter", lambda path: path.write_text("[schemanav.backends]\nquit = quitter\n")
    )
    (site / "quitter.py").write_text("raise SystemExit(0)\n")
    failed = schemanav(site, tmp_path, "search", "movie", "--backend", "quit")
    assert failed.returncode == 1, failed.stderr
    assert failed.stderr.strip() == (
        "error: the backend plugin 'quit' (package quitter) failed to load: SystemExit: 0"
    )
