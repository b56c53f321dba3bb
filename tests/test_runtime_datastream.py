"""flink2spark.runtime.datastream: the shim of converted PyFlink programs.

Expected values come from PyFlink 2.3 (its source: ``pyflink/common/types.py``,
``datastream/data_stream.py``) and from runs on the reference Flink (``fixtures/pyflink``).
"""

from __future__ import annotations

import pickle

import pytest

from flink2spark.runtime import datastream as f2s
from flink2spark.runtime.datastream import Row, Types


# --- Row ------------------------------------------------------------------------------------


def test_row_fields_by_name_and_position():
    r = Row(word="to", count=2, index=7)
    assert (r.word, r.count, r.index) == ("to", 2, 7)  # not tuple.count / tuple.index
    assert r[0] == "to" and r["count"] == 2 and list(r) == ["to", 2, 7] and len(r) == 3
    assert repr(r) == "Row(word='to', count=2, index=7)"
    assert repr(Row(1, "a")) == "<Row(1, 'a')>"
    assert "word" in r and "other" not in r
    r["count"] = 3
    assert r.count == 3
    with pytest.raises(AttributeError):
        r.missing  # noqa: B018
    with pytest.raises(AttributeError):
        r.word = "x"


def test_row_equality_pickling_and_kind():
    assert Row(a=1, b=2) == Row(b=2, a=1)
    assert Row(1, 2) != Row(a=1, b=2)
    r = Row.of_kind(f2s.RowKind.UPDATE_AFTER, a=1)
    back = pickle.loads(pickle.dumps(r))
    assert back == r and back.get_row_kind() is f2s.RowKind.UPDATE_AFTER
    assert str(f2s.RowKind.INSERT) == "+I"
    assert Row(a=1, b=Row(c=2)).as_dict(True) == {"a": 1, "b": {"c": 2}}


# --- types and typed() -------------------------------------------------------------------


def test_typed_converts_like_flinks_collection_source():
    rows = f2s.typed([(1, "a"), Row(b="x", a=2)], Types.ROW_NAMED(["a", "b"], [Types.INT(), Types.STRING()]))
    assert rows == [Row(a=1, b="a"), Row(a=2, b="x")]
    assert rows[1]._fields == ["a", "b"] and list(rows[1]) == [2, "x"]
    [positional] = f2s.typed([[1, 1.1]], Types.ROW([Types.INT(), Types.FLOAT()]))
    assert repr(positional) == "Row(f0=1, f1=1.100000023841858)"  # 32-bit float, fields f0, f1
    assert f2s.typed([["a", 1]], Types.TUPLE([Types.STRING(), Types.INT()])) == [("a", 1)]
    assert f2s.typed([{"a": 1}], Types.MAP(Types.STRING(), Types.INT())) == [{"a": 1}]
    with pytest.raises(NotImplementedError):
        f2s.typed([[1]], Types.OBJECT_ARRAY(Types.INT()))


# --- Java formats ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value,text",
    [(19.0, "19.0"), (1e-5, "1.0E-5"), (1e20, "1.0E20"), (0.001, "0.001"), (1234567.0, "1234567.0"),
     (12345678.0, "1.2345678E7"), (-2.5, "-2.5"), (0.0, "0.0"), (float("nan"), "NaN"), (float("-inf"), "-Infinity")],
)
def test_java_double(value, text):
    assert f2s.java_double(value) == text


@pytest.mark.parametrize("value,text", [(1.1, "1.1"), (0.1, "0.1"), (16777216.0, "1.6777216E7"), (3.0, "3.0")])
def test_java_float(value, text):
    assert f2s.java_float(value) == text


def test_execute_and_collect_decodes_with_the_stream_type(spark):
    stream = spark.sparkContext.parallelize([Row(1, "a"), Row(2, "b")])
    with f2s.execute_and_collect(stream, Types.ROW([Types.INT(), Types.STRING()])) as results:
        got = list(results)
    assert [repr(r) for r in got] == ["Row(f0=1, f1='a')", "Row(f0=2, f1='b')"]
    assert f2s.execute_and_collect(spark.sparkContext.parallelize([3, 1, 2], 2), limit=2) == [3, 1]


