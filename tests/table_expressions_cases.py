"""The cases of tests/test_table_expressions.py, shared with the recording script that runs them
on Flink (tests/table_expressions_reference.py, in the reference venv: plain data, no imports of
flink2spark or pyspark).

CASES: (PyFlink expression source, expected PySpark code, kind); kind "scalar" is evaluated with
``select`` row by row, "agg" with a whole-table ``select`` of the aggregate, "order" as the key
of ``order_by`` (the values: the row numbers in sorted order).
REFUSALS: (PyFlink expression source, a fragment of the Untranslatable message).
The input table: COLUMNS (name, Flink DataTypes source, Spark type), MAIN rows (ordinary values,
negatives, zero, NULLs, empty strings) and EDGE rows (integers at their limits, a zero divisor,
1e308, -0.0), evaluated separately so that an error on an edge row does not hide the main ones.
KNOWN_DIFFERENCES: (source, "main"/"edge") -> what differs, asserted as such by the tests.
"""

from __future__ import annotations

import datetime
import hashlib
import math
from decimal import Decimal

COLUMNS = [
    ("k", "DataTypes.INT()", "INT"),  # row number: results are compared by it
    ("i", "DataTypes.INT()", "INT"),
    ("j", "DataTypes.INT()", "INT"),
    ("l", "DataTypes.BIGINT()", "BIGINT"),
    ("d", "DataTypes.DOUBLE()", "DOUBLE"),
    ("s", "DataTypes.STRING()", "STRING"),
    ("t", "DataTypes.STRING()", "STRING"),
    ("b", "DataTypes.BOOLEAN()", "BOOLEAN"),
    ("dec", "DataTypes.DECIMAL(10, 2)", "DECIMAL(10,2)"),
    ("arr", "DataTypes.ARRAY(DataTypes.INT())", "ARRAY<INT>"),
    ("m", "DataTypes.MAP(DataTypes.STRING(), DataTypes.INT())", "MAP<STRING, INT>"),
    ("r", 'DataTypes.ROW([DataTypes.FIELD("x", DataTypes.INT()), DataTypes.FIELD("y", DataTypes.STRING())])',
     "STRUCT<x: INT, y: STRING>"),
    ("dt", "DataTypes.DATE()", "DATE"),
    ("js", "DataTypes.STRING()", "STRING"),  # JSON text (and text that is not JSON)
]

SCHEMA = {name: spark for name, _, spark in COLUMNS}  # what the translator is told

MAIN = [
    (1, 7, 2, 10, 2.5, "ab", "a1b22", True, Decimal("1.25"), [1, 2, 3], {"k": 1}, (1, "x"), datetime.date(2024, 1, 31),
     '{"a": {"b": 1}, "n": 12, "f": 1.5, "s": "x", "t": true, "arr": [1, 2, "z"], "nul": null}'),
    (2, -7, 2, -10, -2.5, "", "", False, Decimal("-1.25"), [], {}, (None, None), datetime.date(1970, 1, 1), '{"a": '),
    (3, 0, -3, 0, 0.0, " x ", "  xx  ", None, Decimal("0.00"), [None, 5], {"z": 0}, None, None, "[1, 2, 3]"),
    (4, None, 3, None, None, None, None, None, None, None, None, None, None, None),
    (5, 5, -2, 123456789012, -0.5, "Hello World", "héllo_%", True, Decimal("12345678.99"), [7], {"a": 2}, (3, "zz"),
     datetime.date(2000, 2, 29), '{"n": 7, "s": "h\\u00e9llo", "f": 2.25, "arr": [], "a": {"z": 1, "b": [true, null]}, "t": false}'),
    (6, -5, 4, -1, 1e10, "ABC", "x%_y", False, Decimal("0.01"), [1], {"k": 3}, (-4, ""), datetime.date(1999, 12, 31), '"text"'),
]

EDGE = [
    (7, 2147483647, 0, 9223372036854775807, 1e308, "zz", "z", True, Decimal("99999999.99"), [1], {"k": 1}, (0, "e"),
     datetime.date(2024, 12, 31), ""),
    (8, -2147483648, -1, -9223372036854775808, -0.0, "a", "b", False, Decimal("-99999999.99"), [2], {"k": 2}, (0, "f"),
     datetime.date(2024, 1, 1), '{"n": -2147483648}'),
    (9, 1, 1, 1, float("nan"), "n", "n", None, Decimal("0"), [3], {"k": 3}, (0, "g"), datetime.date(2024, 6, 1), "5"),
]

def _json_parsed(path: str) -> str:
    return f'F.try_variant_get(F.try_parse_json(F.col("js")), "{path}", "variant")'


def _json_nested(path: str) -> str:
    return f'F.schema_of_variant({_json_parsed(path)}).rlike("^(OBJECT|ARRAY)")'


