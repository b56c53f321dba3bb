"""Rolling (STREAMING) keyed aggregations of frames, run on Spark over generated data with
several partitions, against PyFlink's semantics written out here (``KeyedStream._accumulate``
and the reduce adapter: the first element as it is, then ``reduce(acc, element)``; sum/min/max
replace only the field, min_by/max_by keep the earlier element on ties).

The conversion relies on ``createDataFrame`` of a list keeping the list's order across
partitions and ``monotonically_increasing_id`` following it through ``where``/``select``:
these tests fail if it does not (the data is spread over several partitions, checked).
"""

import random
from collections import Counter

from flink2spark.transpiler.engine import convert_source

PROGRAM = """\
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(1)
sales = env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT()]))
by_store = sales.filter(lambda s: s[2] != 0).key_by(lambda s: s[0])
total = by_store.sum(2)
least = by_store.min(2)
least_by = by_store.min_by(2)
most_by = by_store.max_by(2)
latest = by_store.reduce(lambda a, b: (a[0], b[1], max(a[2], b[2])))
least_if = by_store.reduce(lambda a, b: b if b[2] < a[2] else a)
"""


def _flink(rows):
    """What PyFlink emits per element (STREAMING), written from its source."""
    accs = {name: {} for name in ("total", "least", "least_by", "most_by", "latest")}
    out = {name: [] for name in accs}
    steps = {
        "total": lambda a, b: (a[0], a[1], a[2] + b[2]),
        "least": lambda a, b: (a[0], a[1], b[2] if b[2] < a[2] else a[2]),
        "least_by": lambda a, b: b if b[2] < a[2] else a,
        "most_by": lambda a, b: b if b[2] > a[2] else a,
        "latest": lambda a, b: (a[0], b[1], max(a[2], b[2])),
    }
    for row in rows:
        if row[2] == 0:
            continue
        for name, step in steps.items():
            acc = accs[name]
            acc[row[0]] = row if row[0] not in acc else step(acc[row[0]], row)
            out[name].append(acc[row[0]])
    return out


def test_rolling_frames_match_pyflink_semantics(spark):
    converted = convert_source(PROGRAM, "rolling.py").output
    assert "createDataFrame" in converted and "f2s" not in converted, converted
    assert converted.count("monotonically_increasing_id") == 6
    rand = random.Random(14)
    rows = [(rand.choice("abcde"), rand.choice(["kiwi", "fig", "plum", "lime"]), rand.randint(-3, 3)) for _ in range(3000)]
    scope = {"DATA": rows}
    exec(compile(converted, "rolling.py", "exec"), scope)
    assert scope["sales"].rdd.getNumPartitions() > 1
    want = _flink(rows)
    want["least_if"] = want["least_by"]  # a reduce keeping the smaller element, the earlier on ties: min_by
    for name, records in want.items():
        got = Counter(tuple(r) for r in scope[name].collect())
        assert got == Counter(records), name


def test_window_spec_bound_once_per_block_under_a_free_name():
    """Two rolled fields share one ``Window`` spec, bound before the statement under a name the
    program does not use (``by_key`` is the user's here); a statement of another function binds
    its own, a later statement of the same block reuses the earlier binding."""
    source = (
        "from pyflink.common import Types\n"
        "from pyflink.datastream import StreamExecutionEnvironment\n\n"
        "env = StreamExecutionEnvironment.get_execution_environment()\n"
        "by_key = 'mine'\n"
        "DATA = [('a', 'x', 1), ('a', 'y', 2)]\n"
        "TYPE = Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT()])\n\n\n"
        "def first():\n"
        "    sales = env.from_collection(DATA, TYPE)\n"
        "    sales.key_by(lambda s: s[0]).sum(2).print()\n"
        "    sales.key_by(lambda s: s[0]).max(2).print()\n\n\n"
        "def second():\n"
        "    sales = env.from_collection(DATA, TYPE)\n"
        "    sales.key_by(lambda s: s[0]).min(2).print()\n"
    )
    out = convert_source(source, "job.py").output
    assert out.count('by_key_2 = Window.partitionBy("f0").orderBy("seq")') == 1
    assert out.count('by_key_3 = Window.partitionBy("f0").orderBy("seq")') == 1
    assert "by_key = 'mine'" in out and "by_key = Window" not in out
    assert out.count(".over(by_key_2)") == 4 and out.count(".over(by_key_3)") == 2
    assert convert_source(out, "job.py").output == out


TEXT_PROGRAM = """\
import sys

from pyflink.common import Types, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import FileSource, StreamFormat

TEXT = "words.txt"
env = StreamExecutionEnvironment.get_execution_environment()
lines = env.from_source(
    FileSource.for_record_stream_format(StreamFormat.text_line_format(), TEXT).build(),
    WatermarkStrategy.no_watermarks(),
    "lines",
)
pairs = lines.flat_map(lambda line: [(w, len(w)) for w in line.split()],
                       output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))
counts = pairs.key_by(lambda p: p[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))
"""


