"""``map``/``flat_map``/``filter`` over a DataFrame whose function has no Column form: the user's
function as a Python UDTF (``rules/pyflink/_side_outputs.function_plan``,
``runtime/frame_process.python_udtf``).

The converted program's functions run on generated records spread over several partitions; the
records must be what the ORIGINAL function gives per record in plain Python, which is how Flink
calls it (a TUPLE record as a tuple, a ROW as a Row, a basic type as the value). Results Flink's
serializer refuses (None in a TUPLE, an INT out of range) must fail the Spark job too; the
functions whose results may depend on more than their record stay on RDDs (NOTE F2S205).
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from flink2spark.transpiler.engine import convert_source

HEAD = (
    "from pyflink.common import Row, Types\n"
    "from pyflink.datastream import StreamExecutionEnvironment\n"
    "from pyflink.datastream.functions import FilterFunction, FlatMapFunction, MapFunction\n\n\n"
)
FUNCTIONS = (
    "def label(t):\n"
    "    name, price, n = t\n"
    "    if n > 5:\n"
    "        return '%s x%d: %.1f' % (name, n, price * n)\n"
    "    return name.title()\n\n\n"
    "class Rate(MapFunction):\n"
    "    def open(self, runtime_context):\n"
    "        self.factor = {'a': 0.5, 'b': 2.0}\n\n"
    "    def map(self, t):\n"
    "        return Row(t[0], round(t[1] * self.factor.get(t[0][:1], 1.0), 2), t[2] is None)\n\n"
    "    def close(self):\n"
    "        self.factor = None\n\n\n"
    "class Pieces(FlatMapFunction):\n"
    "    def flat_map(self, t):\n"
    "        for i in range(t[2] % 4):\n"
    "            yield t[0][i:], i * t[2]\n\n\n"
    "class Cheap(FilterFunction):\n"
    "    def filter(self, t):\n"
    "        return t[1] < 50 or t[0].endswith('z')\n"
)
TAIL = (
    "\n\nenv = StreamExecutionEnvironment.get_execution_environment()\n"
    "items = env.from_collection(ITEMS, type_info=Types.TUPLE([Types.STRING(), Types.DOUBLE(), Types.INT()]))\n"
    "items.map(label, output_type=Types.STRING()).print()\n"
    "items.map(Rate(), output_type=Types.ROW([Types.STRING(), Types.DOUBLE(), Types.BOOLEAN()])).print()\n"
    "items.flat_map(Pieces(), output_type=Types.TUPLE([Types.STRING(), Types.LONG()])).print()\n"
    "items.filter(Cheap()).print()\n"
)


def _items(seed: int) -> list:
    rng = random.Random(seed)
    words = ["apple", "banana", "az", "b", "kiwiz", "cherry", ""]
    return [(rng.choice(words), round(rng.uniform(0, 100), 3), rng.randint(0, 9)) for _ in range(60)]


def _pyflink_free() -> dict:
    """The original program's functions with no Flink base classes (PyFlink's ``Row`` is a tuple of
    its fields here: records are compared as tuples)."""
    scope: dict = {}
    pyflink_free = FUNCTIONS.replace("(MapFunction)", "").replace("(FlatMapFunction)", "").replace("(FilterFunction)", "")
    exec(compile("Row = lambda *fields: tuple(fields)\n\n" + pyflink_free, "original.py", "exec"), scope)
    return scope


def _original(seed: int) -> dict:
    """The original program's functions, run as Flink runs them: one call per record."""
    scope = _pyflink_free()
    items = _items(seed)
    rate = scope["Rate"]()
    rate.open(None)
    return {
        "map": Counter((scope["label"](t),) for t in items),
        "rate": Counter(tuple(rate.map(t)) for t in items),
        "flat_map": Counter(tuple(r) for t in items for r in scope["Pieces"]().flat_map(t)),
        "filter": Counter(t for t in items if scope["Cheap"]().filter(t)),
    }


@pytest.mark.parametrize("seed", [1, 2])
def test_functions_with_no_column_form_run_as_udtfs_with_flink_s_records(spark, seed):
    from flink2spark.runtime import frame_process as f2s_process

    items = _items(seed)
    result = convert_source(HEAD + FUNCTIONS + f"\n\nITEMS = {items!r}\n" + TAIL, "items.py")
    out = result.output
    assert "F2S205" not in out and "TODO" not in out, out
    assert 'f2s_process.python_udtf(items, "map", label, "tuple", "value STRING")' in out
    assert "F2S203 Rate.open()/close()" in out

    scope: dict = {}
    exec(compile(out.split("\nenv = ")[0], "items.py", "exec"), scope)  # the converted functions
    frame = spark.createDataFrame(items, "f0 STRING, f1 DOUBLE, f2 INT").repartition(3)
    schema = "f0 STRING, f1 DOUBLE, f2 INT"
    got = {
        "map": f2s_process.python_udtf(frame, "map", scope["label"], "tuple", "value STRING"),
        "rate": f2s_process.python_udtf(frame, "map", scope["Rate"](), "tuple", "f0 STRING, f1 DOUBLE, f2 BOOLEAN", rows=True),
        "flat_map": f2s_process.python_udtf(frame, "flat_map", scope["Pieces"]().flat_map, "tuple", "f0 STRING, f1 BIGINT"),
        # Cheap's filter has a Column form (items.where(...)), so the output no longer defines the class:
        # the UDTF form of a filter runs the original one
        "filter": f2s_process.python_udtf(frame, "filter", _pyflink_free()["Cheap"]().filter, "tuple", schema, rows=True),
    }
    want = _original(seed)
    for name, df in got.items():
        assert Counter(tuple(r) for r in df.collect()) == want[name], name


