"""Write a GitLab-sized (about 3 MB) SDL schema for timing `schemanav corpus` at that scale.

No GitLab schema ships with this repository, so this doubles the GitHub snapshot: every
type definition appears once more with each type name prefixed `Mirror`, and the query root
gets one field into the copy.

    python scripts/synthetic_large_schema.py /tmp/large.graphqls
    schemanav corpus --schema /tmp/large.graphqls
"""

from __future__ import annotations

import re
from pathlib import Path

from graphql import TypeDefinitionNode, parse, print_ast

ROOT = Path(__file__).resolve().parents[1]
BUILT_IN = {"String", "Int", "Float", "Boolean", "ID"}
PREFIX = "Mirror"


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "target", nargs="?", default="/tmp/large.graphqls", help="where to write the SDL"
    )
    target = Path(parser.parse_args().target)
    source = (ROOT / "schemas" / "github-wg.graphqls").read_text(encoding="utf-8")
    definitions = [d for d in parse(source).definitions if isinstance(d, TypeDefinitionNode)]
    names = {d.name.value for d in definitions} - BUILT_IN
    # Type names are PascalCase and field names camelCase, so a whole-word match of a type
    # name is a type reference (or a word of a description, which may change harmlessly).
    pattern = re.compile(r"\b(" + "|".join(sorted(names, key=len, reverse=True)) + r")\b")
    copies = [
        pattern.sub(lambda m: PREFIX + m.group(1), print_ast(d))
        for d in definitions
        if d.name.value in names
    ]
    extension = f"extend type Query {{\n  mirror: {PREFIX}Query\n}}\n"
    text = "\n\n".join([source, *copies, extension])
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}: {len(text.encode()) / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
