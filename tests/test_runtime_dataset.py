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
# flink.plan.Constants stand-ins
# ------------------------------------------------------------------------------------------


def test_constants_match_flink_plan_constants():
    assert (ds.WriteMode.NO_OVERWRITE, ds.WriteMode.OVERWRITE) == (0, 1)
    assert (ds.NO_OVERWRITE, ds.OVERWRITE) == (0, 1)
    assert (ds.Order.NONE, ds.Order.ASCENDING, ds.Order.DESCENDING, ds.Order.ANY) == (0, 1, 2, 3)


def test_write_text_accepts_write_mode_constants(sc, tmp_path):
    target = tmp_path / "w.txt"
    target.write_text("old")
    write_text(sc.parallelize([1], 1), str(target), ds.WriteMode.OVERWRITE)
    assert read_bytes(target) == b"1\n"
    with pytest.raises(FileExistsError):
        write_text(sc.parallelize([2], 1), str(target), ds.WriteMode.NO_OVERWRITE)


# ---------------------------------------------------------------------------------------------
# read_csv: Flink's CsvInputFormat semantics


CSV_PROGRAM = """from flink.plan.Environment import get_environment
from flink.plan.Constants import BOOL, FLOAT, INT, STRING

env = get_environment()
rows = env.read_csv(PATH, {types}, field_delimiter="|")
"""


def _converted_read_csv(spark, path, types):
    """The records the conversion of ``env.read_csv(path, types, field_delimiter="|")`` reads."""
    from flink2spark.transpiler.engine import convert_source

    result = convert_source(CSV_PROGRAM.format(types=types), "job.py")
    assert "F2S116" in result.output and "f2s" not in result.output, result.output
    namespace = {"PATH": str(path)}
    exec(compile(result.output, "job.py", "exec"), namespace)
    return namespace["rows"].collect()


def test_read_csv_ignores_trailing_fields_and_keeps_empty_strings(spark, tmp_path):
    path = tmp_path / "lineitem.tbl"
    path.write_text("1|widget|2.5|\n2||10|\r\n\n3|x|-1.0|extra|\n")
    rows = _converted_read_csv(spark, path, "(INT, STRING, FLOAT)")
    assert rows == [(1, "widget", 2.5), (2, "", 10.0), (3, "x", -1.0)]
    assert isinstance(rows[1][2], float)


# What Flink 2.3's field parsers (org.apache.flink.types.parser.LongParser, DoubleParser,
# BooleanParser, the ones CsvInputFormat uses) gave for each text, run on the reference jar
# (flink-dist-2.3.0.jar) with a '|' delimiter; None: the parser refused the field (the job fails).
FLINK_FIELD_PARSERS = [
    ("INT", "5", 5), ("INT", "-5", -5), ("INT", "+5", None), ("INT", " 5", None), ("INT", "5 ", None),
    ("INT", "1_0", None), ("INT", "99999999999999999999", None),
    ("INT", "-9223372036854775808", -9223372036854775808),
    ("FLOAT", "1.5", 1.5), ("FLOAT", "+1.5", 1.5), ("FLOAT", " 1.5", None), ("FLOAT", "1.5 ", None),
    ("FLOAT", "1d", 1.0), ("FLOAT", "Infinity", float("inf")), ("FLOAT", "inf", None), ("FLOAT", "nan", None),
    ("FLOAT", "1e3", 1000.0), ("FLOAT", "0x1p3", 8.0), ("FLOAT", "1_0", None), ("FLOAT", ".5", 0.5),
    ("FLOAT", "5.", 5.0),
    ("BOOL", "true", True), ("BOOL", "TRUE", True), ("BOOL", "False", False), ("BOOL", "1", True),
    ("BOOL", "0", False), ("BOOL", "yes", None), ("BOOL", " true", None),
]
# where Spark's reader reads a field otherwise, as NOTE F2S116 says: Flink refuses a leading + on
# INT (Java's Long.parseLong takes it) and reads BOOL 1/0 (Spark: null)
NOTED = {("INT", "+5"): 5, ("BOOL", "1"): None, ("BOOL", "0"): None, ("FLOAT", " 1.5"): 1.5, ("FLOAT", "1.5 "): 1.5}


@pytest.mark.parametrize("kind", ["INT", "FLOAT", "BOOL"])
def test_read_csv_reads_flinks_field_texts(spark, tmp_path, kind):
    """Every text Flink's parser reads is read alike, but the NOTEd ones; a text Flink refuses
    (its job fails) is read as null (NOTE F2S116)."""
    cases = [(text, flink) for k, text, flink in FLINK_FIELD_PARSERS if k == kind]
    path = tmp_path / f"{kind}.csv"
    path.write_text("".join(f"{text}|x\n" for text, _ in cases))
    rows = _converted_read_csv(spark, path, f"({kind}, STRING)")
    expected = [(NOTED.get((kind, text), flink), "x") for text, flink in cases]
    assert len(rows) == len(expected)
    for (got, _), (want, _), (text, _) in zip(rows, expected, cases):
        assert (got == want or (got != got and want != want)) and type(got) is type(want), (text, got, want)


def test_read_csv_short_rows_are_read_with_nulls(spark, tmp_path):
    short = tmp_path / "short.csv"
    short.write_text("1|a\n2\n")  # Flink fails the job on the second row (NOTE F2S116)
    assert _converted_read_csv(spark, short, "(INT, STRING)") == [(1, "a"), (2, "")]