# --- keyed reductions -----------------------------------------------------------------------

SALES = [
    ("north", "apples", 5), ("south", "pears", 2), ("north", "plums", 9), ("north", "kiwis", 1),
    ("south", "figs", 7), ("north", "dates", 9), ("south", "limes", 2),
]


def _keyed(spark, values=SALES, partitions=3):
    return spark.sparkContext.parallelize(values, partitions).keyBy(lambda s: s[0])


def test_rolling_aggregations_have_flinks_semantics(spark):
    # keyed_rolling_aggregations on Flink 2.3: one output per element, in stream order
    assert f2s.rolling_reduce(_keyed(spark), f2s.Sum(2)).collect() == [
        ("north", "apples", 5), ("south", "pears", 2), ("north", "apples", 14), ("north", "apples", 15),
        ("south", "pears", 9), ("north", "apples", 24), ("south", "pears", 11),
    ]
    mins = f2s.rolling_reduce(_keyed(spark), f2s.Min(2)).collect()
    assert mins[3] == ("north", "apples", 1)  # only the field changes
    max_by = f2s.rolling_reduce(_keyed(spark), f2s.MaxBy(2)).collect()
    assert max_by[5] == ("north", "plums", 9)  # ties keep the earlier element
    assert f2s.rolling_reduce(_keyed(spark), f2s.MinBy(2)).collect()[3] == ("north", "kiwis", 1)


def test_final_reduce_gives_one_result_per_key(spark):
    got = f2s.final_reduce(_keyed(spark), lambda a, b: (a[0], a[1] + "+" + b[1], a[2] + b[2])).collect()
    assert got == [("north", "apples+plums+kiwis+dates", 24), ("south", "pears+figs+limes", 11)]
    assert f2s.final_reduce(spark.sparkContext.parallelize([], 2).keyBy(lambda x: x), f2s.Sum()).collect() == []


def test_rolling_sum_on_rows_updates_in_place_without_changing_emitted_values(spark):
    rows = [Row(k="a", v=1), Row(k="a", v=2), Row(k="a", v=3)]
    keyed = spark.sparkContext.parallelize(rows, 2).keyBy(lambda r: r.k)
    assert [r.v for r in f2s.rolling_reduce(keyed, f2s.Sum("v")).collect()] == [1, 3, 6]
    assert f2s.final_reduce(keyed, f2s.Max("v")).collect() == [Row(k="a", v=3)]


def test_accumulate_on_basic_values_and_errors():
    assert f2s.Sum()(1, 2) == 3 and f2s.Min()(2, 1) == 1 and f2s.MaxBy()(1, 1) == 1
    with pytest.raises(TypeError):
        f2s.Sum(1)(1, 2)  # a field other than 0 on a basic type
    with pytest.raises(TypeError):
        f2s.Sum(1.5)


# --- open/close -----------------------------------------------------------------------------


def test_with_open_close(spark):
    # a local class: Spark pickles it by value (workers cannot import this test module)
    class _Scaler:
        def __init__(self):
            self.factor = None

        def open(self, runtime_context):
            self.factor = 10 + 0 * runtime_context.get_index_of_this_subtask()

        def map(self, value):
            return value * self.factor

        def flat_map(self, value):
            yield from [value] * 2

        def filter(self, value):
            return value * self.factor > 10

        def close(self):
            self.factor = None

    rdd = spark.sparkContext.parallelize([1, 2, 3], 2)
    assert rdd.mapPartitionsWithIndex(f2s.with_open_close(_Scaler(), "map")).collect() == [10, 20, 30]
    assert rdd.mapPartitionsWithIndex(f2s.with_open_close(_Scaler(), "flat_map")).collect() == [1, 1, 2, 2, 3, 3]
    assert rdd.mapPartitionsWithIndex(f2s.with_open_close(_Scaler(), "filter")).collect() == [2, 3]
    with pytest.raises(ValueError):
        f2s.with_open_close(_Scaler(), "reduce")
    # (timestamp, value) pairs of a timestamped stream: the function gets the value, its
    # results keep the element's timestamp
    stamped = spark.sparkContext.parallelize([(7, 1), (8, 2), (9, 3)], 2)
    run = lambda method: stamped.mapPartitionsWithIndex(f2s.with_open_close(_Scaler(), method, timestamped=True)).collect()  # noqa: E731
    assert run("map") == [(7, 10), (8, 20), (9, 30)]
    assert run("flat_map") == [(7, 1), (7, 1), (8, 2), (8, 2), (9, 3), (9, 3)]
    assert run("filter") == [(8, 2), (9, 3)]


