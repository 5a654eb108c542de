"""Check that `define` prints the same from a part of the cached introspection as from the SDL.

`define` of a coordinate not printed before builds a schema from the part of the cached
introspection JSON that the coordinate's type needs (`schemanav.schema.stored_schema`). This
script checks, for EVERY coordinate of a schema (each type, field, field argument, enum value,
input field, directive and directive argument), that the definition printed from that part
(the SDL text and the introspection record `--json` prints) equals the one printed from the
parsed SDL, and that the whole stored schema (what slices read) prints the same as well. A
part depends only on the types that the coordinates asked for together name, so the check
builds one part per type and prints all of that type's coordinates from it; then it checks
random groups of coordinates asked for together (one part for several types), and a sample
through `Navigator.define` itself in fresh processes' shoes (fresh navigators on a filled
cache), unknown coordinates included.

    python scripts/check_define_parts.py [--schema schemas/github-wg.graphqls] [--groups 300]

Exit status 1 when any definition differs.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "src"))

from schemanav.schema.define import DefinitionCache, define, define_one  # noqa: E402
from schemanav.schema.loading import load_schema  # noqa: E402


def coordinates_by_type(schema: Any) -> dict[str, list[str]]:
    """Every coordinate of `schema`, grouped by the type (or "@" for directives) it names."""
    from graphql import GraphQLEnumType, GraphQLInputObjectType

    found: dict[str, list[str]] = {}
    for name, graphql_type in schema.type_map.items():
        mine = found.setdefault(name, [name])
        if isinstance(graphql_type, GraphQLEnumType):
            mine.extend(f"{name}.{value}" for value in graphql_type.values)
        elif isinstance(graphql_type, GraphQLInputObjectType):
            mine.extend(f"{name}.{field}" for field in graphql_type.fields)
        elif hasattr(graphql_type, "fields"):
            for field_name, field in graphql_type.fields.items():
                mine.append(f"{name}.{field_name}")
                mine.extend(f"{name}.{field_name}({arg}:)" for arg in field.args)
    directives = found.setdefault("@", [])
    for directive in schema.directives:
        directives.append(f"@{directive.name}")
        directives.extend(f"@{directive.name}({arg}:)" for arg in directive.args)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--schema", default=str(ROOT / "schemas" / "github-wg.graphqls"))
    parser.add_argument("--groups", type=int, default=300, help="random groups asked together")
    parser.add_argument("--navigator", type=int, default=200, help="coordinates via Navigator")
    args = parser.parse_args()
    started = time.perf_counter()
    loaded = load_schema(args.schema)
    parsed = loaded.schema
    grouped = coordinates_by_type(parsed)
    total = sum(len(group) for group in grouped.values())
    print(f"{args.schema}: {total:,} coordinates in {len(grouped):,} groups", flush=True)
    differ: list[str] = []
    served = fallback = 0
    with tempfile.TemporaryDirectory() as scratch:
        cache = DefinitionCache(Path(scratch), "0" * 64)
        cache.put_schema(parsed, loaded.violations)
        whole = cache.schema()
        assert isinstance(whole, tuple), whole
        for number, coordinates in enumerate(grouped.values()):
            part = cache.part_schema(coordinates)
            if part is None:
                fallback += 1
            else:
                served += 1
                assert part[1] == loaded.violations
            for coordinate in coordinates:
                truth = define_one(parsed, coordinate)
                if define_one(whole[0], coordinate) != truth:
                    differ.append(f"whole: {coordinate}")
                if part is not None and define_one(part[0], coordinate) != truth:
                    differ.append(f"part: {coordinate}")
            if number % 200 == 0:
                print(f"  {number:,} groups, {time.perf_counter() - started:.0f} s", flush=True)
        print(
            f"one part per type: {served:,} groups served by a part, {fallback:,} not "
            f"(introspection types: printed from the whole schema)"
        )
        rng = random.Random(15)
        everything = [c for group in grouped.values() for c in group]
        grouped_served = 0
        for _ in range(args.groups):
            asked = rng.sample(everything, rng.randint(2, 5))
            part = cache.part_schema(asked)
            if part is None:
                continue
            grouped_served += 1
            for coordinate in asked:
                if define_one(part[0], coordinate) != define_one(parsed, coordinate):
                    differ.append(f"group {asked}: {coordinate}")
        print(f"random groups of 2-5 coordinates: {grouped_served:,} of {args.groups} by a part")
    with tempfile.TemporaryDirectory() as scratch:
        checked = navigator_sample(args.schema, parsed, everything, args.navigator, scratch)
        differ.extend(checked)
    print(f"{len(differ)} definitions differ ({time.perf_counter() - started:.0f} s)")
    for line in differ[:20]:
        print("  ", line)
    return 1 if differ else 0


def navigator_sample(
    schema_path: str, parsed: Any, everything: list[str], count: int, scratch: str
) -> list[str]:
    """`Navigator.define` in fresh navigators on one cache: known and unknown coordinates."""
    from schemanav.navigator import Navigator

    rng = random.Random(16)
    sample = rng.sample(everything, count)
    unknown = ["Issue.titel", "Repositry", "Query.repository(ownr:)", "@skipp", "not one!"]
    Navigator.open(schema_path, cache_dir=scratch).define([sample[0]])  # fills the cache
    differ = []
    for start in range(0, len(sample), 4):
        asked = [*sample[start : start + 4], unknown[start // 4 % len(unknown)]]
        navigator = Navigator.open(schema_path, cache_dir=scratch)
        if navigator.define(asked) != define(parsed, asked):
            differ.append(f"navigator: {asked}")
        assert "loaded" not in navigator.__dict__
    print(f"Navigator.define: {len(sample)} coordinates, in groups with an unknown one")
    return differ


if __name__ == "__main__":
    sys.exit(main())
