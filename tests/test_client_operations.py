"""scripts/client_operations.py: an app's client operations labelled with schema coordinates,
on tiny made-up client sources (source maps, pasted string constants, introspection, names
used twice, fields that cannot be merged, `@client` fields), and on a package laid out like
`@vendure/admin-ui` (gql templates in .mjs modules, fragments pasted in by `${FRAGMENT}`)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest
from graphql import build_schema

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "client_operations.py"

SCHEMA = build_schema(
    """
    type Query { shop(id: ID!): Shop, entries: [Entry!]!, tags(first: Int): [Tag!]! }
    type Mutation { addTag(name: String!): Tag }
    type Shop { id: ID! name: String! }
    type Tag { id: ID! name: String! }
    type Text { key: String! }
    type Number { key: Int }
    union Entry = Text | Number
    enum Color { RED GREEN }
    """
)


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("client_operations", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _labels(folder: Path) -> dict[str, list[str]]:
    report = _script().collect([folder], SCHEMA)
    return {operation.name: operation.labels for operation in report.valid}


def test_a_source_map_is_read_for_its_first_party_sources_instead_of_the_compiled_file(
    tmp_path: Path,
) -> None:
    lib = tmp_path / "pkg" / "lib"
    lib.mkdir(parents=True)
    # A compiled file is read unless a map stands for it (and `dist` / `build` only for maps).
    (lib / "index.js").write_text("gql`query Compiled { tags { id } }`")
    (lib / "plain.js").write_text("gql`query Plain { tags { id } }`")
    (tmp_path / "pkg" / "dist").mkdir()
    (tmp_path / "pkg" / "dist" / "bundle.js").write_text("gql`query Bundled { tags { id } }`")
    (lib / "index.js.map").write_text(
        json.dumps(
            {
                "version": 3,
                "sources": [
                    "../src/shop.ts",
                    "../node_modules/lib/vendor.ts",
                    "webpack://app/./src/tags.tsx?1a2b",
                    "../src/style.css",
                ],
                "sourcesContent": [
                    "export const Q = graphql(`query Shop { shop(id: 1) { name } }`);",
                    "gql`query Vendor { tags { id } }`",
                    'const M = gql`mutation AddTag { addTag(name: "x") { id } }`;',
                    "gql`query NotCode { tags { id } }`",
                ],
                "mappings": "",
            }
        )
    )
    report = _script().collect([tmp_path / "pkg"], SCHEMA)
    files = {operation.name: operation.file for operation in report.valid}
    assert files == {"AddTag": "src/tags.tsx", "Plain": "lib/plain.js", "Shop": "src/shop.ts"}


def test_a_pasted_string_constant_is_substituted_and_a_pasted_fragment_is_found_by_name(
    tmp_path: Path,
) -> None:
    (tmp_path / "fields.js").write_text("export const TAG_FIELDS = `id name`;\n")
    (tmp_path / "queries.ts").write_text(
        """import gql from "graphql-tag";
import { TAG_FIELDS } from "./fields";
const SHOP: string = 'id';
const NESTED = `${SHOP} name`;
const LOOP = `id ${LOOP}`;
const SHOP_FRAGMENT = gql`fragment ShopParts on Shop { name }`;
export const TAGS = gql`query Tags { tags(first: ${PAGE}) { ${TAG_FIELDS} } }`;
export const SHOP_QUERY = gql`query ShopQuery { shop(id: 1) { ${NESTED} ...ShopParts } }
  ${SHOP_FRAGMENT}`;