def test_java_strings_of_arrays_and_maps():
    # expected lines recorded on Flink 2.3 (print() of map outputs with these output types; a
    # FileSink's simple_string_encoder writes the same Java toString)
    b, d = Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.PRIMITIVE_ARRAY(Types.DOUBLE())
    t = Types.TUPLE([b, d, Types.MAP(Types.STRING(), Types.INT()), Types.BASIC_ARRAY(Types.STRING())])
    assert _typed_lines([(b"\x01\xff" * 2, [1.5], {"k": 1}, ["a", None])], t) == ["([1, -1, 1, -1],[1.5],{k=1},[a, null])"]
    assert f2s._java_str(["x", "y"], Types.LIST(Types.STRING())) == "[x, y]"
    assert f2s._java_str({1.5: True, 2.0: None}, Types.MAP(Types.DOUBLE(), Types.BOOLEAN())) == "{1.5=true, 2.0=null}"
    row = Types.ROW([b, Types.LIST(Types.INT())])
    _assert_rows_print([(bytearray(b"\x01"), [1, 2])], row, ["+I[b'\\x01',[1, 2]]"])


def test_decoded_byte_arrays_are_bytes_and_arrays_lists():
    # Flink 2.3: a bytearray under PRIMITIVE_ARRAY(BYTE) comes back as bytes after key_by;
    # a tuple under PRIMITIVE_ARRAY(INT) fails ("Expected list, got tuple")
    [value] = f2s.decoded(Types.ROW([Types.PRIMITIVE_ARRAY(Types.BYTE())]))(Row(bytearray(b"ab")))
    assert type(value) is bytes and value == b"ab"
    assert type(f2s.decoded(Types.PRIMITIVE_ARRAY(Types.BYTE()))(bytearray(b"ab"))) is bytes
    with pytest.raises(TypeError):
        f2s.decoded(Types.PRIMITIVE_ARRAY(Types.INT()))((1, 2))


def test_spark_types_of_arrays_and_maps():
    from pyspark.sql import types as T

    from flink2spark.runtime import streaming

    schema = streaming.spark_schema(Types.ROW([Types.PRIMITIVE_ARRAY(Types.BYTE()), Types.MAP(Types.STRING(), Types.LIST(Types.LONG()))]))
    assert [f.dataType for f in schema.fields] == [T.BinaryType(), T.MapType(T.StringType(), T.ArrayType(T.LongType(), True), True)]
    assert streaming.spark_schema(Types.PRIMITIVE_ARRAY(Types.INT())).fields[0].dataType == T.ArrayType(T.IntegerType(), False)


# --- dates, times, timestamps, instants, decimals ---------------------------------------------
# Every expected string below was printed by PyFlink 2.3.0 on the reference engine (Java 17,
# TZ=UTC): probe programs running from_collection(xs, type_info=T) followed by print(), by
# .map(repr) (what a Python operator receives), by a TUPLE/ROW of T, by
# .map(lambda _: x, output_type=T).key_by(...).map(repr) (a Python operator's output read again)
# and by a FileSink with simple_string_encoder (see fixtures/pyflink/orders_dates_decimals).

import datetime as _dt  # noqa: E402
from decimal import Decimal  # noqa: E402


def _typed_lines(values, type_info):
    """Java's toString of the values ``from_collection(values, type_info)`` gives (what Flink's
    Java print and file sinks write for a TUPLE or a basic type)."""
    return [f2s._java_str(v, type_info) for v in f2s.typed(values, type_info)]


