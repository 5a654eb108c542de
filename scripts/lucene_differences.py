"""Why our BM25 differs from the published Lucene BM25 figures, one mechanism at a time.

Builds plain tantivy BM25 indexes over the GitHub slice with a single change each, and
prints the metrics next to the published Lucene row. Run after
`bash scripts/fetch-wg-benchmark.sh --from ../shared/wg`:

    python scripts/lucene_differences.py
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tantivy

from schemanav.bench import evaluate_question, load_labelled, summarise
from schemanav.corpus import Format, build_corpus
from schemanav.schema import load_schema

ROOT = Path(__file__).resolve().parents[1]
KS = (1, 5, 10, 20, 50)
BUDGETS = (125, 250, 500, 1000, 2000)
COORDINATE = re.compile(r"^([A-Za-z_]\w*)\.([A-Za-z_]\w*)")
PUBLISHED = "| Lucene BM25, DOT_PLUS_GLOSS (published) | 0.098 | 0.191 | 0.245 | 0.303 | 0.377 | – | 707 | 0.239 / 0.290 / 0.351 / 0.405 / 0.435 | – |"  # noqa: E501


def one_token_coordinate(text: str) -> str:
    """What Lucene's StandardTokenizer does to `Movie.rating`: one token, `movie.rating`.

    UAX#29 does not break between letters around a full stop, so the coordinate survives as
    a single term that no question word can match. tantivy splits it; gluing the two names
    with a letter sequence no question contains reproduces Lucene's behaviour.
    """
    return COORDINATE.sub(lambda m: f"{m.group(1)}qqdotqq{m.group(2)}", text)


def analyzer(stem: bool, stopwords: bool) -> tantivy.TextAnalyzer:
    builder = tantivy.TextAnalyzerBuilder(tantivy.Tokenizer.simple())
    builder = builder.filter(tantivy.Filter.remove_long(40)).filter(tantivy.Filter.lowercase())
    if stopwords:
        builder = builder.filter(tantivy.Filter.stopword("english"))
    if stem:
        builder = builder.filter(tantivy.Filter.stemmer("english"))
    return builder.build()


def run(
    label: str,
    fmt: Format,
    transform: Callable[[str], str],
    stem: bool,
    stopwords: bool,
    depth: int = 400,
) -> str:
    corpus = build_corpus(load_schema(str(ROOT / "schemas" / "github-wg.graphqls")).schema)
    queries = load_labelled(ROOT / "benchmarks" / "github-wg.tsv")
    builder = tantivy.SchemaBuilder()
    builder.add_text_field("text", tokenizer_name="probe")
    builder.add_integer_field("ord", stored=True)
    index = tantivy.Index(builder.build())
    index.register_tokenizer("probe", analyzer(stem, stopwords))
    writer = index.writer(heap_size=50_000_000, num_threads=1)
    for position, text in enumerate(corpus.texts(fmt)):
        writer.add_document(tantivy.Document(text=transform(text), ord=position))
    writer.commit()
    index.reload()
    searcher = index.searcher()
    query_analyzer = analyzer(stem, stopwords)
    tokens = corpus.token_counts(fmt)
    results = []
    tied_first = 0
    for query in queries:
        terms = query_analyzer.analyze(query.question)
        clauses = [
            (tantivy.Occur.Should, tantivy.Query.term_query(index.schema, "text", t)) for t in terms
        ]
        hits = searcher.search(tantivy.Query.boolean_query(clauses), depth).hits if terms else []
        tied_first += len(hits) > 1 and hits[0][0] == hits[1][0]
        order = [searcher.doc(address)["ord"][0] for _, address in hits]
        results.append(
            evaluate_question(
                query.question,
                [corpus.coordinates[i] for i in order],
                [tokens[i] for i in order],
                query.expected_coordinates,
                KS,
                BUDGETS,
            )
        )
    summary = summarise(results, KS, BUDGETS)
    recall = " | ".join(f"{summary.at('recall', k):.3f}" for k in KS)
    budget = " / ".join(f"{summary.at('budget_recall', b):.3f}" for b in BUDGETS)
    return (
        f"| {label} | {recall} | {summary.at('mrr'):.3f} | {summary.at('tokens_at_50'):.0f} "
        f"| {budget} | {tied_first} |"
    )


def main() -> int:
    print(
        "| configuration | R@1 | R@5 | R@10 | R@20 | R@50 | MRR | tokens@50 | budget recall "
        "125 / 250 / 500 / 1000 / 2000 | questions whose top score is tied |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    print(PUBLISHED)
    plain = lambda text: text  # noqa: E731
    rows: list[tuple[Any, ...]] = [
        ("tantivy `default`, DOT_PLUS_GLOSS", Format.DOT_PLUS_GLOSS, plain, False, False),
        (
            "… coordinate kept as one token (as Lucene)",
            Format.DOT_PLUS_GLOSS,
            one_token_coordinate,
            False,
            False,
        ),
        (
            "… one token, list cut at 100 hits",
            Format.DOT_PLUS_GLOSS,
            one_token_coordinate,
            False,
            False,
            100,
        ),
        (
            "… one token + English stop words",
            Format.DOT_PLUS_GLOSS,
            one_token_coordinate,
            False,
            True,
        ),
        (
            "tantivy `en_stem` (our BM25 default), DOT_PLUS_GLOSS",
            Format.DOT_PLUS_GLOSS,
            plain,
            True,
            False,
        ),
        ("tantivy `default`, RAW", Format.RAW, plain, False, False),
        (
            "… RAW with the coordinate as one token (as Lucene)",
            Format.RAW,
            one_token_coordinate,
            False,
            False,
        ),
    ]
    for label, fmt, transform, stem, stopwords, *depth in rows:
        print(run(label, fmt, transform, stem, stopwords, *depth), flush=True)
    return 0


if __name__ == "__main__":
    import argparse

    # No options: --help prints what the script does.
    argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    ).parse_args()
    raise SystemExit(main())
