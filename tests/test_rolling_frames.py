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
    assert converted.count("monotonically_increasing_id") == 5
    rand = random.Random(14)
    rows = [(rand.choice("abcde"), rand.choice(["kiwi", "fig", "plum", "lime"]), rand.randint(-3, 3)) for _ in range(3000)]
    scope = {"DATA": rows}
    exec(compile(converted, "rolling.py", "exec"), scope)
    assert scope["sales"].rdd.getNumPartitions() > 1
    want = _flink(rows)
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