def _assert_rows_print(values, row_type, flink_lines):
    """The converted program prints a Types.ROW stream's records with Python's print(record):
    read as values, they are the records of Flink's ``+I[...]`` lines (tests/print_records.py)."""
    from table_output import stream_line_record

    printed = [str(v) for v in f2s.typed(values, row_type)]
    assert [stream_line_record(line) for line in printed] == [stream_line_record(line) for line in flink_lines], printed


def test_sql_date_from_collection_print_and_python_value():
    dates = [_dt.date(2024, 1, 31), _dt.date(1969, 12, 31), _dt.date(1, 1, 1)]
    assert f2s.typed(dates, Types.SQL_DATE()) == dates  # Flink: the same datetime.date objects
    # java.sql.Date.toString shows days before 1582-10-15 in the Julian calendar
    assert _typed_lines(dates, Types.SQL_DATE()) == ["2024-01-31", "1969-12-31", "0001-01-03"]
    # a datetime under SQL_DATE keeps its date (Flink: datetime.date(2024, 1, 31))
    assert f2s.typed([_dt.datetime(2024, 1, 31, 10, 0)], Types.SQL_DATE()) == [_dt.date(2024, 1, 31)]
    row = Types.ROW([Types.SQL_DATE(), Types.INT()])
    _assert_rows_print([(d, 1) for d in dates], row, ["+I[2024-01-31,1]", "+I[1969-12-31,1]", "+I[0001-01-01,1]"])
    tup = Types.TUPLE([Types.SQL_DATE(), Types.INT()])
    assert _typed_lines([(d, 1) for d in dates], tup) == ["(2024-01-31,1)", "(1969-12-31,1)", "(0001-01-03,1)"]


def test_sql_time_keeps_milliseconds_and_prints_without_fraction():
    times = [_dt.time(10, 0), _dt.time(10, 0, 5, 123456), _dt.time(23, 59, 59, 999999), _dt.time(0, 0, 0, 1000)]
    assert f2s.typed(times, Types.SQL_TIME()) == [
        _dt.time(10, 0), _dt.time(10, 0, 5, 123000), _dt.time(23, 59, 59, 999000), _dt.time(0, 0, 0, 1000)
    ]
    assert _typed_lines(times, Types.SQL_TIME()) == ["10:00:00", "10:00:05", "23:59:59", "00:00:00"]
    row = Types.ROW([Types.SQL_TIME(), Types.INT()])
    _assert_rows_print(
        [(t, 1) for t in times], row, ["+I[10:00:00,1]", "+I[10:00:05.123000,1]", "+I[23:59:59.999000,1]", "+I[00:00:00.001000,1]"]
    )
    assert _typed_lines([(t, 1) for t in times], Types.TUPLE([Types.SQL_TIME(), Types.INT()]))[1] == "(10:00:05,1)"
    # an aware time from a collection: shifted to the JVM's zone (UTC: 08:00)
    aware = _dt.time(10, 0, tzinfo=_dt.timezone(_dt.timedelta(hours=2)))
    assert f2s.typed([aware], Types.SQL_TIME()) == [_dt.time(8, 0)]
    # a Python operator's output read again after key_by: milliseconds
    assert f2s.decoded(Types.SQL_TIME())(_dt.time(10, 0, 5, 123456)) == _dt.time(10, 0, 5, 123000)


def test_sql_timestamp_milliseconds_and_java_format():
    stamps = [
        _dt.datetime(2024, 1, 31, 10, 0),
        _dt.datetime(2024, 1, 31, 10, 0, 5, 123456),
        _dt.datetime(2024, 1, 31, 10, 0, 5, 120000),
        _dt.datetime(2024, 3, 31, 2, 30),
        _dt.datetime(2024, 1, 31, 10, 0, tzinfo=_dt.timezone(_dt.timedelta(hours=2))),
    ]
    assert f2s.typed(stamps, Types.SQL_TIMESTAMP()) == [
        _dt.datetime(2024, 1, 31, 10, 0),
        _dt.datetime(2024, 1, 31, 10, 0, 5, 123000),
        _dt.datetime(2024, 1, 31, 10, 0, 5, 120000),
        _dt.datetime(2024, 3, 31, 2, 30),
        _dt.datetime(2024, 1, 31, 8, 0),  # an aware value: the instant in the JVM's zone
    ]
    assert _typed_lines(stamps, Types.SQL_TIMESTAMP()) == [
        "2024-01-31 10:00:00.0", "2024-01-31 10:00:05.123", "2024-01-31 10:00:05.12", "2024-03-31 02:30:00.0", "2024-01-31 08:00:00.0"
    ]
    row = Types.ROW([Types.SQL_TIMESTAMP(), Types.INT()])
    _assert_rows_print([(stamps[1], 1)], row, ["+I[2024-01-31 10:00:05.123000,1]"])
    assert _typed_lines([(stamps[1], 1)], Types.TUPLE([Types.SQL_TIMESTAMP(), Types.INT()])) == ["(2024-01-31 10:00:05.123,1)"]