def _json_text(path: str) -> str:
    """json_value RETURNING STRING: the scalar's text, NULL for an object or array."""
    return f'F.when({_json_nested(path)}, F.lit(None)).otherwise(F.get_json_object(F.col("js"), "{path}"))'


CASES = [
    # columns and literals
    ('col("i")', 'F.col("i")', "scalar"),
    ('col("s")', 'F.col("s")', "scalar"),
    ("lit(1)", "F.lit(1)", "scalar"),
    ('lit("x")', 'F.lit("x")', "scalar"),
    ("lit(2.5)", "F.lit(2.5)", "scalar"),
    ("lit(True)", "F.lit(True)", "scalar"),
    ("lit(3000000000)", "F.lit(3000000000)", "scalar"),
    ("lit(1, DataTypes.INT().not_null())", "F.lit(1)", "scalar"),
    ('col("i").alias("x")', 'F.col("i").alias("x")', "scalar"),
    ("null_of(DataTypes.INT())", 'F.lit(None).cast("INT")', "scalar"),
    # arithmetic
    ('col("i") + col("j")', '(F.col("i") + F.col("j"))', "scalar"),
    ('col("i") + 1', '(F.col("i") + F.lit(1))', "scalar"),
    ('1 + col("i")', '(F.lit(1) + F.col("i"))', "scalar"),
    ('col("l") + col("i")', '(F.col("l") + F.col("i"))', "scalar"),
    ('col("d") + col("i")', '(F.col("d") + F.col("i"))', "scalar"),
    ('col("dec") + col("dec")', '(F.col("dec") + F.col("dec"))', "scalar"),
    ('col("i") - col("j")', '(F.col("i") - F.col("j"))', "scalar"),
    ('col("i") * col("j")', '(F.col("i") * F.col("j"))', "scalar"),
    ('col("d") * 2', '(F.col("d") * F.lit(2))', "scalar"),
    ('col("dec") * col("dec")', '(F.col("dec") * F.col("dec"))', "scalar"),
    ('col("i") / col("j")', 'F.call_function("div", F.col("i"), F.col("j")).cast("INT")', "scalar"),
    ('col("l") / col("j")', 'F.call_function("div", F.col("l"), F.col("j")).cast("BIGINT")', "scalar"),
    ('col("i") / 2', 'F.call_function("div", F.col("i"), F.lit(2)).cast("INT")', "scalar"),
    ('col("i") / 2.0', '(F.col("i") / F.lit(2.0))', "scalar"),
    ('col("d") / 4', '(F.col("d") / F.lit(4))', "scalar"),
    ('col("i") % col("j")', '(F.col("i") % F.col("j"))', "scalar"),
    ('col("l") % 3', '(F.col("l") % F.lit(3))', "scalar"),
    ('col("i") ** 2', 'F.pow(F.col("i"), F.lit(2))', "scalar"),
    ('call("POWER", col("d"), 2)', 'F.pow(F.col("d"), F.lit(2))', "scalar"),
    ('-col("i")', '(-F.col("i"))', "scalar"),
    ('abs(col("i"))', 'F.abs(F.col("i"))', "scalar"),
    ('col("d").abs', 'F.abs(F.col("d"))', "scalar"),
    ('col("i").floor()', 'F.floor(F.col("i")).cast("INT")', "scalar"),
    ('col("d").round(0)', 'F.round(F.col("d"), 0)', "scalar"),
    ('col("d").round(1)', 'F.round(F.col("d"), 1)', "scalar"),
    ('col("i").round(0)', 'F.round(F.col("i"), 0)', "scalar"),
    ('col("i").round(2)', 'F.round(F.col("i"), 2)', "scalar"),
    ('col("i").round(-1)', 'F.round(F.col("i"), -1)', "scalar"),
    ('col("l").round(-2)', 'F.round(F.col("l"), -2)', "scalar"),
    ('col("d").sqrt', 'F.sqrt(F.col("d"))', "scalar"),
    ('col("d").exp', 'F.exp(F.col("d"))', "scalar"),
    ('col("i").sin', 'F.sin(F.col("i"))', "scalar"),
    ('col("d").cos', 'F.cos(F.col("d"))', "scalar"),
    ('col("d").tan', 'F.tan(F.col("d"))', "scalar"),
    ('col("d").atan', 'F.atan(F.col("d"))', "scalar"),
    ('col("i").radians', 'F.radians(F.col("i"))', "scalar"),
    ('col("d") == col("d")', '(F.col("d") == F.col("d"))', "scalar"),
    ('col("d") > 0', 'F.when(~F.isnan(F.col("d")), (F.col("d") > F.lit(0))).otherwise(F.when(F.col("d").isNotNull(), F.lit(False)))', "scalar"),
    ('col("i").sign', 'F.signum(F.col("i")).cast("INT")', "scalar"),
    ('col("d").sign', 'F.signum(F.col("d"))', "scalar"),
    ('col("d").degrees', 'F.degrees(F.col("d"))', "scalar"),
    # comparisons and logic
    ('col("i") == col("j")', '(F.col("i") == F.col("j"))', "scalar"),
    ('col("i") == 7', '(F.col("i") == F.lit(7))', "scalar"),
    ('col("i") != 7', '(F.col("i") != F.lit(7))', "scalar"),
    ('col("i") < col("j")', '(F.col("i") < F.col("j"))', "scalar"),
    ('col("d") >= 0', 'F.when(~F.isnan(F.col("d")), (F.col("d") >= F.lit(0))).otherwise(F.when(F.col("d").isNotNull(), F.lit(False)))', "scalar"),
    ('col("d") < col("i")', 'F.when(~F.isnan(F.col("d")), (F.col("d") < F.col("i"))).otherwise(F.when(F.col("d").isNotNull() & F.col("i").isNotNull(), F.lit(False)))', "scalar"),
    ('col("s") == "ab"', '(F.col("s") == F.lit("ab"))', "scalar"),
    ('col("s") < col("t")', '(F.col("s") < F.col("t"))', "scalar"),
    ('col("b") & (col("i") > 0)', '(F.col("b") & (F.col("i") > F.lit(0)))', "scalar"),
    ('col("b") | (col("i") > 0)', '(F.col("b") | (F.col("i") > F.lit(0)))', "scalar"),
    ('~col("b")', '(~F.col("b").eqNullSafe(F.lit(True)))', "scalar"),
    ('not_(col("b"))', '(~F.col("b"))', "scalar"),
    ('and_(col("b"), col("i") > 0, col("j") > 0)', '(F.col("b") & (F.col("i") > F.lit(0)) & (F.col("j") > F.lit(0)))', "scalar"),
    ('or_(col("b"), col("i") > 0)', '(F.col("b") | (F.col("i") > F.lit(0)))', "scalar"),
    ('col("b").is_true', 'F.col("b").eqNullSafe(F.lit(True))', "scalar"),
    ('col("b").is_false', 'F.col("b").eqNullSafe(F.lit(False))', "scalar"),
    ('col("b").is_not_true', '(~F.col("b").eqNullSafe(F.lit(True)))', "scalar"),
    ('col("b").is_not_false', '(~F.col("b").eqNullSafe(F.lit(False)))', "scalar"),
    ('col("i").is_null', 'F.col("i").isNull()', "scalar"),
    ('col("s").is_not_null', 'F.col("s").isNotNull()', "scalar"),
    ('col("i").in_(7, 0, -5)', 'F.col("i").isin(F.lit(7), F.lit(0), F.lit(-5))', "scalar"),
    ('col("s").in_("ab", "")', 'F.col("s").isin(F.lit("ab"), F.lit(""))', "scalar"),
    ('col("i").between(-5, 5)', 'F.col("i").between(F.lit(-5), F.lit(5))', "scalar"),
    ('col("i").not_between(-5, 5)', '(~F.col("i").between(F.lit(-5), F.lit(5)))', "scalar"),
    ('col("d").between(0, 3)', '(F.when(~F.isnan(F.col("d")), (F.col("d") >= F.lit(0))).otherwise(F.when(F.col("d").isNotNull(), F.lit(False))) & F.when(~F.isnan(F.col("d")), (F.col("d") <= F.lit(3))).otherwise(F.when(F.col("d").isNotNull(), F.lit(False))))', "scalar"),
    ('col("d").not_between(0, 3)', '(F.when(~F.isnan(F.col("d")), (F.col("d") < F.lit(0))).otherwise(F.when(F.col("d").isNotNull(), F.lit(False))) | F.when(~F.isnan(F.col("d")), (F.col("d") > F.lit(3))).otherwise(F.when(F.col("d").isNotNull(), F.lit(False))))', "scalar"),
    ('col("i").between(col("d"), 10)', '(F.when(~F.isnan(F.col("d")), (F.col("i") >= F.col("d"))).otherwise(F.when(F.col("i").isNotNull() & F.col("d").isNotNull(), F.lit(False))) & (F.col("i") <= F.lit(10)))', "scalar"),
    ('col("t").split_index("2", 0)', 'F.when(F.col("t") != F.lit(""), F.try_element_at(F.split(F.col("t"), "2"), F.lit(1)))', "scalar"),
    ('col("t").split_index("2", 1)', 'F.when(F.col("t") != F.lit(""), F.try_element_at(F.split(F.col("t"), "2"), F.lit(2)))', "scalar"),
    ('col("t").split_index("x", 2)', 'F.when(F.col("t") != F.lit(""), F.try_element_at(F.split(F.col("t"), "x"), F.lit(3)))', "scalar"),
    ('col("t").split_index("%", 0)', 'F.when(F.col("t") != F.lit(""), F.try_element_at(F.split(F.col("t"), "%"), F.lit(1)))', "scalar"),
    ('col("s").split_index(" ", 1)', 'F.when(F.col("s") != F.lit(""), F.try_element_at(F.split(F.col("s"), " "), F.lit(2)))', "scalar"),
    ('col("t").split_index(".", 0)', 'F.when(F.col("t") != F.lit(""), F.try_element_at(F.split(F.col("t"), "\\\\."), F.lit(1)))', "scalar"),
    ('col("t").split_index("22", 1)', 'F.when(F.col("t") != F.lit(""), F.try_element_at(F.split(F.col("t"), "22"), F.lit(2)))', "scalar"),
    ('if_then_else(col("i") > 0, col("i"), 0)', 'F.when((F.col("i") > F.lit(0)), F.col("i")).otherwise(F.lit(0))', "scalar"),
    ('if_then_else(col("b"), "yes", "no")', 'F.when(F.col("b"), F.lit("yes")).otherwise(F.lit("no"))', "scalar"),
    ('col("i").if_null(-1)', 'F.coalesce(F.col("i"), F.lit(-1))', "scalar"),
    ('coalesce(col("s"), col("t"), "none")', 'F.coalesce(F.col("s"), F.col("t"), F.lit("none"))', "scalar"),
    # strings
    ('col("s").upper_case', 'F.upper(F.col("s"))', "scalar"),
    ('col("t").lower_case', 'F.lower(F.col("t"))', "scalar"),
    ('col("t").char_length', 'F.char_length(F.col("t"))', "scalar"),
    ('col("s").trim()', 'F.trim(F.col("s"))', "scalar"),
    ('col("t").trim_leading()', 'F.ltrim(F.col("t"))', "scalar"),
    ('col("t").trim_trailing()', 'F.rtrim(F.col("t"))', "scalar"),
    ('col("t").trim("x")', 'F.trim(F.col("t"), F.lit("x"))', "scalar"),
    ('col("s").substring(1, 2)', 'F.substr(F.col("s"), F.lit(1), F.lit(2))', "scalar"),
    ('col("s").substring(2)', 'F.substr(F.col("s"), F.lit(2))', "scalar"),
    ('col("s").substring(0, 2)', 'F.substr(F.col("s"), F.lit(0), F.lit(2))', "scalar"),
    ('col("s").substring(-2, 1)', 'F.substr(F.col("s"), F.lit(-2), F.lit(1))', "scalar"),
    ('col("s").substr(3)', 'F.substr(F.col("s"), F.lit(3))', "scalar"),
    ('col("s").replace("l", "L")', 'F.replace(F.col("s"), F.lit("l"), F.lit("L"))', "scalar"),
    ('col("t").regexp_replace("[0-9]+", "#")', 'F.regexp_replace(F.col("t"), F.lit("[0-9]+"), F.lit("#"))', "scalar"),
    ('col("s").concat(col("t"))', 'F.concat(F.col("s"), F.col("t"))', "scalar"),
    ('concat(col("s"), "-", col("t"))', 'F.concat(F.col("s"), F.lit("-"), F.col("t"))', "scalar"),
    ('concat_ws("-", col("s"), col("t"))', 'F.concat_ws("-", F.col("s"), F.col("t"))', "scalar"),
    ('col("s").like("a%")', 'F.col("s").like("a%")', "scalar"),
    ('col("s").like("_b%")', 'F.col("s").like("_b%")', "scalar"),
    ('col("s").lpad(4, "*")', 'F.lpad(F.col("s"), 4, "*")', "scalar"),
    ('col("s").rpad(3, "ab")', 'F.rpad(F.col("s"), 3, "ab")', "scalar"),
    ('col("s").repeat(2)', 'F.repeat(F.col("s"), F.lit(2))', "scalar"),
    ('col("s").reverse', 'F.reverse(F.col("s"))', "scalar"),
    ('col("s").to_base64', 'F.base64(F.col("s"))', "scalar"),
    ('col("s").md5', 'F.md5(F.col("s"))', "scalar"),
    ('col("s").starts_with("a")', 'F.startswith(F.col("s"), F.lit("a"))', "scalar"),
    ('col("s").ends_with("C")', 'F.endswith(F.col("s"), F.lit("C"))', "scalar"),
    ('lit("b").position(col("s"))', 'F.position(F.lit("b"), F.col("s"))', "scalar"),
    ('col("s").sha256', 'F.sha2(F.col("s"), 256)', "scalar"),
    ('col("s").sha224', 'F.sha2(F.col("s"), 224)', "scalar"),
    ('col("s").sha384', 'F.sha2(F.col("s"), 384)', "scalar"),
    ('col("s").sha512', 'F.sha2(F.col("s"), 512)', "scalar"),
    ('col("s").sha1', 'F.sha1(F.col("s"))', "scalar"),
    ('col("t").trim_leading("x")', 'F.ltrim(F.col("t"), F.lit("x"))', "scalar"),
    ('col("t").trim_trailing("%_y")', 'F.rtrim(F.col("t"), F.lit("%_y"))', "scalar"),
    ('col("s").left(2)', 'F.left(F.col("s"), F.lit(2))', "scalar"),
    ('col("s").right(2)', 'F.right(F.col("s"), F.lit(2))', "scalar"),
    ('col("s").regexp_extract("([a-z])b", 1)', 'F.when(F.col("s").rlike("([a-z])b"), F.regexp_extract(F.col("s"), "([a-z])b", 1))', "scalar"),
    ('col("t").regexp_extract("b([0-9]+)", 1)', 'F.when(F.col("t").rlike("b([0-9]+)"), F.regexp_extract(F.col("t"), "b([0-9]+)", 1))', "scalar"),
    ('call("UPPER", col("s"))', 'F.upper(F.col("s"))', "scalar"),
    ('call("LOWER", col("t"))', 'F.lower(F.col("t"))', "scalar"),
    ('call("MD5", col("s"))', 'F.md5(F.col("s"))', "scalar"),
    ('call("REPLACE", col("s"), "l", "L")', 'F.replace(F.col("s"), F.lit("l"), F.lit("L"))', "scalar"),
    ('call("ABS", col("i"))', 'F.abs(F.col("i"))', "scalar"),
    ('call_sql("s")', 'F.col("s")', "scalar"),
    # dates
    ('col("t").to_date', 'F.to_date(F.col("t"))', "scalar"),
    ('lit("2024-02-29").to_date', 'F.to_date(F.lit("2024-02-29"))', "scalar"),
    ('lit("2024-1-5").to_date', 'F.to_date(F.lit("2024-1-5"))', "scalar"),
    ('col("dt").extract(TimeIntervalUnit.YEAR)', 'F.year(F.col("dt"))', "scalar"),
    ('col("dt").extract(TimeIntervalUnit.QUARTER)', 'F.quarter(F.col("dt"))', "scalar"),
    ('col("dt").extract(TimeIntervalUnit.MONTH)', 'F.month(F.col("dt"))', "scalar"),
    ('col("dt").extract(TimeIntervalUnit.WEEK)', 'F.weekofyear(F.col("dt"))', "scalar"),
    ('col("dt").extract(TimeIntervalUnit.DAY)', 'F.dayofmonth(F.col("dt"))', "scalar"),
    # casts
    ('col("i").cast(DataTypes.BIGINT())', 'F.col("i").cast("BIGINT")', "scalar"),
    ('col("i").cast(DataTypes.STRING())', 'F.col("i").cast("STRING")', "scalar"),
    ('col("d").cast(DataTypes.INT())', 'F.col("d").cast("INT")', "scalar"),
    ('col("d").cast(DataTypes.BIGINT())', 'F.col("d").cast("BIGINT")', "scalar"),
    ('col("i").cast(DataTypes.DOUBLE())', 'F.col("i").cast("DOUBLE")', "scalar"),
    ('col("dec").cast(DataTypes.DOUBLE())', 'F.col("dec").cast("DOUBLE")', "scalar"),
    ('lit("42").cast(DataTypes.INT())', 'F.lit("42").cast("INT")', "scalar"),
    ('lit(" 42 ").cast(DataTypes.INT())', 'F.lit(" 42 ").cast("INT")', "scalar"),
    ('lit("2024-02-29").cast(DataTypes.DATE())', 'F.lit("2024-02-29").cast("DATE")', "scalar"),
    ('col("s").try_cast(DataTypes.INT())', 'F.col("s").try_cast("INT")', "scalar"),
    ('col("t").try_cast(DataTypes.DOUBLE())', 'F.col("t").try_cast("DOUBLE")', "scalar"),
    ('col("s").try_cast(DataTypes.BIGINT())', 'F.col("s").try_cast("BIGINT")', "scalar"),
    ('col("i").cast(DataTypes.FLOAT())', 'F.col("i").cast("FLOAT")', "scalar"),
    ('lit("7").cast(DataTypes.SMALLINT())', 'F.lit("7").cast("SMALLINT")', "scalar"),
    # composite values
    ('col("arr").at(1)', 'F.try_element_at(F.col("arr"), F.lit(1))', "scalar"),
    ('col("arr")[2]', 'F.try_element_at(F.col("arr"), F.lit(2))', "scalar"),
    ('col("m").at("k")', 'F.try_element_at(F.col("m"), F.lit("k"))', "scalar"),
    ('col("r").get("x")', 'F.col("r").getField("x")', "scalar"),
    ('col("r").y', 'F.col("r").getField("y")', "scalar"),
    ('col("arr").array_contains(5)', 'F.when(F.col("arr").isNotNull(), F.coalesce(F.array_contains(F.col("arr"), F.lit(5)), F.lit(False)))', "scalar"),
    ('col("arr").array_contains(1)', 'F.when(F.col("arr").isNotNull(), F.coalesce(F.array_contains(F.col("arr"), F.lit(1)), F.lit(False)))', "scalar"),
    ('col("arr").cardinality', 'F.when(F.col("arr").isNotNull(), F.size(F.col("arr")))', "scalar"),
    ('col("m").cardinality', 'F.when(F.col("m").isNotNull(), F.size(F.col("m")))', "scalar"),
    # (PyFlink's collect() fails on a composite result holding a NULL: "Ran out of input")
    ('array(col("i").if_null(0), col("j"))', 'F.array(F.coalesce(F.col("i"), F.lit(0)), F.col("j"))', "scalar"),
    ('row(col("k"), col("t").if_null("-"))', 'F.struct(F.col("k").alias("f0"), F.coalesce(F.col("t"), F.lit("-")).alias("f1"))', "scalar"),
    ('row(col("k"), col("j")).get("f1")', 'F.struct(F.col("k").alias("f0"), F.col("j").alias("f1")).getField("f1")', "scalar"),
    ('map_("a", col("j"))', 'F.create_map(F.lit("a"), F.col("j"))', "scalar"),
    # order_by keys ("order": the row numbers k in the order the key sorts the table)
    ('col("i").asc', 'F.col("i").asc_nulls_last()', "order"),
    ('col("i").desc', 'F.col("i").desc_nulls_first()', "order"),
    ('col("s").asc', 'F.col("s").asc_nulls_last()', "order"),
    ('col("d").desc', 'F.col("d").desc_nulls_first()', "order"),
    ('col("d").asc', 'F.col("d").asc_nulls_last()', "order"),
    # aggregates (over the whole table)
    ('col("i").sum', 'F.sum(F.col("i")).cast("INT")', "agg"),
    ('col("l").sum', 'F.sum(F.col("l"))', "agg"),
    ('col("i").avg', 'F.call_function("div", F.sum(F.col("i")), F.count(F.col("i"))).cast("INT")', "agg"),
    ('col("l").avg', 'F.call_function("div", F.sum(F.col("l")), F.count(F.col("l"))).cast("BIGINT")', "agg"),
    ('call("SUM", col("i"))', 'F.sum(F.col("i")).cast("INT")', "agg"),
    ('call("MAX", col("l"))', 'F.max(F.col("l"))', "agg"),
    ('col("d").sum', 'F.sum(F.col("d"))', "agg"),
    ('col("dec").sum', 'F.sum(F.col("dec"))', "agg"),
    ('col("i").sum0', 'F.coalesce(F.sum(F.col("i")).cast("INT"), F.lit(0))', "agg"),
    ('col("i").count', 'F.count(F.col("i"))', "agg"),
    ('col("j").count.distinct', 'F.count_distinct(F.col("j"))', "agg"),
    ('col("j").sum.distinct', 'F.sum_distinct(F.col("j")).cast("INT")', "agg"),
    ('col("i").min', 'F.min(F.col("i"))', "agg"),
    ('col("s").max', 'F.max(F.col("s"))', "agg"),
    ('col("d").max', 'F.max(F.col("d"))', "agg"),  # NOTE F2S329 (a NaN: see KNOWN_DIFFERENCES)
    ('col("d").min', 'F.min(F.col("d"))', "agg"),
    ('col("d").avg', 'F.avg(F.col("d"))', "agg"),
    ('col("d").stddev_pop', 'F.stddev_pop(F.col("d"))', "agg"),
    ('col("d").stddev_samp', 'F.stddev_samp(F.col("d"))', "agg"),
    ('col("d").var_pop', 'F.var_pop(F.col("d"))', "agg"),
    ('col("d").var_samp', 'F.var_samp(F.col("d"))', "agg"),
    ('col("i").sum.alias("total")', 'F.sum(F.col("i")).cast("INT").alias("total")', "agg"),
    ('col("i").max - col("i").min', '(F.max(F.col("i")) - F.min(F.col("i")))', "agg"),
    # JSON functions of a JSON text (rules/table/_expressions.py: _json_form)
    *[(f'col("js").json_value("{path}")', _json_text(path), "scalar")
      for path in ("$.s", "$.a", "$.a.b", "$.n", "$.f", "$.t", "$.arr", "$.arr[2]", "$.nul", "$.missing", "$", "$[1]")],
    ('col("js").json_value("lax $.s", DataTypes.STRING())', _json_text("$.s"), "scalar"),
    ('col("js").json_value("$.n", DataTypes.INT())', 'F.try_variant_get(F.try_parse_json(F.col("js")), "$.n", "int")', "scalar"),
    ('col("js").json_value("$.s", DataTypes.INT())', 'F.try_variant_get(F.try_parse_json(F.col("js")), "$.s", "int")', "scalar"),
    ('col("js").json_value("$.f", returning_type=DataTypes.DOUBLE())',
     'F.try_variant_get(F.try_parse_json(F.col("js")), "$.f", "double")', "scalar"),
    ('col("js").json_value("$.t", DataTypes.BOOLEAN())', 'F.try_variant_get(F.try_parse_json(F.col("js")), "$.t", "boolean")', "scalar"),
    *[(f'col("js").json_query("{path}")', f'F.when({_json_nested(path)}, F.to_json({_json_parsed(path)}))', "scalar")
      for path in ("$.a", "$.arr", "$.s", "$.missing", "$")],
    *[(f'col("js").json_exists("{path}")', 'F.when(F.col("js").isNotNull(), F.coalesce(F.schema_of_variant('
       f'{_json_parsed(path)}) != F.lit("VOID"), F.lit(False)))', "scalar")
      for path in ("$.a", "$.nul", "$.missing", "$[1]", "$.arr[5]")],
    ('col("js").json_value("$.n", DataTypes.INT()).sum', 'F.sum(F.try_variant_get(F.try_parse_json(F.col("js")), "$.n", "int")).cast("INT")', "agg"),
]

