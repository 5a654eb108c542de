"""Write a GitLab-sized (about 3 MB) SDL schema for timing `schemanav corpus` at that scale.

No GitLab schema ships with this repository, so this doubles the GitHub snapshot: every
type definition appears once more with each type name prefixed `Mirror`, and the query root
gets one field into the copy. `--copies N` adds N copies (`Mirror`, `Mirror2`, …; the default
1 doubles the schema, 3 makes it four times GitHub's size).

    python scripts/synthetic_large_schema.py /tmp/large.graphqls [--copies N]
    schemanav corpus --schema /tmp/large.graphqls
"""

from __future__ import annotations

import argparse
import re
from pathlib import Path

from graphql import TypeDefinitionNode, parse, print_ast

ROOT = Path(__file__).resolve().parents[1]
BUILT_IN = {"String", "Int", "Float", "Boolean", "ID"}
PREFIX = "Mirror"


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "target", nargs="?", default="/tmp/large.graphqls", type=Path, help="where to write the SDL"
    )
    parser.add_argument("--copies", type=int, default=1, help="copies to add (default 1)")
    args = parser.parse_args()
    target: Path = args.target
    source = (ROOT / "schemas" / "github-wg.graphqls").read_text(encoding="utf-8")
    definitions = [d for d in parse(source).definitions if isinstance(d, TypeDefinitionNode)]
    names = {d.name.value for d in definitions} - BUILT_IN
    # Type names are PascalCase and field names camelCase, so a whole-word match of a type
    # name is a type reference (or a word of a description, which may change harmlessly).
    pattern = re.compile(r"\b(" + "|".join(sorted(names, key=len, reverse=True)) + r")\b")
    printed = [print_ast(d) for d in definitions if d.name.value in names]
    prefixes = [PREFIX + (str(n) if n > 1 else "") for n in range(1, args.copies + 1)]
    copies = [pattern.sub(prefix + r"\1", text) for prefix in prefixes for text in printed]
    fields = "".join(f"  {prefix[0].lower()}{prefix[1:]}: {prefix}Query\n" for prefix in prefixes)
    extension = f"extend type Query {{\n{fields}}}\n"
    text = "\n\n".join([source, *copies, extension])
    target.write_text(text, encoding="utf-8")
    print(f"wrote {target}: {len(text.encode()) / 1e6:.1f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
