"""scripts/check_docs.py: a marked block whose command prints something else fails; timings
never count; `--update` rewrites the block alone, never the hand-written text around it."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
import time
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "check_docs.py"


def _script(name: str) -> ModuleType:
    """A script of scripts/ as a module (they are not a package)."""
    sys.path.insert(0, str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _check(*args: str | Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *map(str, args)],
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def _page(tmp_path: Path, block: str, command: str = "printf 'a 1\\nb 2\\n'") -> Path:
    page = tmp_path / "page.md"
    page.write_text(
        f"Hand-written before.\n\n<!-- check fast: {command} -->\n```\n{block}```\n\n"
        "Hand-written after.\n",
        encoding="utf-8",
    )
    return page


@pytest.mark.slow
def test_a_block_that_matches_its_command_passes(tmp_path: Path) -> None:
    done = _check(_page(tmp_path, "a 1\nb 2\n"))
    assert done.returncode == 0, done.stdout
    assert "1 blocks checked, 0 differ" in done.stdout


@pytest.mark.slow
def test_a_figure_that_drifted_fails_and_names_the_line(tmp_path: Path) -> None:
    done = _check(_page(tmp_path, "a 1\nb 3\n"))
    assert done.returncode == 1
    assert "DIFFERS" in done.stdout and "page.md:3" in done.stdout
    assert "-b 3" in done.stdout and "+b 2" in done.stdout


@pytest.mark.slow
def test_timings_are_not_compared_and_an_ellipsis_stands_for_lines(tmp_path: Path) -> None:
    page = _page(tmp_path, "took 0.25 s\n…\nend\n", "printf 'took 1.5 s\\nx\\ny\\nend\\n'")
    assert _check(page).returncode == 0


@pytest.mark.slow
def test_update_rewrites_the_block_only(tmp_path: Path) -> None:
    page = _page(tmp_path, "stale\n")
    done = _check("--update", page)
    assert done.returncode == 0
    assert page.read_text(encoding="utf-8") == (
        "Hand-written before.\n\n<!-- check fast: printf 'a 1\\nb 2\\n' -->\n```\na 1\nb 2\n```"
        "\n\nHand-written after.\n"
    )


@pytest.mark.slow
def test_fast_skips_the_slow_blocks_and_expect_checks_prose(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "<!-- check: exit 1 -->\n| a |\n|---|\n| 1 |\n\n"
        "<!-- check fast: echo '\"tokens\": 1929,'\nexpect: \"tokens\": 1929 -->\nprose 1,929\n",
        encoding="utf-8",
    )
    fast = _check("--fast", page)
    assert fast.returncode == 0
    assert "1 blocks checked" in fast.stdout
    everything = _check(page)
    assert everything.returncode == 1
    assert "page.md:1" in everything.stdout


def test_regenerating_structural_experiments_keeps_the_hand_written_sections(
    tmp_path: Path,
) -> None:
    experiments = _script("structural_experiments")
    START, END, replace_generated = (
        experiments.START, experiments.END, experiments.replace_generated
    )

    page = tmp_path / "experiments.md"
    page.write_text(f"# Title\n\n{START}\nold rows\n{END}\n\n## By hand\nkept\n", encoding="utf-8")
    replace_generated(page, "new rows\n")  # as the script prints it, a blank line last
    assert page.read_text(encoding="utf-8") == (
        f"# Title\n\n{START}\nnew rows\n{END}\n\n## By hand\nkept\n"
    )  # no blank line before the end: what check_docs.py compares is the block as written
    bare = tmp_path / "bare.md"
    bare.write_text("# Only hand-written text\n", encoding="utf-8")
    with pytest.raises(SystemExit, match=r"no .* markers"):
        replace_generated(bare, "rows")
    assert bare.read_text(encoding="utf-8") == "# Only hand-written text\n"


def test_every_page_in_the_repository_has_well_formed_markers() -> None:
    check_docs = _script("check_docs")
    documents, parse = check_docs.documents, check_docs.parse
    blocks = [
        block
        for path in documents()
        for block in parse(path, path.read_text(encoding="utf-8").split("\n"))
    ]
    assert any(block.fast for block in blocks)
    assert {block.kind for block in blocks} >= {"fenced", "table", "expect", "region"}


def test_the_architecture_layout_names_every_module() -> None:
    """docs/architecture.md's layout names each module and package of the library, and those
    one level down (a module deleted or added without the page following fails here)."""
    page = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    layout = page.split("## Layout", 1)[1].split("```")[1]
    package = ROOT / "src" / "schemanav"

    def parts(folder: Path) -> list[Path]:
        return sorted(
            path
            for path in folder.iterdir()
            if (path.suffix == ".py" and path.stem not in ("__init__", "__main__"))
            or (path / "__init__.py").is_file()
        )

    missing = []
    for part in parts(package):
        shown = part.name if part.suffix else f"{part.name}/"
        if not re.search(rf"(?<![\w/.]){re.escape(shown)}", layout):
            missing.append(shown)
        if not part.suffix:
            missing += [
                f"{part.name}/{inner.stem}"
                for inner in parts(part)
                if not re.search(rf"\b{inner.stem}\b", layout)
            ]
    assert not missing, f"docs/architecture.md's layout does not name {missing}"
    for named in re.findall(r"(?<![\w/.])(\w+\.py)\b", layout):
        assert list(package.rglob(named)), f"the layout names {named}, which is gone"


def test_a_table_row_that_starts_with_an_ellipsis_is_compared_and_big_blocks_are_quick(
    tmp_path: Path,
) -> None:
    """`| …a variant | 0.1 |` is a row like any other, not an excerpt: a drift in it fails, at
    once however many such rows the block holds (no search over every way to skip lines)."""
    header = ["| configuration | R@1 |", "|---|---|"]
    rows = [f"| …variant {n} | 0.{n:03d} |" for n in range(80)]
    (tmp_path / "printed.md").write_text("\n".join([*header, *rows]) + "\n", encoding="utf-8")
    drifted = [*rows[:-1], "| …variant 79 | 0.999 |"]
    page = tmp_path / "page.md"
    page.write_text(
        f"<!-- check fast: cat {tmp_path / 'printed.md'} -->\n<!-- generated by cat -->\n"
        + "\n".join([*header, *drifted])
        + "\n<!-- end of the generated rows -->\n",
        encoding="utf-8",
    )
    started = time.perf_counter()
    done = _check(page)
    assert done.returncode == 1
    assert "-…variant 79 | 0.999" in done.stdout and "+…variant 79 | 0.079" in done.stdout
    assert time.perf_counter() - started < 30
