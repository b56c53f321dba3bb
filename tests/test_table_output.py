"""tests/table_output.py: records from Flink's and Spark's printed tables.

The texts below are real outputs, captured on PyFlink 2.3.0 (.venv-flink, Java 17, local
mini cluster, UTC) and PySpark 4 (the repo's .venv, local[1], spark.sql.session.timeZone=UTC)
by printing the SAME values on both engines; they are the evidence for normalise_value's rules.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from flink_reference import TABLE_FIXTURES, read_output_files
from table_output import ChangelogError, flink_records, normalise_value, spark_records

# --- the same values on both engines --------------------------------------------------------
# SELECT CAST(NULL AS INT) AS n, TRUE AS b, CAST(1e10 AS DOUBLE) AS d, CAST(1e-5 AS DOUBLE) AS ds,
#  CAST(0.001 AS DOUBLE) AS dm, CAST(0.1 AS FLOAT) AS f, CAST(3.5 AS DECIMAL(5,2)) AS dc,
#  CAST('2024-01-01 10:00:00' AS TIMESTAMP(0)) AS t0, CAST('2024-01-01 10:00:00.120' AS TIMESTAMP(3)) AS t3,
#  CAST('2024-01-01 10:00:00' AS TIMESTAMP(3)) AS tz, DATE '2024-01-02' AS dt, ARRAY[1, CAST(NULL AS INT)] AS a,
#  MAP['b', 2, 'a', 1] AS m, ROW(CAST(NULL AS INT), 'x') AS r
# Flink: t_env.execute_sql(q).print() in batch mode, then INSERT INTO a 'connector' = 'print' table.
# Spark: the same query (TIMESTAMP for TIMESTAMP(n), ARRAY()/MAP()/named_struct()) .show(truncate=False).

FLINK_VALUES = """\
+-------------+--------+--------------------------------+--------------------------------+--------------------------------+--------------------------------+---------+---------------------+-------------------------+-------------------------+------------+--------------------------------+--------------------------------+--------------------------------+
|           n |      b |                              d |                             ds |                             dm |                              f |      dc |                  t0 |                      t3 |                      tz |         dt |                              a |                              m |                              r |
+-------------+--------+--------------------------------+--------------------------------+--------------------------------+--------------------------------+---------+---------------------+-------------------------+-------------------------+------------+--------------------------------+--------------------------------+--------------------------------+
|      <NULL> |   TRUE |                         1.0E10 |                         1.0E-5 |                          0.001 |                            0.1 |    3.50 | 2024-01-01 10:00:00 | 2024-01-01 10:00:00.120 | 2024-01-01 10:00:00.000 | 2024-01-02 |                      [1, NULL] |                     {b=2, a=1} |                      (NULL, x) |
+-------------+--------+--------------------------------+--------------------------------+--------------------------------+--------------------------------+---------+---------------------+-------------------------+-------------------------+------------+--------------------------------+--------------------------------+--------------------------------+
1 row in set
+I[null, true, 1.0E10, 1.0E-5, 0.001, 0.1, 3.50, 2024-01-01T10:00, 2024-01-01T10:00:00.120, 2024-01-01T10:00, 2024-01-02, [1, null], {a=1, b=2}, +I[null, x]]
"""

SPARK_VALUES = """\
+----+----+------+------+-----+---+----+-------------------+----------------------+-------------------+----------+---------+----------------+---------+
|n   |b   |d     |ds    |dm   |f  |dc  |t0                 |t3                    |tz                 |dt        |a        |m               |r        |
+----+----+------+------+-----+---+----+-------------------+----------------------+-------------------+----------+---------+----------------+---------+
|NULL|true|1.0E10|1.0E-5|0.001|0.1|3.50|2024-01-01 10:00:00|2024-01-01 10:00:00.12|2024-01-01 10:00:00|2024-01-02|[1, NULL]|{b -> 2, a -> 1}|{NULL, x}|
+----+----+------+------+-----+---+----+-------------------+----------------------+-------------------+----------+---------+----------------+---------+

