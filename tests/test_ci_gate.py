"""The CI gate of docs/ci.md as users run it: GitHub Actions' default shell is `bash -e`, so
each `run:` block runs that way here, in a git clone whose base branch holds the Movie DB, on
an unchanged and on a changed schema; action.yml's steps are those blocks, letter for letter."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "src" / "schemanav" / "data"
WORKFLOW = re.compile(r"```yaml\n(# \.github/workflows/schema-navigation\.yml\n.*?)```", re.S)


def _workflow() -> dict[str, Any]:
    text = (ROOT / "docs" / "ci.md").read_text(encoding="utf-8")
    found = WORKFLOW.search(text)
    assert found, "docs/ci.md lost its workflow"
    document: dict[str, Any] = yaml.safe_load(found.group(1))
    return document


GATE = ("Baseline from the base branch", "Check this pull request")


def _documented_steps() -> dict[str, str]:
    """The two steps of the gate (the comment step is GitHub's own)."""
    (job,) = _workflow()["jobs"].values()
    return {step["name"]: step["run"] for step in job["steps"] if step.get("name") in GATE}


def test_the_action_runs_the_documented_steps_under_bash_e() -> None:
    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert action["runs"]["using"] == "composite"
    steps = {step["name"]: step for step in action["runs"]["steps"]}
    documented = _documented_steps()
    assert set(steps) == set(GATE) == set(documented)
    for name, step in steps.items():
        assert step["run"] == documented[name]
        assert step["shell"] == "bash -e {0}"
    (job,) = _workflow()["jobs"].values()
    assert set(steps["Check this pull request"]["env"]) == set(job["env"])


def _git(clone: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=clone, check=True, capture_output=True)


def _clone(tmp_path: Path, changed: bool) -> Path:
    clone = tmp_path / "api"
    clone.mkdir()
    _git(clone, "init", "-q", "-b", "main")
    _git(clone, "config", "user.email", "ci@example.com")
    _git(clone, "config", "user.name", "ci")
    shutil.copy(DATA / "moviedb.graphqls", clone / "schema.graphqls")
    shutil.copy(DATA / "moviedb-sample.tsv", clone / "questions.tsv")
    _git(clone, "add", ".")
    _git(clone, "commit", "-qm", "base")
    _git(clone, "update-ref", "refs/remotes/origin/main", "main")
    _git(clone, "checkout", "-qb", "pull-request")
    if changed:
        shutil.copy(ROOT / "tests" / "data" / "moviedb-v2.graphqls", clone / "schema.graphqls")
    return clone


def _run_steps(clone: Path) -> subprocess.CompletedProcess[str]:
    (job,) = _workflow()["jobs"].values()
    env = {
        **os.environ,
        **job["env"],
        "GITHUB_BASE_REF": "main",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
    }
    done = subprocess.CompletedProcess[str]([], 0, "", "")
    for body in _documented_steps().values():
        done = subprocess.run(
            ["bash", "-e", "-c", body], cwd=clone, env=env, capture_output=True, text=True
        )
        if done.returncode:
            break
    return done


@pytest.mark.slow
def test_an_unchanged_schema_passes_and_writes_every_summary(tmp_path: Path) -> None:
    clone = _clone(tmp_path, changed=False)
    done = _run_steps(clone)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("exit 0")
    comment = (clone / "comment.md").read_text(encoding="utf-8")
    for title in ("schemanav diff", "schemanav bench", "schemanav corpus"):
        assert f"### {title}" in comment


@pytest.mark.slow
def test_a_worse_schema_fails_with_exit_1_after_running_every_check(tmp_path: Path) -> None:
    clone = _clone(tmp_path, changed=True)
    done = _run_steps(clone)
    assert done.returncode == 1
    assert done.stdout.strip().endswith("exit 1")
    assert "regression:" in done.stderr
    comment = (clone / "comment.md").read_text(encoding="utf-8")
    assert "### schemanav bench: regression (exit 1)" in comment
    assert "### schemanav corpus" in comment  # the check after the failing one still ran