@pytest.mark.parametrize(
    "function, schema",
    [
        (lambda t: (t[0], None), "f0 STRING, f1 INT"),  # a None in a TUPLE: Flink's serializer fails
        (lambda t: None, "value STRING"),  # a None record
        (lambda t: (t[0], 2 ** 31), "f0 STRING, f1 INT"),  # out of INT's range (Spark's Arrow would fail too)
        (lambda t: (t[0], t[1] / 2), "f0 STRING, f1 BIGINT"),  # a float for a LONG (Spark's Arrow would cut it)
        (lambda t: t[0].encode(), "value STRING"),  # bytes for a STRING
    ],
)
def test_results_flink_s_serializer_refuses_fail_the_job(spark, function, schema):
    from flink2spark.runtime import frame_process as f2s_process

    frame = spark.createDataFrame([("a", 3)], "f0 STRING, f1 INT")
    with pytest.raises(Exception, match="ValueError"):
        f2s_process.python_udtf(frame, "map", function, "tuple", schema).collect()


def test_a_none_field_of_a_row_and_an_int_for_a_double_are_stored_as_flink_stores_them(spark):
    from flink2spark.runtime import frame_process as f2s_process

    frame = spark.createDataFrame([("a", 3)], "f0 STRING, f1 INT")
    rows = f2s_process.python_udtf(frame, "map", lambda t: (t[0], None, t[1]), "tuple", "a STRING, b INT, c DOUBLE", rows=True)
    assert [tuple(r) for r in rows.collect()] == [("a", None, 3.0)]


def test_a_float_result_is_stored_as_flinks_float_serializer_gives_it_back(spark):
    # measured on Flink 2.3: map(f, output_type=Types.FLOAT()) read through key_by gives the
    # 32-bit value widened (0.1 -> 0.10000000149011612), 3 -> 3.0, True -> 1.0, 1e39 -> inf;
    # the next Python function reads Spark's FLOAT column back as that same double
    from flink2spark.runtime import frame_process as f2s_process

    frame = spark.createDataFrame([(1,), (2,), (3,), (4,)], "f0 INT")
    values = {1: 0.1, 2: 3, 3: True, 4: 1e39}
    stored = f2s_process.python_udtf(frame, "map", lambda t: (t[0], values[t[0]]), "tuple", "a INT, b FLOAT")
    read = f2s_process.python_udtf(stored, "map", lambda t: (t[0], repr(t[1])), "tuple", "a INT, b STRING")
    assert sorted(tuple(r) for r in read.collect()) == [(1, "0.10000000149011612"), (2, "3.0"), (3, "1.0"), (4, "inf")]
    with pytest.raises(Exception, match="ValueError"):
        f2s_process.python_udtf(frame, "map", lambda t: (t[0], "0.5"), "tuple", "a INT, b FLOAT").collect()


COUNTER = (
    "from pyflink.common import Types\n"
    "from pyflink.datastream import StreamExecutionEnvironment\n"
    "from pyflink.datastream.functions import MapFunction\n\n\n"
    "class Numbered(MapFunction):\n"
    "    def __init__(self):\n"
    "        self.seen = []\n\n"
    "    def map(self, word):\n"
    "        self.seen.append(word)\n"
    "        return '%d %s' % (len(self.seen), word)\n\n\n"
    "env = StreamExecutionEnvironment.get_execution_environment()\n"
    "PARALLELISM\n"
    "words = env.from_collection(['a', 'b', 'c'], type_info=Types.STRING())\n"
    "words.map(Numbered(), output_type=Types.STRING()).print()\n"
)


def test_instance_data_at_parallelism_1_over_a_collection_is_one_partition_in_order(spark):
    out = convert_source(COUNTER.replace("PARALLELISM", "env.set_parallelism(1)"), "n.py").output
    assert "F2S205" not in out, out
    assert 'f2s_process.python_udtf(\n    words.coalesce(1), "map", Numbered().map, "value", "value STRING"\n)' in out, out
    # with no output_type the results stay Python objects: a print shows str() of each, one partition in order too
    out = convert_source(COUNTER.replace("PARALLELISM", "env.set_parallelism(1)").replace(", output_type=Types.STRING()", ""), "n.py").output
    assert "F2S205" not in out, out
    assert 'f2s_process.pickled(words.coalesce(1), "map", Numbered().map, "value")' in out, out