"""

CANONICAL = (
    "NULL", "true", "1.0E10", "1.0E-5", "0.001", "0.1", "3.50", "2024-01-01 10:00:00",
    "2024-01-01 10:00:00.12", "2024-01-01 10:00:00", "2024-01-02", "[1, NULL]", "{a -> 1, b -> 2}", "(NULL, x)",
)


def _split(text):
    """(tableau part, print connector part) of FLINK_VALUES."""
    lines = text.splitlines()
    cut = next(i for i, line in enumerate(lines) if line.startswith("+I["))
    return "\n".join(lines[:cut]), "\n".join(lines[cut:])


def test_flink_tableau_values():
    tableau, _ = _split(FLINK_VALUES)
    assert flink_records(tableau) == Counter({CANONICAL: 1})


def test_flink_print_connector_values():
    _, printed = _split(FLINK_VALUES)
    assert flink_records(printed) == Counter({CANONICAL: 1})


def test_spark_show_values():
    assert spark_records(SPARK_VALUES) == Counter({CANONICAL: 1})


def test_the_engines_agree_on_the_same_values():
    assert flink_records(FLINK_VALUES) == Counter({CANONICAL: 2})
    assert spark_records(SPARK_VALUES) + spark_records(SPARK_VALUES) == flink_records(FLINK_VALUES)


# nesting: SELECT ROW(MAP['a', 1], ARRAY[2]) AS r, MAP['k', ROW(1, 'x')] AS m,
# ARRAY[ROW(1, 'a'), ROW(2, 'b')] AS a (Flink: print() and a print connector table; Spark:
# named_struct / map / array, show(truncate=False))
FLINK_NESTED = """\
+--------------------------------+--------------------------------+--------------------------------+
|                              r |                              m |                              a |
+--------------------------------+--------------------------------+--------------------------------+
|                   ({a=1}, [2]) |                     {k=(1, x)} |               [(1, a), (2, b)] |
+--------------------------------+--------------------------------+--------------------------------+
1 row in set
+I[+I[{a=1}, [2]], {k=+I[1, x]}, [+I[1, a], +I[2, b]]]
"""

SPARK_NESTED = """\
+---------------+-------------+----------------+
|r              |m            |a               |
+---------------+-------------+----------------+
|{{a -> 1}, [2]}|{k -> {1, x}}|[{1, a}, {2, b}]|
+---------------+-------------+----------------+

"""


def test_nested_rows_maps_arrays_agree():
    expected = Counter({("({a -> 1}, [2])", "{k -> (1, x)}", "[(1, a), (2, b)]"): 1})
    assert spark_records(SPARK_NESTED) == expected
    assert flink_records(FLINK_NESTED) == expected + expected  # tableau and print connector


# Spark's show() with truncation (the default): right-aligned cells; a captured frame
SPARK_RIGHT_ALIGNED = """\
+-----+-----+------+--------+----------+-------------------+------------+--------------+----------+
|  sku|price|weight|in_stock|  released|            updated|       sizes|         attrs|     maker|
+-----+-----+------+--------+----------+-------------------+------------+--------------+----------+
|tee-1|19.90|   0.2|    true|2023-05-01|2024-01-15 09:30:00|[38, 40, 42]|{color -> red}|{Knit, PT}|
+-----+-----+------+--------+----------+-------------------+------------+--------------+----------+

