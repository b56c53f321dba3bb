"""The record harnesses of the DataSet and Kafka fixtures (tests/print_records.py): Flink's print
formats and Spark's read into the same records, and a changed value or a missing record fails."""

from __future__ import annotations

from collections import Counter

import pytest

from print_records import delimited_records, flink_dataset_records, flink_stream_records, spark_print_records
from table_output import stream_line_record
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


# --- an RDD stream's print(record) against Flink's per-type print ----------------------------
# Flink's lines as PyFlink 2.3 printed them (fixtures/pyflink/types_and_decoding,
# orders_dates_decimals, payload_fingerprints, map_key_order, collection_types); the Python
# lines are print(record) of the records the converted programs hold for them.
FLINK_TYPED = [
    "(1.1,1.0E20,true,null)",  # Types.TUPLE([FLOAT, DOUBLE, BOOLEAN, STRING]): Java toString
    "(k,+I[1, x])",  # a ROW_NAMED inside a TUPLE
    "+I[1.100000023841858,0.5]",  # Types.ROW: Python str() of the fields
    "1.0E-5",  # Types.FLOAT
    "1.1",
    "(north,2024-01-31,20.00)",  # SQL_DATE and BIG_DEC in a TUPLE
    "(south,2024-02-01,1E+2)",
    "(north,08:00:00,20:30:15)",  # SQL_TIME
    "+I[1,north,2024-01-31,2024-01-31 09:15:00.123000,19.99]",
    "+I[1,b'{\"u',[29, 1]]",  # bytes and a list in a Row
    "+I[1,b'{\"user\": \"ana\"}',{'region': 1}]",
    "(12,[65, 65, 70, 105])",
    "{0=5, 16=4, -1=1, 65536=3, 100=2}",  # Types.MAP: Java HashMap order
    "({false=no, true=yes},{-0.0=y, 2.5=x, 1.0E10=z})",
    "('keyboard', 59.4)",  # pickled: Python str()
    "(true,(s2,3))",  # a nested Java tuple
    "Instant<1706692500, 123000000> 1706692500123",  # a string a function made
]
PYTHON_TYPED = [
    "(1.100000023841858, 1e+20, True, None)",
    "('k', Row(a=1, b='x'))",
    "Row(f0=1.100000023841858, f1=0.5)",
    "9.999999747378752e-06",
    "1.100000023841858",
    "('north', datetime.date(2024, 1, 31), Decimal('20.00'))",
    "('south', datetime.date(2024, 2, 1), Decimal('1E+2'))",
    "('north', datetime.time(8, 0), datetime.time(20, 30, 15))",
    "Row(id=1, region='north', day=datetime.date(2024, 1, 31), at=datetime.datetime(2024, 1, 31, 9, 15, 0, 123000), amount=Decimal('19.99'))",
    "<Row(1, b'{\"u', [29, 1])>",
    "Row(id=1, payload=b'{\"user\": \"ana\"}', attrs={'region': 1})",
    "(12, [65, 65, 70, 105])",
    "{-1: 1, 100: 2, 65536: 3, 16: 4, 0: 5}",
    "({True: 'yes', False: 'no'}, {2.5: 'x', -0.0: 'y', 10000000000.0: 'z'})",
    "('keyboard', 59.4)",
    "(True, ('s2', 3))",
    "Instant<1706692500, 123000000> 1706692500123",
]


def _records(lines):
    return Counter(stream_line_record(line) for line in lines)


def test_python_forms_of_records_read_as_flinks_values():
    assert [stream_line_record(line) for line in PYTHON_TYPED] == [stream_line_record(line) for line in FLINK_TYPED]
    assert stream_line_record(PYTHON_TYPED[5]) == ("north", "2024-01-31", "20.00")
    assert stream_line_record(PYTHON_TYPED[9]) == ("1", "[123, 34, 117]", "[29, 1]")  # bytes as Java's byte[]
    assert stream_line_record(PYTHON_TYPED[12]) == ("{-1 -> 1, 0 -> 5, 100 -> 2, 16 -> 4, 65536 -> 3}",)


@pytest.mark.parametrize(
    "index, changed",
    [
        (0, "(1.2000000476837158, 1e+20, True, None)"),  # another 32-bit float
        (0, "(1.100000023841858, 1e+20, False, None)"),
        (1, "('k', Row(a=1, b='y'))"),
        (5, "('north', datetime.date(2024, 1, 30), Decimal('20.00'))"),
        (5, "('north', datetime.date(2024, 1, 31), Decimal('20.0'))"),  # a decimal keeps its scale
        (8, "Row(id=1, region='north', day=datetime.date(2024, 1, 31), at=datetime.datetime(2024, 1, 31, 9, 15, 0, 124000), amount=Decimal('19.99'))"),
        (10, "Row(id=1, payload=b'{\"user\": \"ana\"}', attrs={'region': 2})"),
        (12, "{-1: 1, 100: 2, 65536: 3, 16: 4, 0: 6}"),
        (15, "(True, ('s2', 4))"),
    ],
)
def test_a_wrong_value_in_pythons_form_is_caught(index, changed):
    lines = [*PYTHON_TYPED[:index], changed, *PYTHON_TYPED[index + 1 :]]
    assert _records(lines) != _records(FLINK_TYPED)


def test_a_missing_record_or_another_field_order_in_pythons_form_is_caught():
    assert _records(PYTHON_TYPED[1:]) != _records(FLINK_TYPED)
    assert _records([*PYTHON_TYPED, PYTHON_TYPED[0]]) != _records(FLINK_TYPED)
    swapped = "('north', Decimal('20.00'), datetime.date(2024, 1, 31))"
    assert _records([*PYTHON_TYPED[:5], swapped, *PYTHON_TYPED[6:]]) != _records(FLINK_TYPED)
    assert _records([*PYTHON_TYPED[:2], "Row(f1=0.5, f0=1.100000023841858)", *PYTHON_TYPED[3:]]) != _records(FLINK_TYPED)


def test_a_double_is_not_read_as_a_32_bit_float():
    # 0.1 as a double and as a FLOAT (0.10000000149011612) differ beyond 32-bit precision only;
    # 59.4 and 59.400001 differ as doubles and as 32-bit floats
    assert stream_line_record("59.400001") != stream_line_record("59.4")
    assert stream_line_record("(a, 0.30000000000000004)") != stream_line_record("(a,0.3)")


def test_a_spark_time_cell_reads_as_flinks_time_and_another_time_does_not():
    # Spark's show() of a TIME(6) column: 20:30:15.25; Flink prints java.sql.Time (20:30:15) in a
    # Java tuple and Python's str() (20:30:15.250000) in a Row: the same record, without the fraction
    from print_records import cell_text, field_text

    assert cell_text("20:30:15.25") == field_text("20:30:15") == field_text("20:30:15.250000")
    assert cell_text("20:30:16.25") != field_text("20:30:15")
    assert cell_text("08:00:00") == field_text("08:00:00")