export const LOOPING = gql`query Looping { shop(id: 1) { ${LOOP} } }`;
"""
    )
    labels = _labels(tmp_path)
    # `${PAGE}` is no constant: dropped, so `tags(first: )` does not parse.
    assert "Tags" not in labels
    assert labels["ShopQuery"] == ["Query.shop", "Query.shop(id:)", "Shop.id", "Shop.name"]
    assert labels["Looping"] == ["Query.shop", "Query.shop(id:)", "Shop.id"]
    # Another constant of that name elsewhere: the module path the file imports from decides.
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "fields.ts").write_text("export const TAG_FIELDS = `id`;\n")
    (tmp_path / "queries.ts").write_text(
        'import { TAG_FIELDS as F } from "./fields";\ngql`query Tags { tags { ${F} } }`\n'
    )
    assert _labels(tmp_path) == {"Tags": ["Query.tags", "Tag.id", "Tag.name"]}


def test_introspection_fields_and_their_arguments_are_no_labels(tmp_path: Path) -> None:
    (tmp_path / "enum.graphql").write_text(
        'query Colors { __type(name: "Color") { enumValues { name } } tags { __typename id } }'
    )
    assert _labels(tmp_path) == {"Colors": ["Query.tags", "Tag.id"]}


def test_an_operation_name_used_twice_keeps_both_and_a_repeat_is_kept_once(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.graphql").write_text("query Shop { shop(id: 1) { id } }")
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "c.ts").write_text(
        'gql`query Shop { shop(id: 2) { name } }`; gql`mutation Shop { addTag(name: "x") { id } }`'
    )
    (tmp_path / "d.graphql").write_text("query Shop { shop(id: 1) { id } }")  # the same again
    report = _script().collect([tmp_path], SCHEMA)
    names = {operation.name: operation.kind for operation in report.valid}
    assert names == {"Shop": "query", "Shop@b/c.ts": "query", "Shop@b/c.ts#2": "mutation"}
    assert report.repeats == 1 and report.operations_found == 4


def test_unnamed_operations_are_labelled_under_their_files_names_when_asked(
    tmp_path: Path,
) -> None:
    (tmp_path / "shop-query.gql").write_text("{ shop(id: 1) { name } }")
    (tmp_path / "tag-editor.vue").write_text(
        'gql`fragment T on Tag { id }`; gql`mutation ($n: String!) { addTag(name: $n) { id } }`'
    )
    assert _labels(tmp_path) == {}  # by default an operation without a name is none
    report = _script().collect([tmp_path], SCHEMA, name_anonymous=True)
    names = {operation.name: operation.labels for operation in report.valid}
    assert names == {
        "ShopQuery": ["Query.shop", "Query.shop(id:)", "Shop.name"],
        "TagEditor2": ["Mutation.addTag", "Mutation.addTag(name:)", "Tag.id"],
    }


def test_a_schema_breaking_a_type_system_rule_still_labels_its_operations(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    schema_file = tmp_path / "schema.graphqls"  # as Railway's: an implementation deprecates
    schema_file.write_text(  # a field its interface does not
        "interface Node { id: ID! }\n"
        'type Team implements Node { id: ID! @deprecated(reason: "x") name: String }\n'
        "type Query { team(id: ID!): Team }\n"
    )
    module = _script()
    schema = module.load_schema(schema_file)
    assert "Team.id must not be deprecated" in capsys.readouterr().err
    (tmp_path / "ops").mkdir()
    (tmp_path / "ops" / "team.graphql").write_text("query Team { team(id: 1) { id name } }")
    report = module.collect([tmp_path / "ops"], schema)
    assert [operation.labels for operation in report.valid] == [
        ["Query.team", "Query.team(id:)", "Team.id", "Team.name"]
    ]


def test_fields_that_cannot_be_merged_and_client_parts_do_not_invalidate(tmp_path: Path) -> None:
    (tmp_path / "ops.graphql").write_text(
        """query Entries { entries { ... on Text { key } ... on Number { key } } }
        query Local { shop(id: 1) { name localNote @client } tags @connection(key: "t") { id } }
        query Empty { shop(id: 1) { } }
        """
    )
    report = _script().collect([tmp_path], SCHEMA)
    labels = {operation.name: operation.labels for operation in report.valid}
    assert labels == {
        "Entries": ["Query.entries", "Text.key", "Number.key"],
        "Local": ["Query.shop", "Query.shop(id:)", "Shop.name", "Query.tags", "Tag.id"],
    }
    assert list(report.invalid) == ["Empty"]


ADMIN_UI_DEFINITIONS = """import { gql } from 'apollo-angular';
export const ASSET_FRAGMENT = gql `
    fragment Asset on Asset { id preview }
`;
export const PRODUCT_FRAGMENT = gql `
    fragment Product on Product { id featuredAsset { ...Asset } }
    ${ASSET_FRAGMENT}
`;
export const GET_PRODUCT = gql `
    query GetProduct($id: ID!) {
        product(id: $id) { __typename name ...Product assets { ...Asset } }
    }
    ${PRODUCT_FRAGMENT}
    ${ASSET_FRAGMENT}
`;
export const SEARCH = gql `
    query Search { search(term: "shirt") { ... on Collection { slug } } }
`;
export const GET_LOCAL = gql `
    query GetLocal { product(id: "1") @client { ...Product } }
    ${PRODUCT_FRAGMENT}
`;
export const BROKEN = gql `
    query Broken { product(id: "1") { price } }
`;
/**
 * @example
 * const result$ = this.dataService.query(gql`
 *   query MyQuery { product(id: 1) { id } }
 * `);
 */
