"""Comparisons for CI: this run against a baseline, and one schema version against another.

`quality` compares `bench` results, `costs` compares `corpus` prices, `coordinates` and
`schema_change` compare two schemas (with graphql-core's breaking and dangerous changes), and
`report` renders them as tables and a comment-sized markdown summary. Every comparison says
whether it regressed, which the command line turns into exit 1.
"""

from schemanav.compare.coordinates import CoordinateDiff, diff_schemas
from schemanav.compare.costs import CostComparison, compare_prices, load_price_baseline
from schemanav.compare.findings import Finding, Severity, worst
from schemanav.compare.quality import BenchComparison, compare_bench, load_bench_baseline
from schemanav.compare.schema_change import SchemaDiff, diff_schema_versions

__all__ = [
    "BenchComparison",
    "CoordinateDiff",
    "CostComparison",
    "Finding",
    "SchemaDiff",
    "Severity",
    "compare_bench",
    "compare_prices",
    "diff_schema_versions",
    "diff_schemas",
    "load_bench_baseline",
    "load_price_baseline",
    "worst",
]