def test_sql_timestamp_out_of_range_values():
    decode = f2s.decoded(Types.SQL_TIMESTAMP())
    # a Python operator's output read again: seconds wrap around a C int (Flink 2.3: 2040 -> 1903)
    assert decode(_dt.datetime(2040, 1, 1)) == _dt.datetime(1903, 11, 25, 17, 31, 44)
    assert decode(_dt.datetime(2100, 1, 1, 0, 0, 0, 250000)) == _dt.datetime(1963, 11, 25, 17, 31, 44, 250000)
    assert decode(_dt.datetime(1901, 12, 13, 20, 45, 51)) == _dt.datetime(2038, 1, 19, 3, 14, 7)
    assert decode(_dt.datetime(1901, 12, 13, 20, 45, 52)) == _dt.datetime(1901, 12, 13, 20, 45, 52)
    # ...while Java prints the value it got: 2040-01-01 00:00:00.0
    assert f2s._java_str(_dt.datetime(2040, 1, 1), Types.SQL_TIMESTAMP()) == "2040-01-01 00:00:00.0"
    # the coder truncates seconds toward zero: 1969-12-31 23:59:59.5 becomes 1970-01-01 00:00:00.5
    assert decode(_dt.datetime(1969, 12, 31, 23, 59, 59, 500000)) == _dt.datetime(1970, 1, 1, 0, 0, 0, 500000)
    assert f2s._java_str(_dt.datetime(1969, 12, 31, 23, 59, 59, 500000), Types.SQL_TIMESTAMP()) == "1970-01-01 00:00:00.5"
    # the aware value of a Python operator: its wall clock, tzinfo dropped (Flink: 2024-01-31 10:00:00.0)
    aware = _dt.datetime(2024, 1, 31, 10, 0, tzinfo=_dt.timezone(_dt.timedelta(hours=2)))
    assert decode(aware) == _dt.datetime(2024, 1, 31, 10, 0)
    # from a collection Flink prints 1969-12-31 23:59:59.5 but its Python operators fail
    # (ValueError: microsecond must be in 0..999999): not converted
    with pytest.raises(NotImplementedError, match="1969-12-31 23:59:59.5"):
        f2s.typed([_dt.datetime(1969, 12, 31, 23, 59, 59, 500000)], Types.SQL_TIMESTAMP())
    with pytest.raises(NotImplementedError):
        f2s.typed([_dt.datetime(2040, 1, 1)], Types.SQL_TIMESTAMP())


def test_instant_milliseconds_from_collection_and_iso_print():
    Instant = f2s.Instant
    instants = [Instant(1706695200, 0), Instant(1706695200, 123456789), Instant(-1, 500000000), Instant(0, 1000000)]
    got = f2s.typed(instants, Types.INSTANT())
    # PyFlink's to_epoch_milli as it is: Instant(-1, 500000000) -> Instant<-1, 49000000>
    assert [repr(i) for i in got] == [
        "Instant<1706695200, 0>", "Instant<1706695200, 123000000>", "Instant<-1, 49000000>", "Instant<0, 1000000>"
    ]
    assert _typed_lines(instants, Types.INSTANT()) == [
        "2024-01-31T10:00:00Z", "2024-01-31T10:00:00.123Z", "1969-12-31T23:59:59.049Z", "1970-01-01T00:00:00.001Z"
    ]
    _assert_rows_print([(instants[1], 1)], Types.ROW([Types.INSTANT(), Types.INT()]), ["+I[Instant<1706695200, 123000000>,1]"])
    assert _typed_lines([(instants[1], 1)], Types.TUPLE([Types.INSTANT(), Types.INT()])) == ["(2024-01-31T10:00:00.123Z,1)"]
    # a Python operator's output keeps its nanoseconds
    assert f2s.decoded(Types.INSTANT())(instants[1]) == Instant(1706695200, 123456789)
    assert f2s._java_str(instants[1], Types.INSTANT()) == "2024-01-31T10:00:00.123456789Z"
    assert f2s._java_str(Instant(-1, 500000000), Types.INSTANT()) == "1969-12-31T23:59:59.500Z"