"""


def test_spark_right_aligned_show():
    assert spark_records(SPARK_RIGHT_ALIGNED) == Counter(
        {("tee-1", "19.90", "0.2", "true", "2023-05-01", "2024-01-15 09:30:00", "[38, 40, 42]",
          "{color -> red}", "(Knit, PT)"): 1}
    )


def test_spark_empty_frame_and_showing_line():
    empty = "+---+---+\n|  a|  b|\n+---+---+\n+---+---+\n\n"
    assert spark_records(empty) == Counter()
    shown = "+---+\n|a  |\n+---+\n|1  |\n+---+\nonly showing top 1 row\n"
    assert spark_records(shown) == Counter({("1",): 1})


def test_spark_plain_lines_are_one_field_records():
    assert spark_records("Row a=1\n\nhello  \n") == Counter({("Row a=1",): 1, ("hello",): 1})


# print(row) of collected rows, as PyFlink 2.3 printed them (words.execute().collect() of
# from_elements([('a', 1, None, 2.5), ('b, c', 2, 'x', 1e-5)], ['word', 'n', 's', 'd'])) and as
# Spark 4 prints the same rows of df.collect()
FLINK_ROWS = "<Row('a', 1, None, 2.5)>\n<Row('b, c', 2, 'x', 1e-05)>\n"
SPARK_ROWS = "Row(word='b, c', n=2, s='x', d=1e-05)\nRow(word='a', n=1, s=None, d=2.5)\n"


def test_printed_rows_are_records_on_both_engines():
    expected = Counter({("'a'", "1", "None", "2.5"): 1, ("'b, c'", "2", "'x'", "1e-05"): 1})
    assert flink_records(FLINK_ROWS) == expected
    assert spark_records(SPARK_ROWS) == expected


def test_printed_rows_keep_their_differences():
    assert spark_records("Row(word='a', n=1, s=None, d=2.5)\n") != flink_records("<Row('a', 1, None, 2.6)>\n")
    assert flink_records("<Row('a', 1)>\n") != flink_records("<Row('a', '1')>\n")
    # a Spark Row form on Flink's side (or Flink's on Spark's) is not read as a row
    assert flink_records("Row(a=1)\n") == Counter({("Row(a=1)",): 1})
    assert spark_records("<Row(1)>\n") == Counter({("<Row(1)>",): 1})
    assert spark_records("Row(a=1, (\n") == Counter({("Row(a=1, (",): 1})


# --- normalise_value, rule by rule ------------------------------------------------------------


@pytest.mark.parametrize(
    "flink, spark",
    [
        ("<NULL>", "NULL"),  # tableau / show
        ("null", "NULL"),  # print connector / show
        ("TRUE", "true"),
        ("FALSE", "false"),
        ("2024-01-01 10:00:00.000", "2024-01-01 10:00:00"),  # TIMESTAMP(3) in the tableau
        ("2024-01-01T10:00", "2024-01-01 10:00:00"),  # print connector: LocalDateTime.toString
        ("2024-01-01T10:00:05", "2024-01-01 10:00:05"),
        ("2024-01-01T10:00:00.120", "2024-01-01 10:00:00.12"),
        ("1970-01-01T00:00:05Z", "1970-01-01 00:00:05"),  # print connector: TIMESTAMP_LTZ, Instant.toString (UTC)
        ("2024-01-01 10:00:00.123", "2024-01-01 10:00:00.123"),
        ("[NULL]", "[NULL]"),  # nested NULL in the tableau is NULL, not <NULL>
        ("[null]", "[NULL]"),
        ("{k=NULL}", "{k -> NULL}"),
        ("{b=2, a=1}", "{a -> 1, b -> 2}"),
        ("{}", "{}"),
        ("(NULL, z)", "{NULL, z}"),
        ("+I[null, z]", "{NULL, z}"),  # a nested row in a print connector line
        ("x'0102'", "[01 02]"),  # BYTES: tableau / show
    ],
)
def test_normalise_value_maps_both_engines_to_one_text(flink, spark):
    assert normalise_value(flink) == normalise_value(spark)


@pytest.mark.parametrize(
    "a, b",
    [
        ("1", "1.5"),  # Flink's AVG over INT is an INT, Spark's a DOUBLE: a real difference
        ("55.0", "55"),  # DOUBLE vs INT
        ("3.50", "3.5"),  # DECIMAL(5,2) vs DOUBLE
        ("2024-01-01 10:00:00", "2024-01-01 10:00:01"),
        ("<NULL>", ""),  # NULL is not the empty string
        ("{a=1}", "{a -> 2}"),
        ("(1, x)", "{1, y}"),
        ("true", "True"),  # Python's True (plain print) is not a SQL boolean
    ],
)
def test_normalise_value_keeps_differences(a, b):
    assert normalise_value(a) != normalise_value(b)


def test_doubles_print_alike():
    # Java Double.toString on both engines: captured values kept as they are
    for text in ("1.0E10", "1.0E-5", "0.001", "1.2345678E7", "-1.0E-4", "99.97", "1234567.0", "1.0E7"):
        assert normalise_value(text) == text


# --- Flink tableau boxes and changelogs -------------------------------------------------------

# captured: clicks_streaming_counts, in_streaming_mode, group_by count
STREAMING_BOX = """\
+----+--------------------------------+----------------------+
| op |                      user_name |               clicks |
+----+--------------------------------+----------------------+
| +I |                          alice |                    1 |
| +I |                            bob |                    1 |
| -U |                          alice |                    1 |
| +U |                          alice |                    2 |
| -D |                            bob |                    1 |
+----+--------------------------------+----------------------+
5 rows in set
"""


def test_streaming_box_is_folded_into_the_final_table():
    assert flink_records(STREAMING_BOX) == Counter({("alice", "2"): 1})


def test_streaming_box_stopped_while_printing_is_read_to_the_end():
    # an endless query's print, the program stopped: no closing border (a reference run's output)
    text = "+----+------+-----+\n| op | city | deg |\n+----+------+-----+\n| +I | oslo |  25 |\n| +I | rome |  31 |\n"
    assert flink_records(text) == Counter({("oslo", "25"): 1, ("rome", "31"): 1})
    # a line that is no row after the rows: not a box (its lines are plain records)
    assert ("+----+------+-----+",) in flink_records(text + "stopped\n")


def test_update_before_without_insert_fails():
    text = STREAMING_BOX.replace("| +I |                          alice |", "| +I |                          carol |")
    with pytest.raises(ChangelogError, match="-U of \\('alice', '1'\\)"):
        flink_records(text)


def test_delete_of_an_absent_row_fails_in_print_lines():
    with pytest.raises(ChangelogError):
        flink_records("+I[a, 1]\n-D[a, 2]\n")


def test_batch_box_keeps_duplicates_and_skips_header_and_count():
    text = (
        "+-----+------+\n|  id | name |\n+-----+------+\n|   1 |    a |\n|   1 |    a |\n"
        "+-----+------+\n2 rows in set\nEmpty set\n"
    )
    assert flink_records(text) == Counter({("1", "a"): 2})


def test_box_cells_are_cut_at_the_border_so_a_bar_in_a_value_stays():
    text = "+-----+\n|   s |\n+-----+\n| a|b |\n+-----+\n1 row in set\n"
    assert flink_records(text) == Counter({("a|b",): 1})


def test_wide_characters_and_empty_set():
    # captured: execute_sql("SELECT '中文' AS s, 'ab' AS t").print(), and an empty result in batch
    # mode (no box at all); the CJK row is two characters shorter than its border
    text = """\
