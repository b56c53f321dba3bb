"""Tests for flink2spark.runtime.dataset against real Spark (local[2]).

Every expected value below is derived from the Flink sources
(flink/plan/DataSet.py Stringify/CsvStringify, flink/functions/Aggregation.py,
flink/functions/RuntimeContext.py, flink/connection/Iterator.py, Java TextOutputFormat /
CsvOutputFormat / FileOutputFormat) or from /work/shared/reference/flink-spark-semantics.md
(sections 0 and A), never from the shim's own output.
"""

import collections
import collections.abc
import math
import os
import subprocess
import sys

import pytest

from flink2spark.runtime import dataset as ds
from flink2spark.runtime.dataset import (
    FlinkIterator,
    RuntimeContext,
    aggregate,
    csv_stringify,
    output,
    stringify,
    with_broadcast_sets,
    write_csv,
    write_text,
)


def read_bytes(path):
    with open(path, "rb") as handle:
        return handle.read()


# ------------------------------------------------------------------------------------------
# stringify / csv_stringify  (DataSet.py Stringify / CsvStringify)
# ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "value, expected",
    [
        (("a", 1), "(a, 1)"),  # strings unquoted, ", " separator
        ((5,), "(5)"),  # 1-tuple: no trailing comma
        ((), "()"),
        ([1, "b"], "(1, b)"),  # lists render like tuples
        ([], "()"),
        ((1, ("x", (2.5, None)), [True, "y"]), "(1, (x, (2.5, None)), (True, y))"),
        ("hello", "hello"),
        ("", ""),
        (7, "7"),
        (2.5, "2.5"),
        (None, "None"),
        (True, "True"),
        (("it's", 'q"uote'), "(it's, q\"uote)"),
    ],
)
def test_stringify(value, expected):
    assert stringify(value) == expected


@pytest.mark.parametrize(
    "value, delimiter, expected",
    [
        (("a", 1, 2.5), ",", "a,1,2.5"),
        (("a", (1, "b")), "|", "a|(1, b)"),  # nested tuple -> Stringify form with ", "
        (("x", [1, 2], None), ";", "x;(1, 2);None"),
        (("x",), ",", "x"),  # 1-tuple: just the field
        ((), ",", ""),
        ([3, "z"], "\t", "3\tz"),
        (("a", "b"), "::", "a::b"),
        ("abc", ",", "a,b,c"),  # Flink iterates the record: a string splits into characters
    ],
)
def test_csv_stringify(value, delimiter, expected):
    assert csv_stringify(value, delimiter) == expected


def test_csv_stringify_default_delimiter_and_non_iterable_record():
    assert csv_stringify((1, "a")) == "1,a"
    # CsvStringify.map does `for field in value`: an int record raises TypeError in Flink.
    with pytest.raises(TypeError):
        csv_stringify(5)


# ------------------------------------------------------------------------------------------
# output()
# ------------------------------------------------------------------------------------------


def test_output_prints_stringified_in_order(sc, capsys):
    data = [("a", 1), (5,), "s", (1, ("b", 2.5)), None]
    output(sc.parallelize(data, 3))
    captured = capsys.readouterr()
    assert captured.out == "(a, 1)\n(5)\ns\n(1, (b, 2.5))\nNone\n"
    assert captured.err == ""


def test_output_to_error_and_order_across_partitions(sc, capsys):
    output(sc.parallelize(list(range(20)), 4), to_error=True)
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "".join("%d\n" % i for i in range(20))


def test_output_empty_rdd_prints_nothing(sc, capsys):
    output(sc.parallelize([], 2))
    output(sc.emptyRDD())
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == ""


# ------------------------------------------------------------------------------------------
# write_text
# ------------------------------------------------------------------------------------------


def test_write_text_single_file_in_order_from_many_partitions(sc, tmp_path):
    data = [("a", 1), (2, ("b", 3)), "plain", (5,), [1, 2], None] * 5
    target = tmp_path / "out.txt"
    write_text(sc.parallelize(data, 4), str(target))
    assert target.is_file()
    expected = "(a, 1)\n(2, (b, 3))\nplain\n(5)\n(1, 2)\nNone\n" * 5
    assert read_bytes(target) == expected.encode("utf-8")
    # No temp directory, _SUCCESS or .crc files left next to the output.
    assert os.listdir(tmp_path) == ["out.txt"]