def test_rolling_reduce_of_a_text_file_follows_the_file_order(spark, tmp_path):
    """A text file source's lines, read by Spark in several partitions of one file, are numbered
    in the file's order: each word's running sum is Flink's (one file: one split, read by one
    reader; the flat_map is chained to it, so a key's records reach the reduce in file order).
    The conversion says that several files are read in another order (F2S265)."""
    rand = random.Random(265)
    words = ["fig", "plum", "kiwi", "lime", "pear", "sloe"]
    text = [" ".join(rand.choice(words) for _ in range(rand.randint(0, 5))) for _ in range(4000)]
    path = tmp_path / "words.txt"
    path.write_text("\n".join(text) + "\n")
    result = convert_source(TEXT_PROGRAM, "rolling_text.py")
    converted = result.output
    assert "f2s" not in converted and ".rdd" not in converted, converted
    assert [m.code for m in result.markers] == ["F2S265"], result.markers
    acc, want = {}, []
    for line in text:
        for w in line.split():
            acc[w] = acc.get(w, 0) + len(w)
            want.append((w, acc[w]))
    spark.conf.set("spark.sql.files.maxPartitionBytes", "4096")
    try:
        scope = {}
        exec(compile(converted.replace('"words.txt"', repr(str(path))), "rolling_text.py", "exec"), scope)
        assert scope["lines"].rdd.getNumPartitions() > 1
        got = [tuple(r) for r in scope["counts"].collect()]
    finally:
        spark.conf.unset("spark.sql.files.maxPartitionBytes")
    assert Counter(got) == Counter(want)


def test_rolling_reduce_of_a_text_file_with_a_rebalanced_operator_says_so():
    """A flat_map with its own parallelism before key_by gets its records round-robin: Flink's
    order of a key's records may differ (F2S277 as well as F2S265); count windows over a text
    file keep the shim (their plan takes from_collection sources only)."""
    rebalanced = TEXT_PROGRAM.replace("output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))",
                                      "output_type=Types.TUPLE([Types.STRING(), Types.LONG()])).set_parallelism(2)")
    result = convert_source(rebalanced, "rolling_text.py")
    assert sorted(m.code for m in result.markers) == ["F2S265", "F2S277"], result.markers
    assert "monotonically_increasing_id" in result.output
    windows = TEXT_PROGRAM.replace(".reduce(lambda a, b: (a[0], a[1] + b[1]))",
                                   ".count_window(2).reduce(lambda a, b: (a[0], a[1] + b[1]))")
    assert "monotonically_increasing_id" not in convert_source(windows, "rolling_text.py").output


BATCH_PROGRAM = """\
from pyflink.common import Types
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment

env = StreamExecutionEnvironment.get_execution_environment()
env.set_runtime_mode(RuntimeExecutionMode.BATCH)
env.set_parallelism(1)
sales = env.from_collection(DATA, Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT()]))
by_store = sales.filter(lambda s: s[2] != 0).key_by(lambda s: s[0])
total = by_store.sum(2)
least = by_store.min(2)
least_by = by_store.min_by(2)
most_by = by_store.max_by(2)
latest = by_store.reduce(lambda a, b: (a[0], b[1], max(a[2], b[2])))
most_if = by_store.reduce(lambda a, b: a if a[2] >= b[2] else b)
least_if = by_store.reduce(lambda a, b: b if b[2] < a[2] else a)
"""


def test_final_frames_match_pyflink_semantics_in_the_source_order(spark):
    """BATCH keyed reductions that keep fields of a key's first (or last) element, and
    min_by/max_by (the earlier on ties), over a source-order column: one record per key, the
    fold of its records in the source order (``_flink``'s steps, the last value per key)."""
    result = convert_source(BATCH_PROGRAM, "final.py")
    converted = result.output
    assert "createDataFrame" in converted and "f2s" not in converted and "Window" not in converted, converted
    assert converted.count("monotonically_increasing_id") == 7
    assert {m.code for m in result.markers} == {"F2S288"}, result.markers
    rand = random.Random(288)
    rows = [(rand.choice("abcde"), rand.choice(["kiwi", "fig", "plum", "lime"]), rand.randint(-3, 3)) for _ in range(3000)]
    scope = {"DATA": rows}
    exec(compile(converted, "final.py", "exec"), scope)
    assert scope["sales"].rdd.getNumPartitions() > 1
    want = _flink(rows)
    want["most_if"], want["least_if"] = want["most_by"], want["least_by"]  # PyFlink's max_by/min_by written out
    for name, records in want.items():
        last = {}
        for record in records:
            last[record[0]] = record
        got = Counter(tuple(r) for r in scope[name].collect())
        assert got == Counter(last.values()), name