Empty set
+--------------------------------+--------------------------------+
|                              s |                              t |
+--------------------------------+--------------------------------+
|                           中文 |                             ab |
+--------------------------------+--------------------------------+
1 row in set
"""
    assert flink_records(text) == Counter({("中文", "ab"): 1})


# captured: Spark 4 running by hand the equivalent of fixtures/table/product_catalog_types
# (createDataFrame of the same rows and schema, .show(truncate=False); then the INSERT's SELECT
# with try_element_at(sizes, 1) for sizes[1], shown instead of printed)
SPARK_CATALOG = """\
+------+------+------+--------+----------+----------------------+------------+----------------+------------+
|sku   |price |weight|in_stock|released  |updated               |sizes       |attrs           |maker       |
+------+------+------+--------+----------+----------------------+------------+----------------+------------+
|tee-1 |19.90 |0.2   |true    |2023-05-01|2024-01-15 09:30:00   |[38, 40, 42]|{color -> red}  |{Knit, PT}  |
|boot-7|120.00|1.35  |false   |2022-11-20|2024-02-01 17:05:12.25|[41]        |{color -> brown}|{Stride, IT}|
|cap-3 |8.50  |0.05  |true    |2024-03-03|2024-03-03 00:00:00   |[]          |{}              |{Knit, PT}  |
+------+------+------+--------+----------+----------------------+------------+----------------+------------+