"""

ADMIN_UI_COMPONENT = """import { gql } from 'apollo-angular';
import { ASSET_FRAGMENT } from '../../core/definitions/product-definitions';
export const DETAIL_QUERY = gql `
    query AssetDetail { product(id: "2") { featuredAsset { ...Asset } } }
    ${ASSET_FRAGMENT}
`;
"""


def test_a_package_laid_out_like_vendure_admin_ui_is_labelled(tmp_path: Path) -> None:
    """@vendure/admin-ui: `gql \\`…\\`` in compiled esm2022 .mjs modules, fragment documents
    pasted in by `${FRAGMENT}` (some twice, some from another module), local-state operations
    whose every field is `@client`, and a usage example inside a doc comment."""
    schema = build_schema(
        """
        type Query { product(id: ID!): Product, search(term: String): [Result!]! }
        type Product { id: ID! name: String! featuredAsset: Asset, assets: [Asset!]! }
        type Asset { id: ID! preview: String! }
        type Collection { slug: String! }
        union Result = Product | Collection
        """
    )
    esm = tmp_path / "package" / "esm2022"
    (esm / "core" / "definitions").mkdir(parents=True)
    (esm / "core" / "definitions" / "product-definitions.mjs").write_text(ADMIN_UI_DEFINITIONS)
    (esm / "catalog" / "detail").mkdir(parents=True)
    (esm / "catalog" / "detail" / "detail.graphql.mjs").write_text(ADMIN_UI_COMPONENT)
    report = _script().collect([esm], schema)
    operations = {operation.name: operation for operation in report.valid}
    # A fragment's fields count where it is first spread, on its type condition (so do an inline
    # fragment's); `__typename` is no label; a fragment pasted twice is defined once.
    assert {name: operation.labels for name, operation in operations.items()} == {
        "AssetDetail": [
            "Query.product",
            "Query.product(id:)",
            "Product.featuredAsset",
            "Asset.id",
            "Asset.preview",
        ],
        "GetProduct": [
            "Query.product",
            "Query.product(id:)",
            "Product.name",
            "Product.id",
            "Product.featuredAsset",
            "Asset.id",
            "Asset.preview",
            "Product.assets",
        ],
        "Search": ["Query.search", "Query.search(term:)", "Collection.slug"],
    }
    assert operations["AssetDetail"].file == "catalog/detail/detail.graphql.mjs"
    assert operations["GetProduct"].file == "core/definitions/product-definitions.mjs"
    # Dropping the `@client` field leaves nothing to ask the server; the doc comment's example
    # (each line starting ` * `) does not parse, so it files no operation.
    assert sorted(report.invalid) == ["Broken", "GetLocal"]
    assert list(report.unparsable) == ["core/definitions/product-definitions.mjs#6"]