REFUSALS = [
    ('col("js").json_value("strict $.a")', "only $.field and [index] steps in lax mode"),
    ('col("js").json_value("$.arr[*]")', "only $.field and [index] steps"),
    ('col("js").json_value("$.n", DataTypes.BIGINT())', "RETURNING BIGINT"),
    ('col("js").json_value("$.n", DataTypes.INT(), JsonValueOnEmptyOrError.DEFAULT, 0)', "ON EMPTY/ON ERROR"),
    ('col("js").json_query("$.a", JsonQueryWrapper.UNCONDITIONAL_ARRAY)', "wrapper"),
    ('col("i").json_value("$.a")', "Expression.json_value of a INT"),
    ('col("js").json_exists(col("s"))', "non-literal argument"),
    ('lit(1, DataTypes.BIGINT())', "nullable type"),
    ('lit(1, DataTypes.BIGINT().not_null())', "rejects the value's class"),
    ('col("d").power(2)', "not a PyFlink Expression method"),
    ('col("d").ln', "Expression.ln: Flink gives NaN"),
    ('col("d").log10', "Expression.log10: Flink gives NaN"),
    ('col("d").log()', "Expression.log"),
    ('call("CHAR_LENGTH", col("s"))', "no known Spark equivalent"),
    ('col("a").sum', "unknown type"),
    ('col("a") + 1', "unknown type"),
    ('col("s") + col("i")', "concatenates"),
    ('col("s") + "x"', "concatenates"),
    ('col("d") / col("j")', "Expression /"),
    ('col("i") / col("d")', "Expression /"),
    ('col("d") / 0.0', "Expression /"),
    ('col("dec") / col("dec")', "Expression /"),
    ('col("d") % 2', "Expression %"),
    ('col("a").avg', "unknown type"),
    ('col("d").floor()', "Expression.floor of a DOUBLE"),
    ('col("s").round(1)', "Expression.round of a STRING"),
    ('col("i").alias("a", "b")', "several names"),
    ('col("i").over(col("w"))', "over windows"),
    ('col("s").similar("a+")', "Expression.similar"),
    ('col("i").years', "Expression.years"),
    ('col("a") > 1', "comparison > with an operand of unknown type"),
    ('col("i").between(0, col("x"))', "Expression.between of a value of unknown type"),
    ('col("s").split_index("", 0)', "Expression.split_index with an empty separator"),
    ('col("s").split_index(",", -1)', "Expression.split_index with an empty separator or a negative index"),
    ('col("s").split_index(",", col("i"))', "Expression.split_index with a non-integer-literal argument"),
    ('col("t").init_cap', "Expression.init_cap: Flink starts a word"),
    ('col("t").regexp_extract("([0-9]+)|(x)", 2)', "Expression.regexp_extract unless"),
    ('col("arr").array_contains(col("i"))', "not a literal"),
    ('col("dt").extract(TimeIntervalUnit.HOUR)', "TimeIntervalUnit.HOUR"),
    ('col("x").extract(TimeIntervalUnit.YEAR)', "unknown type"),
    ('col("i").to_date', "Expression.to_date of a INT"),
    ('col("b").cast(DataTypes.STRING())', "Expression.cast from BOOLEAN to STRING"),
    ('col("d").cast(DataTypes.STRING())', "Expression.cast from DOUBLE to STRING"),
    ('col("x").cast(DataTypes.INT())', "unknown type"),
    ('col("i").cast(DataTypes.TIME())', "DataTypes.TIME"),
    ('col("arr").at(0)', "positive integer literal"),
    ('col("arr").at(col("i"))', "positive integer literal"),
    ('col("x").at(1)', "unknown type"),
    ('col("t").like("%\\\\_%")', "backslash"),
    ('col("s").replace("", "x")', "empty string"),
    ('col("b") and col("c")', "Python `and`"),
    ('not col("b")', "Python `not`"),
    ('1 < col("i") < 3', "chained comparison"),
    ('col("s") == 1', "comparison =="),
    ('col("i").in_(1, "a")', "Expression.in_ between a INT and a STRING"),
    ('call("my_udf", col("i"))', "no known Spark equivalent"),
    ('call(my_udf, col("i"))', "user-defined function"),
    ('call_sql("a / b")', "call_sql"),
    ('range_(1, 3)', "expressions.range_"),
    ('with_columns(col("a"))', "expressions.with_columns"),
    ('without_columns(col("a"))', "expressions.without_columns"),
    ("rand()", "random"),
    ("uuid()", "random"),
    ('col("i").sum.sum', "of an aggregate"),
    ('col("i").collect', "Expression.collect"),
    ('col("i").first_value', "Expression.first_value"),
    ('col("d").avg.distinct', "distinct"),
    ("lit(None)", "None"),
    ('col("i").upper_case', "Expression.upper_case of a INT"),
    ('col("s").count()', "property"),
]

