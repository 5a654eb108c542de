"""scripts/corpus_quality.py and benchmarks/corpus.toml: the development corpus holds together
(every committed set's labels name its schema's coordinates, a fifth of each app set's
questions write) and the leave-one-schema-out choice never looks at the held-out set."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from schemanav.bench.labelled import known_coordinates, load_labelled
from schemanav.navigator import Navigator

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "corpus_quality.py"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("corpus_quality", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["corpus_quality"] = module
    spec.loader.exec_module(module)
    return module


cq = _script()
COMMITTED = [s for s in cq.load_sets() if s.fetch is None and s.schema is not None]


def test_the_corpus_has_eight_schemas_besides_the_movie_db() -> None:
    names = [s.name for s in cq.load_sets()]
    assert len(names) == len(set(names))
    assert len([s for s in cq.load_sets() if s.schema]) >= 8


@pytest.mark.parametrize("corpus_set", COMMITTED, ids=lambda s: s.name)
def test_every_label_of_a_committed_set_is_a_coordinate_of_its_schema(corpus_set: Any) -> None:
    navigator = Navigator.open(str(ROOT / corpus_set.schema), max_paths=0)
    known = known_coordinates(navigator.corpus)
    queries = load_labelled(ROOT / corpus_set.questions)
    unknown = {c for q in queries for c in q.expected_coordinates if c not in known}
    assert not unknown
    if corpus_set.name != "vendure":  # labelled from an admin app's reads only
        root = f"{navigator.corpus.mutation_root}."
        writes = sum(any(c.startswith(root) for c in q.expected_coordinates) for q in queries)
        assert len(queries) >= 60 and writes * 5 >= len(queries)


def _records(completes: list[list[int]], first: int | None = 1) -> list[dict[str, Any]]:
    return [
        {"question": str(n), "write": False, "first": first, "complete": c}
        for n, c in enumerate(completes)
    ]


def test_figures_count_a_question_a_larger_budget_made_incomplete() -> None:
    all_budgets = list(cq.BUDGETS)
    row = cq.figures(_records([all_budgets, [500], [1000, 2000, 4000, 8000, 16000]]))
    assert row["shrinking"] == 1
    assert row["complete"][500] == pytest.approx(2 / 3)
    assert row["mrr"] == pytest.approx(1.0)


def _table(objectives: dict[str, dict[str, float]], lost: dict[str, dict[str, int]]) -> Any:
    return {
        c: {n: cq.Standing(v, lost.get(c, {}).get(n, 0)) for n, v in per_set.items()}
        for c, per_set in objectives.items()
    }


def test_leave_one_out_chooses_on_the_other_sets_alone() -> None:
    table = _table(
        {
            "defaults": {"a": 0.5, "b": 0.5, "c": 0.5},
            "x": {"a": 0.9, "b": 0.6, "c": 0.1},  # best on a and b, worst on c
        },
        {},
    )
    assert cq.best_candidate(table, ["a", "b", "c"]) == "x"
    chosen = cq.leave_one_out(table, ["a", "b", "c"])
    assert chosen == {"a": "defaults", "b": "defaults", "c": "x"}


def test_a_candidate_losing_two_questions_on_a_set_it_is_chosen_on_is_not_chosen() -> None:
    table = _table(
        {"defaults": {"a": 0.5, "b": 0.5}, "x": {"a": 0.9, "b": 0.45}}, {"x": {"b": 2}}
    )
    assert cq.best_candidate(table, ["a", "b"]) == "defaults"
    assert cq.leave_one_out(table, ["a", "b"]) == {"a": "defaults", "b": "x"}


def test_the_defaults_win_a_tie() -> None:
    table = _table({"z": {"a": 0.5}, "defaults": {"a": 0.5}}, {})
    assert cq.best_candidate(table, ["a"]) == "defaults"


def test_losses_are_counted_in_questions_within_any_budget() -> None:
    every = list(cq.BUDGETS)
    scores = {
        "defaults": {"a": _records([every, every, [16000]])},
        "x": {"a": _records([every, [16000], [500, 16000]])},
    }
    standing = cq.standings(scores)["x"]["a"]
    assert standing.lost == 1  # one question fewer within 1,000 … 8,000; one more within 500


def test_an_experiments_slicer_size_holds_in_every_slicing_module_and_is_restored() -> None:
    from schemanav.retrieval.slicing import closure, params

    before = params.FILLER_LEAVES
    with cq.slicer_constants({"FILLER_LEAVES": before + 4}):
        # closure imports the size by name: the patch must reach its copy too.
        assert params.FILLER_LEAVES == vars(closure)["FILLER_LEAVES"] == before + 4
    assert params.FILLER_LEAVES == vars(closure)["FILLER_LEAVES"] == before
    with pytest.raises(KeyError, match="NO_SUCH_SIZE"), cq.slicer_constants({"NO_SUCH_SIZE": 1}):
        pass


def test_the_parameter_sweep_tries_values_beside_todays_not_todays() -> None:
    """scripts/corpus_parameters.py compares each number's value in the code with others:
    a row still listing today's value (the code moved on) would compare it with itself."""
    spec = importlib.util.spec_from_file_location(
        "corpus_parameters", ROOT / "scripts" / "corpus_parameters.py"
    )
    assert spec is not None and spec.loader is not None
    cp = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(cp)
    for kind, (_, tried) in cp.KINDS.items():
        today = cp.current(kind, list(tried))
        assert [name for name in tried if today[name] in tried[name]] == [], kind