def test_big_decimal_keeps_scale_and_drops_negative_zero():
    decimals = [Decimal("12.50"), Decimal("1E+3"), Decimal("0.000001"), Decimal("-3.14159"), Decimal("100"),
                Decimal("1.0E-10"), Decimal("123456789012345678901234567890.123"), Decimal("0.0000001")]
    assert f2s.typed(decimals, Types.BIG_DEC()) == decimals
    assert _typed_lines(decimals, Types.BIG_DEC()) == [
        "12.50", "1E+3", "0.000001", "-3.14159", "100", "1.0E-10", "123456789012345678901234567890.123", "1E-7"
    ]
    assert [repr(d) for d in f2s.typed([Decimal("-0"), Decimal("-0.00")], Types.BIG_DEC())] == ["Decimal('0')", "Decimal('0.00')"]
    assert _typed_lines([Decimal("-0"), Decimal("-0.00")], Types.BIG_DEC()) == ["0", "0.00"]
    _assert_rows_print([(Decimal("12.50"), 1)], Types.ROW([Types.BIG_DEC(), Types.INT()]), ["+I[12.50,1]"])
    assert repr(f2s.decoded(Types.BIG_DEC())(Decimal("-0"))) == "Decimal('0')"
    with pytest.raises(TypeError):  # Flink: the job fails on a date under BIG_DEC
        f2s.decoded(Types.BIG_DEC())(_dt.date(2024, 1, 31))


def test_file_sink_encoder_of_time_types():
    from flink2spark.runtime import connectors

    types = [Types.SQL_DATE(), Types.SQL_TIME(), Types.SQL_TIMESTAMP(), Types.INSTANT(), Types.BIG_DEC()]
    value = (_dt.date(2024, 1, 31), _dt.time(10, 0, 5, 123456), _dt.datetime(2024, 1, 31, 10, 0, 5, 123456),
             f2s.Instant(1706695200, 123456789), Decimal("12.50"))
    row = f2s.typed([value], Types.ROW(types))[0]
    tup = f2s.typed([value], Types.TUPLE(types))[0]
    # FileSink(simple_string_encoder) on Flink 2.3: Java Row.toString / Tuple.toString
    assert connectors._encoder(Types.ROW(types))(row) == "+I[2024-01-31, 10:00:05, 2024-01-31 10:00:05.123, 2024-01-31T10:00:00.123Z, 12.50]"
    assert connectors._encoder(Types.TUPLE(types))(tup) == "(2024-01-31,10:00:05,2024-01-31 10:00:05.123,2024-01-31T10:00:00.123Z,12.50)"
    assert [connectors._encoder(t)(v) for t, v in zip(types, tup)] == [
        "2024-01-31", "10:00:05", "2024-01-31 10:00:05.123", "2024-01-31T10:00:00.123Z", "12.50"
    ]


def test_table_values_turn_instants_into_utc_datetimes():
    utc = _dt.timezone.utc
    row = f2s.table_values((f2s.Instant.of_epoch_milli(1_700_000_001_500), "boiler", 61.5))
    assert row == (_dt.datetime(2023, 11, 14, 22, 13, 21, 500000, tzinfo=utc), "boiler", 61.5)
    assert f2s.table_values([f2s.Instant(-1, 250_000_000)]) == (_dt.datetime(1969, 12, 31, 23, 59, 59, 250000, tzinfo=utc),)
