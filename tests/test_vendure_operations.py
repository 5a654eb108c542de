"""scripts/vendure_operations.py: real client operations turned into labels, on a package laid
out like `@vendure/admin-ui` (gql templates in esm2022 modules, fragments interpolated)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from graphql import build_schema

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "vendure_operations.py"

SCHEMA = build_schema(
    """
    type Query { product(id: ID!): Product, search(term: String): [Result!]! }
    type Product { id: ID! name: String! featuredAsset: Asset }
    type Asset { id: ID! preview: String! }
    type Collection { slug: String! }
    union Result = Product | Collection
    """
)

MODULE = """
export const ASSET_FRAGMENT = gql `
  fragment Asset on Asset { id preview }
`;
export const GET_PRODUCT = gql `
  query GetProduct($id: ID!) {
    product(id: $id) { __typename name featuredAsset { ...Asset } }
  }
  ${ASSET_FRAGMENT}
`;
const SEARCH = gql `
  query Search { search(term: "shirt") { ... on Collection { slug } } }
`;
const LOCAL = gql `
  query Local { product(id: "1") { name @client } }
`;
const BROKEN = gql `
  query Broken { product(id: "1") { price } }
`;
"""


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("vendure_operations", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def test_each_valid_operation_is_labelled_with_every_field_and_argument_it_touches(
    tmp_path: Path,
) -> None:
    (tmp_path / "esm2022" / "core").mkdir(parents=True)
    (tmp_path / "esm2022" / "core" / "definitions.mjs").write_text(MODULE, encoding="utf-8")
    report = _script().collect(tmp_path, SCHEMA)
    labels = {operation.name: operation.labels for operation in report.valid}
    # The fragment's fields count where it is spread, on its type; `__typename` is no label;
    # a field in an inline fragment counts on the fragment's type condition.
    assert labels == {
        "GetProduct": [
            "Query.product",
            "Query.product(id:)",
            "Product.name",
            "Product.featuredAsset",
            "Asset.id",
            "Asset.preview",
        ],
        "Search": ["Query.search", "Query.search(term:)", "Collection.slug"],
    }
    assert report.client_only == ["Local"] and list(report.invalid) == ["Broken"]