+------+--------+----------+-----+----------+----------+----------------------+-----+
|sku   |price_x2|first_size|color|maker_name|released  |updated               |heavy|
+------+--------+----------+-----+----------+----------+----------------------+-----+
|tee-1 |39.80   |38        |red  |Knit      |2023-05-01|2024-01-15 09:30:00   |false|
|boot-7|240.00  |41        |brown|Stride    |2022-11-20|2024-02-01 17:05:12.25|true |
|cap-3 |17.00   |NULL      |NULL |Knit      |2024-03-03|2024-03-03 00:00:00   |false|
+------+--------+----------+-----+----------+----------+----------------------+-----+
"""


def test_a_fixture_and_its_spark_equivalent_give_the_same_records():
    flink = flink_records((TABLE_FIXTURES / "product_catalog_types" / "expected_stdout.txt").read_text())
    assert flink == spark_records(SPARK_CATALOG)
    assert sum(flink.values()) == 6


# captured: Spark 4 running by hand batch equivalents of two streaming fixtures: the final
# table of clicks_streaming_counts (groupBy count / countDistinct) and the two outputs of
# trades_stream_table_bridge (where + select, groupBy sum)
SPARK_CLICKS = """\
+---------+------+-----+
|user_name|clicks|pages|
+---------+------+-----+
|alice    |3     |2    |
|carol    |1     |1    |
|bob      |2     |2    |
+---------+------+-----+
"""

SPARK_TRADES = """\
+------+--------+
|symbol|notional|
+------+--------+
|ACME  |1260.0  |
|ACME  |3225.0  |
|INIT  |19700.0 |
+------+--------+

+------+------+
|symbol|volume|
+------+------+
|INIT  |240   |
|GLOB  |15    |
|ACME  |420   |
+------+------+
"""


@pytest.mark.parametrize("name, spark", [("clicks_streaming_counts", SPARK_CLICKS), ("trades_stream_table_bridge", SPARK_TRADES)])
def test_streaming_fixtures_fold_to_their_spark_batch_equivalents(name, spark):
    assert flink_records((TABLE_FIXTURES / name / "expected_stdout.txt").read_text()) == spark_records(spark)


def test_spark_wide_characters():
    # captured: spark.sql("SELECT '中文' AS s, 'ab' AS t").show(truncate=False)
    assert spark_records("""\
