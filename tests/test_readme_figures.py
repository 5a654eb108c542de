"""The README's headline retrieval figures, reproduced exactly: a regression cannot pass.

The default backend (structural, DOT_PLUS_GLOSS) on the working group's GitHub slice must give
the README's row to the printed precision, every column of it; the three headline figures are
also written out here, so editing the README alone cannot move them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:
    from conftest import BenchFiles

README = Path(__file__).resolve().parents[1] / "README.md"

HEADLINE_ROW = "| **structural** (default, no model) | DOT_PLUS_GLOSS |"
README_BUDGETS = ("125", "250", "500", "1000", "2000")


def _readme_row(prefix: str) -> list[str]:
    """The cells of the README table row starting with `prefix`, bold marks removed."""
    readme = README.read_text(encoding="utf-8")
    (line,) = [line for line in readme.splitlines() if line.startswith(prefix)]
    return [cell.strip().replace("**", "") for cell in line.strip("|").split("|")]


def _printed(row: dict[str, Any]) -> list[str]:
    """A bench JSON row as the README table prints it."""
    recalls = [f"{row['recall'][k]:.3f}" for k in ("1", "5", "10", "20", "50")]
    # The README's recall table shows the first five budgets of the default ladder.
    budgets = " / ".join(f"{row['budget_recall'][b]:.3f}" for b in README_BUDGETS)
    return [*recalls, f"{row['mrr']:.3f}", f"{row['tokens_at_50']:,.0f}", budgets]


def test_the_default_backend_reproduces_the_readme_on_the_github_slice(
    github_default_bench: dict[str, Any], github_slice: BenchFiles
) -> None:
    payload = github_default_bench
    assert payload["questions"] == 200
    assert payload["targets"] == 1038
    assert payload["schema"] == str(github_slice.schema)
    (row,) = payload["rows"]
    assert (row["backend"], row["format"]) == ("structural", "DOT_PLUS_GLOSS")
    assert list(row["budget_recall"]) == [*README_BUDGETS, "4000", "8000", "16000"]

    # The headline: R@50, MRR and recall within 500 tokens, as the README prints them.
    assert round(row["recall"]["50"], 3) == 0.731
    assert round(row["mrr"], 3) == 0.784
    assert round(row["budget_recall"]["500"], 3) == 0.695

    # …and the rest of that README row, column for column.
    assert _printed(row) == _readme_row(HEADLINE_ROW)[2:]


SLICE_ROW = "| **fields · slice** |"
SLICE_BUDGETS = ("2000", "4000")  # the README's bold columns, the targets


def test_the_slice_reproduces_the_readme_where_the_targets_are(
    github_slice: BenchFiles, github_cache_dir: Path
) -> None:
    """`bench --output slice` gives the README's complete-slice shares at 2,000 and 4,000
    tokens (field labels), the columns the issue sets targets for."""
    from typer.testing import CliRunner

    from schemanav.cli import app

    budgets = ",".join(SLICE_BUDGETS)
    arguments = ["bench", "--json", "--output", "slice", "--budgets", budgets]
    arguments += ["--schema", str(github_slice.schema), "--bench-file", str(github_slice.questions)]
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("SCHEMANAV_CACHE_DIR", str(github_cache_dir))
        result = CliRunner().invoke(app, arguments)
    assert result.exit_code == 0, result.stderr
    (row,) = json.loads(result.stdout)["rows"]
    shares = [f"{row['budget_complete'][b]:.3f}" for b in SLICE_BUDGETS]
    cells = _readme_row(SLICE_ROW)
    # Columns: label, 500, 1,000, 2,000, 4,000, …
    assert shares == cells[3:5]
    assert shares == ["0.820", "0.930"]