KNOWN_DIFFERENCES = {
    # RETURNING INT of a JSON string ("x"): Flink fails the job (ClassCastException), Spark's
    # try_variant_get gives NULL (NOTE F2S312)
    ('col("js").json_value("$.s", DataTypes.INT())', "main"): "flink fails",
    # Flink's MAX of a DOUBLE skips a NaN after other values (the edge rows: 1e308, -0.0, NaN give
    # 1e308), Spark's is NaN (NOTE F2S329; MIN skips it in both here, NaN coming last)
    ('col("d").max', "edge"): "nan",
    # ROUND of a DOUBLE NaN fails the job on Flink (NumberFormatException); Spark gives NaN
    ('col("d").round(0)', "edge"): "flink fails",
    ('col("d").round(1)', "edge"): "flink fails",
    # Flink wraps integer overflow (Java int/long arithmetic); Spark 4 (ANSI mode) fails the job
    ('col("i") + col("j")', "edge"): "overflow",
    ('col("i") + 1', "edge"): "overflow",
    ('1 + col("i")', "edge"): "overflow",
    ('col("l") + col("i")', "edge"): "overflow",
    ('col("i") * col("j")', "edge"): "overflow",
    ('-col("i")', "edge"): "overflow",
    ('abs(col("i"))', "edge"): "overflow",
    ('call("ABS", col("i"))', "edge"): "overflow",
    ('col("i").max - col("i").min', "edge"): "overflow",
    ('col("i").round(-1)', "edge"): "overflow",  # 2147483647 rounds to 2147483650: Flink wraps
    # Flink saturates a DOUBLE cast to an integer (1e10 -> 2147483647); Spark fails the job
    ('col("d").cast(DataTypes.INT())', "main"): "overflow",
    ('col("d").cast(DataTypes.INT())', "edge"): "overflow",
    ('col("d").cast(DataTypes.BIGINT())', "edge"): "overflow",
}


def recording_digest() -> str:
    """What a recording depends on: the sources and kinds of the cases and the rows (not the
    expected Spark code)."""
    key = repr(([(src, kind) for src, _, kind in CASES], COLUMNS, MAIN, EDGE))
    return hashlib.sha256(key.encode()).hexdigest()


def normalize(value):
    """A value as both engines' Python results compare: numbers as int/float (Decimal -> float,
    NaN/Infinity as strings), dates as ISO text, rows/tuples/lists as lists, maps as sorted pairs."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, (float, Decimal)):
        f = float(value)
        if math.isnan(f):
            return "NaN"
        if math.isinf(f):
            return "Infinity" if f > 0 else "-Infinity"
        return f
    if isinstance(value, (datetime.date, datetime.datetime, datetime.time)):
        return value.isoformat()
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).hex()
    if isinstance(value, dict):
        return sorted([[normalize(k), normalize(v)] for k, v in value.items()], key=repr)
    if isinstance(value, (list, tuple)):
        return [normalize(v) for v in value]
    raise TypeError(f"cannot normalize {type(value).__name__}: {value!r}")
