#!/usr/bin/env python3
"""A development schema with its connections written another way, and its labels to match:
a check that slices read a connection by its shape, not by the name `nodes`.

The Relay cursor-connections specification requires only `edges { node }`; GitHub and GitLab
add a `nodes` list to every connection, other public schemas do not, or name that list after
its type (`films: [Film]`). Two variants of a schema and its full-label TSV:

- `edges`: every connection that has both loses `nodes`; a label `XConnection.nodes` becomes
  `XConnection.edges` and `XEdge.node`;
- `named`: each connection's `nodes` is renamed after its node type (`mergeRequests`), and
  so are its labels.

    python scripts/connection_variants.py SCHEMA TSV --variant edges|named --out DIR

writes `DIR/NAME.graphqls` and `DIR/NAME.tsv` (NAME: the schema file's stem and the variant),
which `python scripts/ranking_sweep.py --extra NAME=DIR/NAME.graphqls,DIR/NAME.tsv` scores.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from graphql import (
    GraphQLInterfaceType,
    GraphQLObjectType,
    build_schema,
    get_named_type,
    print_schema,
)


def _plural(type_name: str) -> str:
    name = type_name[0].lower() + type_name[1:]
    if name.endswith("y"):
        return name[:-1] + "ies"
    return name + ("es" if name.endswith("s") else "s")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("schema", type=Path)
    parser.add_argument("tsv", type=Path)
    parser.add_argument("--variant", choices=("edges", "named"), required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    schema = build_schema(args.schema.read_text(), assume_valid=True)
    # Interfaces first: an implementation renames `nodes` as its interface does.
    kinds = GraphQLObjectType | GraphQLInterfaceType
    fielded = sorted(
        (t for t in schema.type_map.values() if isinstance(t, kinds)),
        key=lambda t: not isinstance(t, GraphQLInterfaceType),
    )
    # Connections with both `nodes` and `edges { node }`, each with the labels `nodes` becomes.
    relabel: dict[str, list[str]] = {}
    for kind in fielded:
        if "nodes" not in kind.fields or "edges" not in kind.fields:
            continue
        edge = get_named_type(kind.fields["edges"].type)
        if not isinstance(edge, kinds) or "node" not in edge.fields:
            continue
        if args.variant == "edges":
            relabel[kind.name] = [f"{kind.name}.edges", f"{edge.name}.node"]
            continue
        renamed = [relabel[i.name][0] for i in kind.interfaces if i.name in relabel]
        name = renamed[0].split(".", 1)[1] if renamed else _plural(
            get_named_type(kind.fields["nodes"].type).name
        )
        if name not in kind.fields:
            relabel[kind.name] = [f"{kind.name}.{name}"]
    for kind in fielded:
        if kind.name in relabel:
            fields = dict(kind.fields)
            kind.fields.clear()
            for name, field in fields.items():
                if name != "nodes":
                    kind.fields[name] = field
                elif args.variant == "named":
                    kind.fields[relabel[kind.name][0].split(".", 1)[1]] = field
    stem = f"{args.schema.name.split('.')[0]}-{args.variant}"
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{stem}.graphqls").write_text(print_schema(schema))
    lines = []
    for line in args.tsv.read_text().splitlines():
        if line.startswith("#") or "\t" not in line:
            lines.append(line)
            continue
        question, labels = line.split("\t", 1)
        new: list[str] = []
        for label in labels.split(","):
            owner, _, field = label.partition(".")
            for written in relabel[owner] if field == "nodes" and owner in relabel else [label]:
                if written not in new:
                    new.append(written)
        lines.append(f"{question}\t{','.join(new)}")
    (args.out / f"{stem}.tsv").write_text("\n".join(lines) + "\n")
    print(f"wrote {args.out / stem}.graphqls and .tsv: {len(relabel)} connections changed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
