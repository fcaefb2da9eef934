"""How fast the rules search answers: one query over every variant's rules, in two languages.

Each figure is printed beside a floor measured in the same run on the same machine: one pass
over the index that only reads each section's word counts, the least any search must do. The
index itself is built once per language and set of variants (and kept); its build time is
printed too. Target: a query answered in under 50 ms, well inside a phone's round trip.

    python bench/bench_search.py [--repeats 5]
"""

from __future__ import annotations

import argparse
import sys
import timeit
from pathlib import Path

try:
    import scorekeeper  # noqa: F401
except ImportError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper import create_app
from scorekeeper.handbook.search import Index, build_index, search
from scorekeeper.rules.variants import all_variants

QUERY_TARGET_MS = 50.0
QUERIES = {
    "en": ("red three worth", "concealed canasta", "can I pick up the pile?", "going out"),
    "fr": ("combien de canastas pour sortir", "quand la pioche est vide", "trois rouge"),
}


def floor_scan_ms(index: Index, repeats: int) -> float:
    """Milliseconds of one pass reading one word count of every section."""

    def scan() -> int:
        return sum(doc.body.get("three", 0) for doc in index.docs)

    timer = timeit.Timer(scan)
    count, _ = timer.autorange()
    return min(timer.repeat(repeats, count)) / count * 1e3


def query_ms(index: Index, query: str, repeats: int) -> float:
    timer = timeit.Timer(lambda: search(index, query, first="simpson"))
    count, _ = timer.autorange()
    return min(timer.repeat(repeats, count)) / count * 1e3


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    app = create_app({"TESTING": True, "SQLALCHEMY_DATABASE_URI": "sqlite://"})
    slowest = 0.0
    with app.test_request_context():
        for language, queries in QUERIES.items():
            build = min(
                timeit.repeat(
                    lambda lang=language: build_index(lang, all_variants()), number=1, repeat=3
                )
            )
            index = build_index(language, all_variants())
            floor = floor_scan_ms(index, args.repeats)
            print(
                f"{language}: index of {len(index.docs)} sections built in {build * 1e3:.0f} ms; "
                f"floor: one pass over the sections {floor:.3f} ms"
            )
            for query in queries:
                took = query_ms(index, query, args.repeats)
                slowest = max(slowest, took)
                print(f"  {query!r:<36} {took:6.2f} ms  (= {took / floor:5.0f} passes)")
    ok = slowest < QUERY_TARGET_MS
    print(
        f"slowest query {slowest:.2f} ms (target < {QUERY_TARGET_MS:.0f} ms): "
        + ("target met" if ok else "TARGET MISSED")
    )
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