def test_write_text_many_elements_keeps_input_order(sc, tmp_path):
    target = tmp_path / "seq.txt"
    write_text(sc.parallelize(range(1000), 4), str(target))
    assert read_bytes(target).decode("utf-8").split("\n") == [str(i) for i in range(1000)] + [""]


def test_write_text_file_uri_and_missing_parent_directories(sc, tmp_path):
    target = tmp_path / "a" / "b" / "out.txt"
    write_text(sc.parallelize([("x", 1)], 2), "file://" + str(target))
    assert read_bytes(target) == b"(x, 1)\n"
    assert os.listdir(tmp_path / "a" / "b") == ["out.txt"]


def test_write_text_utf8(sc, tmp_path):
    target = tmp_path / "u.txt"
    write_text(sc.parallelize([("ä", "€"), "日本"], 2), str(target))
    assert read_bytes(target) == "(ä, €)\n日本\n".encode("utf-8")


@pytest.mark.parametrize("make_rdd", [lambda sc: sc.parallelize([], 3), lambda sc: sc.emptyRDD()])
def test_write_text_empty_rdd_gives_empty_file(sc, tmp_path, make_rdd):
    target = tmp_path / "empty.txt"
    write_text(make_rdd(sc), str(target))
    assert target.is_file()
    assert read_bytes(target) == b""
    assert os.listdir(tmp_path) == ["empty.txt"]


def test_write_text_no_overwrite_is_default_and_leaves_existing_file(sc, tmp_path):
    target = tmp_path / "exists.txt"
    target.write_bytes(b"old content\n")
    with pytest.raises(FileExistsError):
        write_text(sc.parallelize([1, 2], 2), str(target))
    with pytest.raises(FileExistsError):
        write_text(sc.parallelize([1, 2], 2), str(target), write_mode=0)
    assert read_bytes(target) == b"old content\n"
    assert os.listdir(tmp_path) == ["exists.txt"]


def test_write_text_no_overwrite_existing_directory(sc, tmp_path):
    target = tmp_path / "dir"
    target.mkdir()
    (target / "keep").write_text("k")
    with pytest.raises(FileExistsError):
        write_text(sc.parallelize([1], 1), str(target), write_mode=ds.NO_OVERWRITE)
    assert (target / "keep").read_text() == "k"
    assert sorted(os.listdir(tmp_path)) == ["dir"]


def test_write_text_overwrite_replaces_file(sc, tmp_path):
    target = tmp_path / "o.txt"
    target.write_bytes(b"a much longer old content that must disappear\n")
    write_text(sc.parallelize([(1, "a")], 2), str(target), write_mode=1)
    assert read_bytes(target) == b"(1, a)\n"


def test_write_text_overwrite_replaces_directory(sc, tmp_path):
    target = tmp_path / "was_a_dir"
    (target / "sub").mkdir(parents=True)
    (target / "1").write_text("old part 1")
    (target / "sub" / "2").write_text("old part 2")
    write_text(sc.parallelize(["x", "y", "z"], 3), str(target), write_mode=ds.OVERWRITE)
    assert target.is_file()
    assert read_bytes(target) == b"x\ny\nz\n"
    assert os.listdir(tmp_path) == ["was_a_dir"]


