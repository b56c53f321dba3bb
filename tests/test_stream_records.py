"""The PyFlink fixtures' harness compares records: Flink's print() lines against a converted
program's show() boxes (frame-form streams) or Python's print(record) lines (RDD streams: see
tests/test_print_records.py).

The Flink lines below are PyFlink 2.3's print() of each record kind (recorded in
fixtures/pyflink/collection_types/expected_stdout.txt and others); the Spark side is what
``DataFrame.show(2147483647, truncate=False)`` really prints for the same records.
"""

from __future__ import annotations

import contextlib
import io

import pytest

from flink_reference import normalize_flink_print
from table_output import flink_stream_records, spark_stream_records, stream_line_record


@pytest.mark.parametrize(
    "line, record",
    [
        ("+I[101,keyboard,49.5]", ("101", "keyboard", "49.5")),  # Types.ROW: Python str() joined by ","
        ("+I[keyboard,True]", ("keyboard", "true")),
        ("+I[a,None,1e-05]", ("a", "NULL", "1.0E-5")),
        ("+I[True]", ("true",)),
        ("-U[a,1]", ("-U", "a", "1")),
        ("(keyboard,101)", ("keyboard", "101")),  # Types.TUPLE: Java Tuple.toString
        ("189.99", ("189.99",)),  # basic types: Java toString
        ("true", ("true",)),
        ("KEYBOARD", ("KEYBOARD",)),
        ("('keyboard', 59.4)", ("keyboard", "59.4")),  # pickled: Python str(), read as values
    ],
)
def test_flink_print_lines_as_records(line, record):
    assert stream_line_record(line) == record


def _shown(df) -> str:
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        df.show(2147483647, truncate=False)
    return out.getvalue()


FLINK_ROWS = ["+I[101,keyboard,49.5]", "+I[102,mouse,19.0]", "+I[104,usb cable,None]", "+I[105,cable,1e-05]"]
DATA = [(101, "keyboard", 49.5), (102, "mouse", 19.0), (104, "usb cable", None), (105, "cable", 1e-05)]


def test_show_box_meets_flink_rows(spark):
    df = spark.createDataFrame(DATA, "f0 INT, f1 STRING, f2 DOUBLE")
    assert spark_stream_records(_shown(df), normalize_flink_print) == flink_stream_records(FLINK_ROWS)


def test_show_box_of_basic_values_and_tuples(spark):
    words = spark.createDataFrame(["KEYBOARD", "MOUSE"], "string")
    flags = spark.createDataFrame([True, False], "boolean")
    pairs = spark.createDataFrame([("keyboard", 101)], "f0 STRING, f1 INT")
    stdout = _shown(words) + _shown(flags) + _shown(pairs)
    want = ["KEYBOARD", "MOUSE", "true", "false", "(keyboard,101)"]
    assert spark_stream_records(stdout, normalize_flink_print) == flink_stream_records(want)


def test_shim_lines_with_prefixes_still_read():
    stdout = "row> +I[1,a]\n2> (b,2)\nrow:3> +I[3,c]\n"
    assert spark_stream_records(stdout, normalize_flink_print) == flink_stream_records(["+I[1,a]", "(b,2)", "+I[3,c]"])


def test_harness_fails_on_a_changed_value_or_a_missing_record(spark):
    df = spark.createDataFrame(DATA, "f0 INT, f1 STRING, f2 DOUBLE")
    got = spark_stream_records(_shown(df), normalize_flink_print)
    changed = [FLINK_ROWS[0].replace("49.5", "49.6"), *FLINK_ROWS[1:]]
    assert got != flink_stream_records(changed)
    assert got != flink_stream_records(FLINK_ROWS[1:])  # a record missing on the Spark side
    assert got != flink_stream_records([*FLINK_ROWS, FLINK_ROWS[0]])  # a duplicate on the Flink side
    assert got != flink_stream_records([r.replace("None", "0.0") for r in FLINK_ROWS])  # NULL is not 0.0