@pytest.mark.parametrize(
    "program, why",
    [
        (COUNTER.replace("PARALLELISM", ""), "Numbered keeps data between records"),
        (COUNTER.replace("PARALLELISM", "SEEN = []").replace("self.seen.append", "SEEN.append").replace("MapFunction)", "MapFunction)")
         .replace("class Numbered(MapFunction):\n    def __init__(self):\n        self.seen = []\n\n    def map(self, word):",
                  "def numbered(word):").replace("        self.seen", "    SEEN").replace("        return '%d %s' % (len(SEEN)", "    return '%d %s' % (len(SEEN)")
         .replace("Numbered()", "numbered"), "keeps data between calls"),
    ],
)
def test_functions_whose_results_may_depend_on_more_than_their_record_stay_on_rdds(program, why):
    out = convert_source(program, "n.py").output
    assert "F2S205" in out and "f2s_process" not in out, out
    assert why in out, out


# Functions with no output_type (issue 14): Flink pickles their results, which have no Spark
# type. They run, with the functions after them, in the UDTF of the first one that has an
# output_type (or of a print: str() of each, as PyFlink's print maps pickled records).
PICKLED_FUNCTIONS = (
    "def parse(line):\n"
    "    level, _, rest = line.partition(' ')\n"
    "    return {'level': level, 'words': rest.split()}\n\n\n"
    "def explode(entry):\n"
    "    for w in entry['words']:\n"
    "        yield entry['level'], w\n"
)
PICKLED_TAIL = (
    "\n\nenv = StreamExecutionEnvironment.get_execution_environment()\n"
    "lines = env.from_collection(LINES, type_info=Types.STRING())\n"
    "entries = lines.map(parse).filter(lambda e: e['level'] != 'DEBUG')\n"
    "entries.flat_map(explode, output_type=Types.TUPLE([Types.STRING(), Types.STRING()])).print()\n"
    "entries.map(lambda e: len(e['words'])).print()\n"
    "lines.map(lambda s: (s[:4], len(s))).print()\n"
)


def _lines(seed: int) -> list:
    rng = random.Random(seed)
    levels = ["INFO", "WARN", "DEBUG", "ERROR"]
    words = ["disk", "full", "", "retry", "ok"]
    return [rng.choice(levels) + " " + " ".join(rng.choice(words) for _ in range(rng.randint(0, 4))) for _ in range(50)]


@pytest.mark.parametrize("seed", [1, 2])
def test_results_with_no_output_type_stay_python_objects_until_a_typed_function_or_a_print(spark, seed):
    from flink2spark.runtime import frame_process as f2s_process

    lines = _lines(seed)
    out = convert_source(HEAD + PICKLED_FUNCTIONS + f"\n\nLINES = {lines!r}\n" + PICKLED_TAIL, "lines.py").output
    assert "F2S205" not in out and "TODO" not in out, out
    assert 'f2s_process.pickled(lines, "map", parse, "value")' in out
    assert '"pickled",\n    "f0 STRING, f1 STRING",' in out or '"pickled", "f0 STRING, f1 STRING"' in out, out
    assert "f2s_process.as_text(" in out
    # a map whose result the translator types exactly: Columns (STRING, INT), no UDTF
    assert 'F.char_length(F.col("value")).alias("f1")' in out, out

    scope: dict = {}
    exec(compile(out.split("\nenv = ")[0], "lines.py", "exec"), scope)  # the converted functions
    frame = spark.createDataFrame(lines, "string").repartition(3)
    entries = f2s_process.pickled(f2s_process.pickled(frame, "map", scope["parse"], "value"), "filter", lambda e: e["level"] != "DEBUG")
    words = f2s_process.python_udtf(entries, "flat_map", scope["explode"], "pickled", "f0 STRING, f1 STRING")
    counts = f2s_process.as_text(f2s_process.pickled(entries, "map", lambda e: len(e["words"])))

    exec(compile(PICKLED_FUNCTIONS, "original.py", "exec"), original := {})  # plain Python, as Flink calls them
    kept = [e for e in map(original["parse"], lines) if e["level"] != "DEBUG"]
    assert Counter(tuple(r) for r in words.collect()) == Counter(p for e in kept for p in original["explode"](e))
    assert Counter(r.value for r in counts.collect()) == Counter(str(len(e["words"])) for e in kept)


def test_print_of_pickled_records_is_their_str(spark):
    from flink2spark.runtime import frame_process as f2s_process

    frame = spark.createDataFrame(["a b", "c"], "string")
    shown = f2s_process.as_text(f2s_process.pickled(frame, "map", lambda s: (s, s.split()), "value"))
    assert sorted(r.value for r in shown.collect()) == ["('a b', ['a', 'b'])", "('c', ['c'])"]
    with pytest.raises(TypeError, match="Pickled"):
        f2s_process.python_udtf(frame, "map", str, "pickled", "value STRING")