+----+---+
|s   |t  |
+----+---+
|中文|ab |
+----+---+
""") == Counter({("中文", "ab"): 1})


def test_values_differ_between_engines():
    flink = "+----+\n| av |\n+----+\n|  1 |\n+----+\n1 row in set\n"
    spark = "+---+\n|av |\n+---+\n|1.5|\n+---+\n"
    assert flink_records(flink) != spark_records(spark)


# --- print connector lines --------------------------------------------------------------------


def test_print_prefixes_and_folding_per_sink():
    # captured forms: 'totals> ' (identifier, parallelism 1), 'status:2> ' (identifier, parallelism 2),
    # '1> ' (parallelism 2), none (parallelism 1)
    text = (
        "totals> +I[a, 1]\ntotals> -U[a, 1]\ntotals> +U[a, 4]\n"
        "status:2> +I[o-1, 1]\nstatus:1> +I[o-2, 1]\nstatus:2> -U[o-1, 1]\nstatus:2> +U[o-1, 2]\n"
        "1> +I[x, [1, 2], +I[1, y]]\n+I[2024-01-01T10:00, 3.50]\n"
    )
    assert flink_records(text) == Counter(
        {
            ("a", "4"): 1,
            ("o-1", "2"): 1,
            ("o-2", "1"): 1,
            ("x", "[1, 2]", "(1, y)"): 1,
            ("2024-01-01 10:00:00", "3.50"): 1,
        }
    )


# captured: trades_stream_table_bridge, t_env.to_data_stream(table).print("large") and
# to_changelog_stream(...).print("volume"): PyFlink joins the Python str() of the fields with ","
DATASTREAM_PRINT = """\
large> +I[ACME,1260.0]
large> +I[INIT,19700.0]
volume> +I[ACME,120]
volume> -U[ACME,120]
volume> +U[ACME,420]
"""


def test_datastream_print_of_rows():
    assert flink_records(DATASTREAM_PRINT) == Counter({("ACME", "1260.0"): 1, ("INIT", "19700.0"): 1, ("ACME", "420"): 1})


def test_datastream_print_python_texts_become_java_texts():
    # Python str(): None, True, 1e-05, 12345678.0; Java / Spark: null, true, 1.0E-5, 1.2345678E7
    assert flink_records("+I[None,True,1e-05,12345678.0,x]\n") == Counter(
        {("NULL", "true", "1.0E-5", "1.2345678E7", "x"): 1}
    )
    # the same texts in a Java-printed line (with ", ") are strings and stay as they are
    assert flink_records("+I[None, 1e-05]\n") == Counter({("None", "1e-05"): 1})


def test_plain_lines_are_one_field_records_unnormalised():
    text = "outdoor: 1\n   k  v\n0  a  1\n\nTrue\n"
    assert flink_records(text) == Counter({("outdoor: 1",): 1, ("   k  v",): 1, ("0  a  1",): 1, ("True",): 1})


# --- files written by the Table API filesystem sink (tests/flink_reference.py) ------------------


def test_table_sink_part_files_are_renamed(tmp_path):
    part = tmp_path / "out" / "part-3dff63ca-bbde-4652-bb66-84b8ce30d2da-task-0-file-0"
    part.parent.mkdir()
    part.write_text("b\na\n")
    assert read_output_files(tmp_path) == {"out/part-UUID-N": ["a", "b"]}


def test_spark_datastream_print_lines_read_as_flinks():
    """Flink's DataStream print lines of a Table turned into a DataStream read as records of their
    sink (a converted program prints Python's forms of the same records: below)."""
    spark = "large> +I[ACME,1260.0]\nlarge> +I[INIT,19700.0]\nplain line\n"
    flink = "large> +I[ACME,1260.0]\nlarge> +I[INIT,19700.0]\nplain line\n"
    assert spark_records(spark) == flink_records(flink) == Counter(
        {("ACME", "1260.0"): 1, ("INIT", "19700.0"): 1, ("plain line",): 1})
    assert spark_records("large> +I[ACME,1260.0]\n") != flink_records("large> +I[ACME,1260.5]\n")
    # a converted RDD stream's print("name>", record): Python's forms, read as the same values
    assert spark_records("per_city> ('Lyon', 12)\nlight_pairs> (True, Row(id='s2', kg=3))\n") == flink_records(
        "per_city> (Lyon,12)\nlight_pairs> (true,(s2,3))\n")
    assert spark_records("per_city> ('Lyon', 13)\n") != flink_records("per_city> (Lyon,12)\n")
    assert spark_records("other> ('Lyon', 12)\n") != flink_records("per_city> (Lyon,12)\n")


def test_retract_stream_print_lines_fold_into_the_rows_left():
    """1.x to_retract_stream(...).print() of an updating table on Flink 2.3 prints (true,+I[...]),
    (false,-U[...]), (true,+U[...]): folded per sink, true adds a row, false removes one."""
    flink = "stock> (true,+I[A, rice, 10])\nstock> (true,+I[B, oats, 2])\nstock> (false,-U[A, rice, 10])\n" \
            "stock> (true,+U[A, rice, 7])\n"
    assert flink_records(flink) == Counter({("A", "rice", "7"): 1, ("B", "oats", "2"): 1})
    assert flink_records(flink) != flink_records(flink.replace("(false,-U[A, rice, 10])\n", ""))
    with pytest.raises(ChangelogError):
        flink_records("(true,+I[A, rice, 10])\n(false,-U[A, rice, 9])\n")
