"""The record harnesses of the DataSet and Kafka fixtures (tests/print_records.py): Flink's print
formats and Spark's read into the same records, and a changed value or a missing record fails."""

from __future__ import annotations

from collections import Counter

import pytest

from print_records import delimited_records, flink_dataset_records, flink_stream_records, spark_print_records
from test_fixtures import assert_same_records

# what Flink's DataSet output() printed (Stringify) and what the converted program prints
FLINK_DATASET = "(the, 4)\n(a, (b, 2.5), None)\n(5)\nplain text line\n42\n"
SPARK_DATASET = "('the', 4)\n('a', ('b', 2.5), None)\n(5,)\nplain text line\n42\n"


def test_dataset_lines_read_as_the_same_records():
    assert flink_dataset_records(FLINK_DATASET) == [("the", "4"), ("a", "(b, 2.5)", "None"), ("5",), ("plain text line",), ("42",)]
    assert spark_print_records(SPARK_DATASET) == flink_dataset_records(FLINK_DATASET)
    assert_same_records(FLINK_DATASET, SPARK_DATASET, ordered=True)


def test_show_boxes_and_rows_read_as_records():
    box = "+---+---+\n|w  |n  |\n+---+---+\n|the|4  |\n+---+---+\n"
    assert spark_print_records(box + "Row(w='a', n=(1, 2))\n") == [("the", "4"), ("a", "(1, 2)")]


@pytest.mark.parametrize(
    "spark, ordered",
    [
        (SPARK_DATASET.replace("4)", "5)"), False),  # a changed value
        (SPARK_DATASET.replace("(5,)\n", ""), False),  # a missing record
        (SPARK_DATASET + "('x', 1)\n", False),  # an extra record
        ("(5,)\n" + SPARK_DATASET.replace("(5,)\n", ""), True),  # another order where order counts
    ],
    ids=["changed-value", "missing-record", "extra-record", "order"],
)
def test_dataset_harness_fails_on_other_records(spark, ordered):
    with pytest.raises(AssertionError):
        assert_same_records(FLINK_DATASET, spark, ordered=ordered)


# Flink's print() lines of a Kafka job (a Row, a Java tuple, an untyped tuple, strings, Java doubles)
FLINK_STREAM = "big> +I[1,ana,250.0,true]\ncount> (alice,1)\nraw> ('tail', 19)\nsensor s1 max 2.5\nx> 1.0E10\nx> null\n"
SPARK_STREAM = "big> Row(id=1, user='ana', amount=250.0, vip=True)\ncount> ('alice', 1)\nraw> ('tail', 19)\nsensor s1 max 2.5\nx> 10000000000.0\nx> None\n"


def test_stream_lines_read_as_the_same_records_per_sink():
    flink = flink_stream_records(FLINK_STREAM)
    assert flink[("big", ("1", "ana", "250.0", "true"))] == 1 and flink[("", ("sensor s1 max 2.5",))] == 1
    assert Counter(spark_print_records(SPARK_STREAM, stream=True)) == flink


@pytest.mark.parametrize(
    "spark",
    [
        SPARK_STREAM.replace("250.0", "250.5"),  # a changed value
        SPARK_STREAM.replace("count> ('alice', 1)\n", ""),  # a missing record
        SPARK_STREAM.replace("count> ", "other> "),  # the record in another sink
    ],
    ids=["changed-value", "missing-record", "other-sink"],
)
def test_stream_harness_fails_on_other_records(spark):
    assert Counter(spark_print_records(spark, stream=True)) != flink_stream_records(FLINK_STREAM)


def test_write_csv_files_read_as_records():
    flink = "1|Oslo|(59.75, 10.75)|True\n"
    assert delimited_records(flink, "|", spark=False) == delimited_records("1|Oslo|(59.75, 10.75)|True\n", "|", spark=True)
    assert delimited_records(flink, "|", spark=False) != delimited_records("1|Oslo|(59.75, 10.5)|True\n", "|", spark=True)
    assert delimited_records(flink, "|", spark=False) == [("1", "Oslo", "(59.75, 10.75)", "True")]