def test_write_text_failure_leaves_no_temp_dir_and_no_output(sc, tmp_path):
    target = tmp_path / "never.txt"
    failing = sc.parallelize([1, 2, 0, 3], 2).map(lambda x: 1 // x)
    with pytest.raises(Exception):
        write_text(failing, str(target))
    assert os.listdir(tmp_path) == []


def test_write_text_failure_with_overwrite_keeps_old_file(sc, tmp_path):
    target = tmp_path / "keep.txt"
    target.write_bytes(b"old\n")
    failing = sc.parallelize([0], 1).map(lambda x: 1 // x)
    with pytest.raises(Exception):
        write_text(failing, str(target), write_mode=ds.OVERWRITE)
    assert read_bytes(target) == b"old\n"
    assert os.listdir(tmp_path) == ["keep.txt"]


@pytest.mark.parametrize("mode", [2, -1, "overwrite", 1.0])
def test_write_text_rejects_unknown_write_mode(sc, tmp_path, mode):
    with pytest.raises(ValueError):
        write_text(sc.parallelize([1], 1), str(tmp_path / "x.txt"), write_mode=mode)
    assert os.listdir(tmp_path) == []


# ------------------------------------------------------------------------------------------
# write_csv
# ------------------------------------------------------------------------------------------


def test_write_csv_defaults(sc, tmp_path):
    target = tmp_path / "out.csv"
    data = [("a", 1, 2.5), ("b", (1, "x"), None), ("c,d", [True], "e")]
    write_csv(sc.parallelize(data, 3), str(target))
    # CsvStringify + CsvOutputFormat: no quoting, "\n" after every record (also the last).
    assert read_bytes(target) == b"a,1,2.5\nb,(1, x),None\nc,d,(True),e\n"
    assert os.listdir(tmp_path) == ["out.csv"]


@pytest.mark.parametrize(
    "line_delimiter, field_delimiter, expected",
    [
        ("\r\n", "|", b"a|1\r\nb|2\r\nc|3\r\n"),
        (";", ",", b"a,1;b,2;c,3;"),  # delimiter after the last record too
        ("|;|", "\t", b"a\t1|;|b\t2|;|c\t3|;|"),
        ("\n\n", ",", b"a,1\n\nb,2\n\nc,3\n\n"),
        ("", ",", b"a,1b,2c,3"),  # CsvOutputFormat accepts an empty record delimiter
    ],
)
def test_write_csv_delimiters(sc, tmp_path, line_delimiter, field_delimiter, expected):
    target = tmp_path / "d.csv"
    data = [("a", 1), ("b", 2), ("c", 3)]
    write_csv(sc.parallelize(data, 2), str(target), line_delimiter, field_delimiter)
    assert read_bytes(target) == expected
    assert os.listdir(tmp_path) == ["d.csv"]


def test_write_csv_keyword_arguments_and_order(sc, tmp_path):
    target = tmp_path / "k.csv"
    data = [(i, "v%d" % i) for i in range(50)]
    write_csv(sc.parallelize(data, 4), "file://" + str(target), line_delimiter="#", field_delimiter=":")
    assert read_bytes(target).decode("utf-8") == "".join("%d:v%d#" % (i, i) for i in range(50))


@pytest.mark.parametrize("line_delimiter", ["\n", ";", ""])
def test_write_csv_empty_rdd_gives_empty_file(sc, tmp_path, line_delimiter):
    target = tmp_path / "e.csv"
    write_csv(sc.parallelize([], 2), str(target), line_delimiter=line_delimiter)
    assert read_bytes(target) == b""
    assert os.listdir(tmp_path) == ["e.csv"]


@pytest.mark.parametrize("line_delimiter", ["\n", "\r\n", ""])
def test_write_csv_write_modes(sc, tmp_path, line_delimiter):
    target = tmp_path / "m.csv"
    target.write_bytes(b"old\n")
    with pytest.raises(FileExistsError):
        write_csv(sc.parallelize([(1, 2)], 1), str(target), line_delimiter=line_delimiter)
    assert read_bytes(target) == b"old\n"
    write_csv(sc.parallelize([(1, 2)], 1), str(target), line_delimiter=line_delimiter, write_mode=1)
    assert read_bytes(target) == b"1,2" + line_delimiter.encode()
    directory = tmp_path / "dir.csv"
    (directory / "x").mkdir(parents=True)
    write_csv(sc.parallelize([(3, 4)], 2), str(directory), line_delimiter=line_delimiter, write_mode=1)
    assert read_bytes(directory) == b"3,4" + line_delimiter.encode()
    assert sorted(os.listdir(tmp_path)) == ["dir.csv", "m.csv"]


def test_write_csv_utf8_and_string_records(sc, tmp_path):
    target = tmp_path / "s.csv"
    # A plain string record is iterated by CsvStringify: its characters become fields.
    write_csv(sc.parallelize([("ä", "€"), "xy"], 2), str(target), line_delimiter=";")
    assert read_bytes(target) == "ä,€;x,y;".encode("utf-8")


# ------------------------------------------------------------------------------------------
# FlinkIterator (connection/Iterator.py)
# ------------------------------------------------------------------------------------------


def test_flink_iterator_next_and_has_next():
    it = FlinkIterator([1, 2, 3])
    assert it.has_next() is True
    assert it.has_next() is True  # repeated look-ahead does not consume
    assert it.next() == 1
    assert next(it) == 2
    assert it.has_next() is True
    assert it.next() == 3
    assert it.has_next() is False
    with pytest.raises(StopIteration):
        it.next()
    with pytest.raises(StopIteration):
        next(it)
    assert it.has_next() is False


def test_flink_iterator_lookahead_is_one_element():
    pulled = []

    def source():
        for i in range(5):
            pulled.append(i)
            yield i

    it = FlinkIterator(source())
    assert pulled == []  # nothing read before it is asked for
    assert it.has_next()
    assert pulled == [0]  # exactly one element of look-ahead
    assert it.has_next()
    assert pulled == [0]
    assert it.next() == 0
    assert pulled == [0]
    assert it.next() == 1
    assert pulled == [0, 1]
    assert it.has_next()
    assert list(it) == [2, 3, 4]  # the looked-ahead element is not lost


def test_flink_iterator_protocol_and_empty():
    it = FlinkIterator([])
    assert isinstance(it, collections.abc.Iterator)
    assert iter(it) is it
    assert it.has_next() is False
    with pytest.raises(StopIteration):
        it.next()
    assert list(FlinkIterator(iter("ab"))) == ["a", "b"]
    assert [x for x in FlinkIterator((1, 2))] == [1, 2]


def test_flink_iterator_on_executors(sc):
    def reduce_partition(iterator):
        it = FlinkIterator(iterator)
        total = 0
        count = 0
        while it.has_next():
            total += it.next()
            count += 1
        return [(count, total)]

    result = sc.parallelize(range(10), 2).mapPartitions(reduce_partition).collect()
    assert result == [(5, 0 + 1 + 2 + 3 + 4), (5, 5 + 6 + 7 + 8 + 9)]


# ------------------------------------------------------------------------------------------
# aggregate (functions/Aggregation.py)
# ------------------------------------------------------------------------------------------


def flink_sequential_sum(values):
    """Sum.aggregate as Flink runs it: agg = 0, then agg += value in input order."""
    agg = 0
    for value in values:
        agg += value
    return agg


def test_aggregate_ungrouped_sum(sc):
    rdd = sc.parallelize([("a", 1), ("b", 2), ("c", 3)], 2)
    assert aggregate(rdd, [("sum", 1)]).collect() == [("a", 6)]


def test_aggregate_other_fields_come_from_first_element_not_from_the_extreme(sc):
    rdd = sc.parallelize([("a", 1, "x"), ("b", 5, "y"), ("c", 3, "z")], 3)
    # Flink copies the FIRST element and only overwrites the aggregated field.
    assert aggregate(rdd, [("max", 1)]).collect() == [("a", 5, "x")]
    assert aggregate(rdd, [("min", 1)]).collect() == [("a", 1, "x")]


def test_aggregate_several_fields(sc):
    rdd = sc.parallelize([("k", 1, 10, 0.5), ("k", 4, 7, 1.5), ("k", 2, 30, 1.0)], 2)
    result = aggregate(rdd, [("sum", 1), ("max", 2), ("min", 3)]).collect()
    assert result == [("k", 7, 30, 0.5)]


def test_aggregate_same_field_twice_last_one_wins(sc):
    rdd = sc.parallelize([("a", 3), ("b", 1), ("c", 2)], 2)
    # Each aggregator sees the original values; results are written in order.
    assert aggregate(rdd, [("sum", 1), ("min", 1)]).collect() == [("a", 1)]
    assert aggregate(rdd, [("min", 1), ("sum", 1)]).collect() == [("a", 6)]
    assert aggregate(rdd, [("max", 1), ("max", 1)]).collect() == [("a", 3)]


def test_aggregate_grouped_first_element_across_partitions(sc):
    # 40 elements over 4 partitions, keys i % 3; the tag records the input position.
    data = [(i % 3, i, "tag%d" % i) for i in range(40)]
    rdd = sc.parallelize(data, 4)
    result = sorted(aggregate(rdd, [("sum", 1)], key=lambda t: t[0]).collect())
    expected = []
    for k in range(3):
        group = [t for t in data if t[0] == k]
        expected.append((k, sum(t[1] for t in group), group[0][2]))
    assert result == expected


def test_aggregate_grouped_min_max_keep_first_element_fields(sc):
    data = [
        ("x", 5, "first-x"),
        ("y", 1, "first-y"),
        ("x", 9, "second-x"),
        ("y", 0, "second-y"),
        ("x", 2, "third-x"),
    ]
    rdd = sc.parallelize(data, 4)
    got_min = sorted(aggregate(rdd, [("min", 1)], key=lambda t: t[0]).collect())
    got_max = sorted(aggregate(rdd, [("max", 1)], key=lambda t: t[0]).collect())
    assert got_min == [("x", 2, "first-x"), ("y", 0, "first-y")]
    assert got_max == [("x", 9, "first-x"), ("y", 1, "first-y")]


def test_aggregate_min_max_ties_keep_the_value_seen_first(sc):
    # Min/Max replace only on strict < / >: among equal values the first one stays.
    # Each element in its own partition, so the tie crosses partitions.
    rdd = sc.parallelize([("a", 2), ("b", 1.0), ("c", 1), ("d", True), ("e", 3)], 5)
    [minimum] = aggregate(rdd, [("min", 1)]).collect()
    assert minimum == ("a", 1.0) and type(minimum[1]) is float
    rdd = sc.parallelize([("a", 1), ("b", 3), ("c", 3.0), ("d", 2)], 4)
    [maximum] = aggregate(rdd, [("max", 1)]).collect()
    assert maximum == ("a", 3) and type(maximum[1]) is int
    rdd = sc.parallelize([("a", 1.0), ("b", True)], 2)
    [maximum] = aggregate(rdd, [("max", 1)]).collect()
    assert type(maximum[1]) is float


def test_aggregate_signed_zero_ties(sc):
    [(r1,)] = aggregate(sc.parallelize([(0.0,), (-0.0,)], 2), [("min", 0)]).collect()
    [(r2,)] = aggregate(sc.parallelize([(-0.0,), (0.0,)], 2), [("min", 0)]).collect()
    assert math.copysign(1.0, r1) == 1.0
    assert math.copysign(1.0, r2) == -1.0


def test_aggregate_grouped_ties_across_partitions(sc):
    data = [("k", 4), ("j", 0), ("k", 1.0), ("j", 0.0), ("k", 1), ("j", False)]
    rdd = sc.parallelize(data, 3)
    result = dict(aggregate(rdd, [("min", 1)], key=lambda t: t[0]).collect())
    assert result == {"k": 1.0, "j": 0}
    assert type(result["k"]) is float and type(result["j"]) is int


def test_aggregate_nan_follows_sequential_comparisons(sc):
    nan = float("nan")
    # agg = 3.0; nan < 3.0 is False; 1.0 < 3.0 -> 1.0
    [(_, r1)] = aggregate(sc.parallelize([("a", 3.0), ("b", nan), ("c", 1.0)], 3), [("min", 1)]).collect()
    assert r1 == 1.0
    # agg = nan first; every later comparison with nan is False -> stays nan
    [(_, r2)] = aggregate(sc.parallelize([("a", nan), ("b", 1.0), ("c", 0.0)], 3), [("min", 1)]).collect()
    assert math.isnan(r2)
    # 5.0 then nan (ignored) then 0.5 in a later partition -> 0.5
    [(_, r3)] = aggregate(
        sc.parallelize([("a", 5.0), ("b", nan), ("c", 7.0), ("d", 0.5)], 2), [("min", 1)]
    ).collect()
    assert r3 == 0.5


def test_aggregate_none_before_first_value_is_skipped(sc):
    # agg starts as None; "agg != None" is False so the next value replaces it.
    rdd = sc.parallelize([("a", None), ("b", 5), ("c", 3)], 3)
    assert aggregate(rdd, [("min", 1)]).collect() == [("a", 3)]
    assert aggregate(rdd, [("max", 1)]).collect() == [("a", 5)]


def test_aggregate_float_sum_is_sequential_in_input_order(sc):
    # Sequentially every 1.0 is absorbed by 1e16 (round-half-even), so Flink's loop gives 0.5;
    # summing per partition first and then merging the partial sums would give 4.0 instead.
    values = [1e16, 1.0, 1.0, 1.0, 1.0, 1.0, -1e16, 0.5]
    expected = flink_sequential_sum(values)
    assert expected == 0.5 and math.fsum(values) == 5.5
    rdd = sc.parallelize([("k", v) for v in values], 4)
    assert aggregate(rdd, [("sum", 1)]).collect() == [("k", expected)]
    grouped = sc.parallelize([("k", v) for v in values] + [("j", v) for v in reversed(values)], 4)
    result = dict(aggregate(grouped, [("sum", 1)], key=lambda t: t[0]).collect())
    assert result == {"k": expected, "j": flink_sequential_sum(list(reversed(values)))}


def test_aggregate_sum_starts_at_int_zero(sc):
    [(s,)] = aggregate(sc.parallelize([(True,), (True,)], 2), [("sum", 0)]).collect()
    assert s == 2 and type(s) is int  # 0 + True + True
    failing = aggregate(sc.parallelize([("a", "x"), ("b", "y")], 1), [("sum", 1)])
    with pytest.raises(Exception, match="TypeError"):  # 0 += "x" fails in Flink too
        failing.collect()


def test_aggregate_hash_colliding_keys_stay_separate(sc):
    # hash(-1) == hash(-2) in CPython, so portable_hash collides for these keys.
    assert hash(-1) == hash(-2)
    data = [(-1, 1, "m1"), (-2, 10, "m2"), (-1, 2, "n1"), (-2, 20, "n2"), (-1, 3, "o1")]
    rdd = sc.parallelize(data, 3)
    result = sorted(aggregate(rdd, [("sum", 1)], key=lambda t: t[0]).collect())
    assert result == [(-2, 30, "m2"), (-1, 6, "m1")]


def test_aggregate_composite_keys_and_list_elements(sc):
    data = [["a", 1, 5], ["a", 2, 6], ["b", 1, 7], ["a", 1, 8]]
    rdd = sc.parallelize(data, 2)
    result = sorted(aggregate(rdd, [("sum", 2)], key=lambda t: (t[0], t[1])).collect())
    assert result == [("a", 1, 13), ("a", 2, 6), ("b", 1, 7)]
    assert all(type(r) is tuple for r in result)


def test_aggregate_empty_input(sc):
    assert aggregate(sc.parallelize([], 3), [("sum", 1)]).collect() == []
    assert aggregate(sc.emptyRDD(), [("max", 0)]).collect() == []
    assert aggregate(sc.parallelize([], 3), [("min", 1)], key=lambda t: t[0]).collect() == []


def test_aggregate_is_lazy(sc):
    exploding = sc.parallelize([1, 2, 3], 3).map(lambda x: (x // 0,))
    result = aggregate(exploding, [("sum", 0)])  # must not run a Spark job
    grouped = aggregate(exploding, [("sum", 0)], key=lambda t: t[0])
    with pytest.raises(Exception):
        result.collect()
    with pytest.raises(Exception):
        grouped.collect()


def test_aggregate_rejects_unknown_aggregation(sc):
    with pytest.raises(ValueError):
        aggregate(sc.parallelize([(1,)]), [("avg", 0)])


# ------------------------------------------------------------------------------------------
# RuntimeContext / with_broadcast_sets (functions/RuntimeContext.py, Function.py)
# ------------------------------------------------------------------------------------------


def test_broadcast_variable_on_executors(sc):
    class AddOffsets(object):  # local class: pickled by value to the workers
        def __init__(self):
            self.context = None

        def map(self, value):
            offsets = self.context.get_broadcast_variable("offsets")
            names = self.context.get_broadcast_variable("names")
            return (value + offsets[0][1], type(offsets).__name__, list(names))

    bc_rdd = sc.parallelize([("o", 100), ("p", 200)], 2)
    function = AddOffsets()
    names = sc.parallelize(["a", "b", "c"], 3)
    assert with_broadcast_sets(function, {"offsets": bc_rdd, "names": names}) is function
    result = sc.parallelize([1, 2, 3], 3).map(function.map).collect()
    abc = ["a", "b", "c"]
    assert result == [(101, "deque", abc), (102, "deque", abc), (103, "deque", abc)]


def test_broadcast_variable_is_a_deque_in_order(sc):
    class F(object):
        pass

    function = with_broadcast_sets(F(), {"b": sc.parallelize([(1, "x"), (2, "y"), (3, "z")], 3)})
    value = function.context.get_broadcast_variable("b")
    assert isinstance(value, collections.deque)
    assert list(value) == [(1, "x"), (2, "y"), (3, "z")]
    # Flink stores one deque per name and hands out the same object.
    assert function.context.get_broadcast_variable("b") is value
    with pytest.raises(KeyError):
        function.context.get_broadcast_variable("missing")


def test_with_broadcast_sets_twice_adds_to_same_context(sc):
    class F(object):
        pass

    function = F()
    with_broadcast_sets(function, {"first": sc.parallelize([1, 2], 2)})
    context = function.context
    with_broadcast_sets(function, {"second": sc.parallelize([], 2)})
    assert function.context is context
    assert list(context.get_broadcast_variable("first")) == [1, 2]
    assert context.get_broadcast_variable("second") == collections.deque()
    def read(_):
        ctx = function.context
        return list(ctx.get_broadcast_variable("first")), len(ctx.get_broadcast_variable("second"))

    result = sc.parallelize([0], 1).map(read).collect()
    assert result == [([1, 2], 0)]


def test_get_index_of_this_subtask(sc):
    context = RuntimeContext()
    assert context.get_index_of_this_subtask() == 0  # on the driver

    def tag(index, iterator):
        return [(index, context.get_index_of_this_subtask(), sum(1 for _ in iterator))]

    result = sc.parallelize(range(8), 4).mapPartitionsWithIndex(tag).collect()
    assert [(i, i, 2) for i in range(4)] == result


def test_runtime_context_accepts_plain_sequences():
    context = RuntimeContext({"v": [3, 1, 2]})
    assert context.get_broadcast_variable("v") == collections.deque([3, 1, 2])


# ------------------------------------------------------------------------------------------
# Module hygiene
# ------------------------------------------------------------------------------------------


def test_module_is_import_light():
    code = (
        "import sys, flink2spark.runtime.dataset as d;"
        "heavy = [m for m in ('pyspark', 'py4j', 'libcst', 'black') if m in sys.modules];"
        "assert not heavy, heavy;"
        "assert d.stringify(('a', (1,))) == '(a, (1))'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_public_api_is_documented():
    listed = [name for name in ds.__all__ if name not in ("NO_OVERWRITE", "OVERWRITE")]
    assert ds.__doc__ and all(name in ds.__doc__ for name in listed)
    for name in ds.__all__:
        obj = getattr(ds, name)
        if callable(obj):
            assert obj.__doc__ and "Flink" in obj.__doc__, name


# ------------------------------------------------------------------------------------------
# flink.plan.Constants stand-ins and csv_schema
# ------------------------------------------------------------------------------------------


def test_constants_match_flink_plan_constants():
    assert (ds.WriteMode.NO_OVERWRITE, ds.WriteMode.OVERWRITE) == (0, 1)
    assert (ds.NO_OVERWRITE, ds.OVERWRITE) == (0, 1)
    assert (ds.Order.NONE, ds.Order.ASCENDING, ds.Order.DESCENDING, ds.Order.ANY) == (0, 1, 2, 3)
    assert (ds.INT, ds.FLOAT, ds.STRING, ds.BOOL, ds.BYTES) == (1, 2.5, "type", True, bytearray(b"byte"))
    assert type(ds.BOOL) is bool and type(ds.INT) is int


def test_csv_schema_follows_flinks_python_type_mapping():
    # _get_type_info: bool -> BOOLEAN (checked before int), int -> LONG, float -> DOUBLE, str -> STRING
    schema = csv_schema_of((ds.INT, ds.STRING, ds.FLOAT, ds.BOOL, ds.LONG))
    assert schema == "_c0 BIGINT, _c1 STRING, _c2 DOUBLE, _c3 BOOLEAN, _c4 BIGINT"
    assert csv_schema_of([0, "", 0.0, False]) == "_c0 BIGINT, _c1 STRING, _c2 DOUBLE, _c3 BOOLEAN"
    for bad in [(ds.BYTES,), (None,), ((1, 2),)]:
        with pytest.raises(ValueError):
            csv_schema_of(bad)


def csv_schema_of(types):
    return ds.csv_schema(types)


def test_csv_schema_reads_64_bit_ints_like_flink(spark, tmp_path):
    source = tmp_path / "in.csv"
    source.write_text("1|a|2.5|true\n3000000000|b|-1.0|false\n")
    rows = (
        spark.read.csv(str(source), schema=ds.csv_schema((ds.INT, ds.STRING, ds.FLOAT, ds.BOOL)),
                       sep="|", lineSep="\n", quote="", mode="FAILFAST")
        .rdd.map(tuple)
        .collect()
    )
    assert rows == [(1, "a", 2.5, True), (3000000000, "b", -1.0, False)]


def test_write_text_accepts_write_mode_constants(sc, tmp_path):
    target = tmp_path / "w.txt"
    target.write_text("old")
    write_text(sc.parallelize([1], 1), str(target), ds.WriteMode.OVERWRITE)
    assert read_bytes(target) == b"1\n"
    with pytest.raises(FileExistsError):
        write_text(sc.parallelize([2], 1), str(target), ds.WriteMode.NO_OVERWRITE)


# ---------------------------------------------------------------------------------------------
# read_csv: Flink's CsvInputFormat semantics


def test_read_csv_ignores_trailing_fields_and_keeps_empty_strings(spark, tmp_path):
    path = tmp_path / "lineitem.tbl"
    path.write_text("1|widget|2.5|\n2||10|\r\n\n3|x|-1.0|extra|\n")
    rows = ds.read_csv(spark, str(path), (ds.INT, ds.STRING, ds.FLOAT), field_delimiter="|").collect()
    assert rows == [(1, "widget", 2.5), (2, "", 10.0), (3, "x", -1.0)]
    assert isinstance(rows[1][2], float)


def test_read_csv_fails_on_short_rows_and_bad_numbers(spark, tmp_path):
    short = tmp_path / "short.csv"
    short.write_text("1,a\n2\n")
    with pytest.raises(Exception, match="field"):
        ds.read_csv(spark, str(short), (ds.INT, ds.STRING)).collect()
    bad = tmp_path / "bad.csv"
    bad.write_text(" 7,a\n")
    with pytest.raises(Exception, match="not a valid int"):
        ds.read_csv(spark, str(bad), (ds.INT, ds.STRING)).collect()


def test_read_csv_booleans_and_custom_line_delimiter(spark, tmp_path):
    path = tmp_path / "flags.csv"
    path.write_text("TRUE;a#false;b#")
    rows = ds.read_csv(spark, str(path), (ds.BOOL, ds.STRING), line_delimiter="#", field_delimiter=";").collect()
    assert rows == [(True, "a"), (False, "b")]
