"""How printed records and written files of the two engines are made comparable
(tests/flink_reference.py): prefixes, engine chatter, date-time bucket folders."""

from __future__ import annotations

import doctest

import flink_reference
from flink_reference import normalize_flink_print, normalize_time_buckets


def test_docstring_examples():
    assert doctest.testmod(flink_reference).failed == 0


def test_prefixes_are_stripped_and_records_kept_in_order():
    text = "2> +I[1, a]\nsum:1> (b,3)\nalerts> Row(id=1)\n1> 3> x\n"
    assert normalize_flink_print(text) == ["+I[1, a]", "(b,3)", "Row(id=1)", "3> x"]


def test_library_log_records_printed_bare_are_chatter():
    # what a program with logging.basicConfig(stream=sys.stdout, format="%(message)s") prints
    # besides its records, on Flink 2.3 and on Spark 4
    lines = [
        "Using Any for unsupported type: typing.Sequence[~T]",
        "No module named google.cloud.bigquery_storage_v1",
        "No module named google.cloud.bigquery_storage_v1. As a result, the ReadFromBigQuery"
        " transform *CANNOT* be used with `method=DIRECT_READ`.",
        "PYFLINK_CYTHON_ENABLED: True",
        "Closing down clientserver connection",
        "start reading data",
        "(a, 1)",
    ]
    assert normalize_flink_print(lines) == ["start reading data", "(a, 1)"]


def test_a_record_that_mentions_a_chatter_word_is_kept():
    assert normalize_flink_print(["user: Closing down clientserver connection"]) == ["user: Closing down clientserver connection"]


def test_hour_buckets_compare_as_a_pattern_and_merge():
    flink = {"out/2026-11-22--20/part-UUID-N": ["b"], "out/2026-11-22--21/part-UUID-N": ["a"]}
    spark = {"out/2026-11-23--07/part-UUID-N": ["a", "b"]}
    assert normalize_time_buckets(flink) == normalize_time_buckets(spark) == {"out/<yyyy-MM-dd--HH>/part-UUID-N": ["a", "b"]}
    assert normalize_time_buckets({"out/2026-11-22/x": ["a"]}) == {"out/2026-11-22/x": ["a"]}
