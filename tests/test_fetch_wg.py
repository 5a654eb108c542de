"""scripts/fetch-wg-benchmark.sh turns the Working Group's GitHub slice into our two files."""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

# Slow tier: the fetch script as a bash process.
pytestmark = pytest.mark.slow

REPO_ROOT = Path(__file__).resolve().parents[1]
SCRIPT = REPO_ROOT / "scripts" / "fetch-wg-benchmark.sh"
SHARED_WG = Path(__file__).resolve().parents[2] / "shared" / "wg"
COMMIT = "72e39082da9624f4a6197baf926a5177acc63a07"

needs_shared_wg = pytest.mark.skipif(
    not (SHARED_WG / "github" / "schema.graphql").is_file(),
    reason=f"the Working Group data is not at {SHARED_WG} (a local copy laid out like shared/wg)",
)

GH_EXT_001 = (
    "Show me the commit history for the main branch of the octocat/example repository over "
    "the past two weeks, including author and commit message.\t"
    "Query.repository,Repository.defaultBranchRef,Ref.target,Commit.history,"
    "CommitHistoryConnection.nodes,GitActor.name,GitActor.email,Commit.message"
)


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(SCRIPT), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHON": sys.executable, **(env or {})},
        check=False,
    )


def _counts(stdout: str) -> tuple[int, int, int, int]:
    found = re.search(
        r"(\d+) questions, (\d+) targets.*?left out (\d+) argument coordinates.*?(\d+) type",
        stdout,
        re.DOTALL,
    )
    assert found, stdout
    questions, targets, arguments, types = (int(g) for g in found.groups())
    return questions, targets, arguments, types


def _data_lines(tsv: Path) -> list[str]:
    lines = tsv.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if not line.startswith("#")]


@needs_shared_wg
def test_converts_the_shared_copy(tmp_path: Path) -> None:
    result = _run("--from", str(SHARED_WG), "--out-dir", str(tmp_path))
    assert result.returncode == 0, result.stderr
    assert _counts(result.stdout) == (200, 1038, 589, 2)

    schema_out = tmp_path / "schemas" / "github-wg.graphqls"
    assert schema_out.read_bytes() == (SHARED_WG / "github" / "schema.graphql").read_bytes()
    tsv = tmp_path / "benchmarks" / "github-wg.tsv"
    header = [line for line in tsv.read_text().splitlines() if line.startswith("#")]
    assert any(COMMIT in line and "graphql/ai-wg" in line for line in header)
    lines = _data_lines(tsv)
    assert len(lines) == 200
    assert lines[0] == GH_EXT_001
    for line in lines:
        question, targets = line.split("\t")  # exactly one tab: none survived in questions
        assert question == " ".join(question.split())
        coordinates = targets.split(",")
        assert len(coordinates) == len(set(coordinates))
        assert all(re.fullmatch(r"\w+\.\w+", c) for c in coordinates), line
    assert sum(len(line.split("\t")[1].split(",")) for line in lines) == 1038
    leftovers = [p.name for p in tmp_path.rglob("*") if p.name.startswith(".")]
    assert leftovers == []


@needs_shared_wg
def test_download_path_gives_the_same_files(tmp_path: Path) -> None:
    if shutil.which("curl") is None:
        pytest.skip("curl is not installed")
    mirror = tmp_path / "mirror"
    (mirror / "schemas" / "github").mkdir(parents=True)
    shutil.copy(SHARED_WG / "github" / "schema.graphql", mirror / "schemas" / "github")
    shutil.copytree(SHARED_WG / "github" / "queries", mirror / "queries" / "all-schemas")
    online = _run("--out-dir", str(tmp_path / "online"), env={"WG_BASE_URL": mirror.as_uri()})
    local = _run("--from", str(SHARED_WG), "--out-dir", str(tmp_path / "local"))
    assert online.returncode == 0, online.stderr
    assert _counts(online.stdout) == _counts(local.stdout)
    for relative in ("schemas/github-wg.graphqls", "benchmarks/github-wg.tsv"):
        online_lines = (tmp_path / "online" / relative).read_bytes().splitlines()
        local_lines = (tmp_path / "local" / relative).read_bytes().splitlines()
        strip_header = [line for line in online_lines if not line.startswith(b"#")]
        assert strip_header == [line for line in local_lines if not line.startswith(b"#")]

    (mirror / "queries" / "all-schemas" / "gh-ext-050-kw.yaml").unlink()
    failed = _run("--out-dir", str(tmp_path / "broken"), env={"WG_BASE_URL": mirror.as_uri()})
    assert failed.returncode != 0
    assert "--from" in failed.stderr
    assert not (tmp_path / "broken").exists()


def test_bad_from_dir_is_one_line_and_exit_2(tmp_path: Path) -> None:
    (tmp_path / "github").mkdir()
    result = _run("--from", str(tmp_path), "--out-dir", str(tmp_path / "out"))
    assert result.returncode == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "github/schema.graphql" in result.stderr
    assert not (tmp_path / "out").exists()


@needs_shared_wg
def test_a_broken_question_file_leaves_earlier_output_untouched(tmp_path: Path) -> None:
    copy = tmp_path / "wg"
    shutil.copytree(SHARED_WG, copy)
    out = tmp_path / "out"
    assert _run("--from", str(copy), "--out-dir", str(out)).returncode == 0
    before = (out / "benchmarks" / "github-wg.tsv").read_bytes()

    broken = copy / "github" / "queries" / "gh-ext-007.yaml"
    broken.write_text(re.sub(r"(?m)^mustInclude:", "mustIncludes:", broken.read_text()))
    result = _run("--from", str(copy), "--out-dir", str(out))
    assert result.returncode != 0
    assert "gh-ext-007.yaml" in result.stderr and "mustInclude" in result.stderr
    assert (out / "benchmarks" / "github-wg.tsv").read_bytes() == before


def _converter() -> ModuleType:
    spec = importlib.util.spec_from_file_location("wg_to_tsv", SCRIPT.parent / "wg_to_tsv.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("query: Show me\n  the history\nid: x\n", {"query": "Show me the history", "id": "x"}),
        ("query: 'it''s\n  here' # note\n", {"query": "it's here"}),
        ('query: "pull request #42, \\"quoted\\""\n', {"query": 'pull request #42, "quoted"'}),
        ("query: plain text # a comment\n", {"query": "plain text"}),
        ("query: >-\n  folded over\n  two lines\nnext: y\n",
         {"query": "folded over two lines", "next": "y"}),
        ("op: |\n  query {\n    a\n  }\n", {"op": "query {\n  a\n}\n"}),
        ("mustInclude:\n  - A.b\n  - A.b(c:)\n- wrong\n", None),
        ("mustInclude:\n- A.b\n- 'B'\n", {"mustInclude": ["A.b", "B"]}),
        ("empty: []\nnothing:\n", {"empty": [], "nothing": None}),
    ],
)  # fmt: skip
def test_yaml_subset_parser(text: str, expected: dict[str, object] | None) -> None:
    converter = _converter()
    if expected is None:
        with pytest.raises(converter.ConversionError):
            converter.parse_yaml_subset(text)
    else:
        assert converter.parse_yaml_subset(text) == expected


def test_nested_mappings_are_skipped_not_misread() -> None:
    converter = _converter()
    parsed = converter.parse_yaml_subset(
        "answerSchema:\n  type: object\n  properties:\n    query: nested\nquery: top\n"
    )
    assert isinstance(parsed["answerSchema"], converter.NestedBlock)
    assert parsed["query"] == "top"
