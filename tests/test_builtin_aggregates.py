"""AggregateFunction classes as Spark's built-in aggregates (rules/pyflink/_builtin_aggregates.py).

Each recognised case is run twice on the same records: the class itself in Python (as Flink's
window operator runs it: ``create_accumulator``, ``add`` per record, ``get_result``; for
sessions, ``merge`` of the parts' accumulators) and the Columns the recognition gives, by Spark
(``groupBy(key).agg(...).select(...)``); the results per key must be equal. Refused cases say
why (a str).
"""

from __future__ import annotations

import random

import libcst as cst
import pytest

from flink2spark.rules.pyflink import _builtin_aggregates as B
from flink2spark.rules.pyflink import _event_windows as W
from flink2spark.transpiler import python_columns as PC

SHAPE = PC.Shape.tuple(PC.Field("f0", "string"), PC.Field("f1", "int"), PC.Field("f2", "bigint"))
SCHEMA = "f0 string, f1 int, f2 bigint"


def _class(source: str) -> cst.ClassDef:
    return cst.parse_module(source).body[0]


def _agg(create, add, get, merge=None, unpack=None):
    text = f"class Agg:\n    def create_accumulator(self):\n        return {create}\n\n    def add(self, value, acc):\n"
    if unpack:
        text += f"        {unpack} = acc\n"
    text += f"        return {add}\n\n    def get_result(self, acc):\n        return {get}\n"
    if merge:
        text += f"\n    def merge(self, a, b):\n        return {merge}\n"
    return text


# (class source, whether merge() matches for sessions)
RECOGNISED = [
    (_agg("0", "acc + 1", "acc", "a + b"), True),  # count
    (_agg("0", "acc + value[1]", "acc"), False),  # sum, no merge
    (_agg("0, 0, 0", "(acc[0] + 1, acc[1] + value[2], max(acc[2], value[1]))", "acc",
          "(a[0] + b[0], a[1] + b[1], max(a[2], b[2]))"), True),  # the benchmark's FareStats
    (_agg("0, 0, 0", "n + 1, total + value[2], max(value[2], top)", "acc", unpack="n, total, top",
          merge="a[0] + b[0], b[1] + a[1], max(b[2], a[2])"), True),  # unpacked, operands swapped
    (_agg("0, 0", "(min(acc[0], value[1]), acc[1] + value[1] * 2)", "(acc[1], acc[0])",
          "(min(a[0], b[0]), a[1] + b[1])"), True),  # min from 0 (a bound: least(0, min))
    (_agg("7, 100", "(acc[0] + 3, min(acc[1], value[1]))", "(acc[1] - 1, acc[0])",
          "(a[0] + b[0], min(a[1], b[1]))"), False),  # count * 3 from 7: merging adds 7 twice
    (_agg("0, -5", "(acc[0] + (value[1] * 3 - 1), max(acc[1], value[1] % 7))", "(acc[1] * 2, acc[0])",
          "(a[0] + b[0], max(a[1], b[1]))"), True),
    (_agg("0, 0", "(acc[0] + 1, acc[1])", "acc", "(a[0] + b[0], a[1])"), True),  # a field kept
]


def _python(source: str, records, sessions: bool):
    """What Flink's window operator gives per key, running the class; ``sessions``: each key's
    records added in two parts whose accumulators are merged (a merged session)."""
    scope: dict = {}
    exec(source, scope)
    agg = scope["Agg"]()
    out = {}
    for key in sorted({r[0] for r in records}):
        rows = [r for r in records if r[0] == key]
        parts = [rows[: len(rows) // 2], rows[len(rows) // 2:]] if sessions and len(rows) > 1 else [rows]
        accs = []
        for part in parts:
            acc = agg.create_accumulator()
            for r in part:
                acc = agg.add(r, acc)
            accs.append(acc)
        acc = accs[0] if len(accs) == 1 else agg.merge(accs[0], accs[1])
        result = agg.get_result(acc)
        out[key] = tuple(result) if isinstance(result, tuple) else (result,)
    return out


def _records(seed: int):
    rng = random.Random(seed)
    keys = ["a", "b", "c", "d"]
    return [(rng.choice(keys), rng.randint(-2**31, 2**31 - 1) if rng.random() < 0.2 else rng.randint(-50, 50),
             rng.randint(-2**40, 2**40)) for _ in range(rng.randint(1, 40))]


def _spark(spark, found: B.Aggregates, records):
    from pyspark.sql import functions as F

    frame = spark.createDataFrame(records, SCHEMA)
    columns = [eval(c, {"F": F}) for c in found.columns]
    results = [eval(o.code, {"F": F}).alias(f"r{i}") for i, o in enumerate(found.result)]
    rows = frame.groupBy("f0").agg(*columns).select("f0", *results).collect()
    return {row[0]: tuple(row[1:]) for row in rows}


@pytest.mark.parametrize("source,mergeable", RECOGNISED, ids=range(len(RECOGNISED)))
def test_recognised_aggregates_give_what_the_class_gives(spark, source, mergeable):
    found = B.aggregate_function(_class(source), SHAPE)
    assert isinstance(found, B.Aggregates), found
    assert found.mergeable == mergeable
    for seed in range(2):
        records = _records(seed)
        assert _spark(spark, found, records) == _python(source, records, sessions=False)
        if mergeable:
            assert _python(source, records, sessions=True) == _python(source, records, sessions=False)


def test_unmergeable_initial_value_differs_on_merge():
    """Why ``mergeable`` is False for a count from 7: a merged session counts 7 twice."""
    source = RECOGNISED[5][0]
    records = [("a", 1, 1), ("a", 2, 2)]
    assert _python(source, records, sessions=True) != _python(source, records, sessions=False)


REFUSED = [
    _agg("0.0", "acc + value[1]", "acc"),  # a float sum depends on the order
    _agg("0", "acc * value[1]", "acc"),  # not a sum
    _agg("0, 0", "(acc[0] + value[1], acc[0] + 1)", "acc"),  # field 1 reads field 0
    _agg("0, 0", "(acc[0] + value[1], acc[1] + 1)", "acc[0] / acc[1]"),  # Python's int / int past 2**53
    _agg("0", "acc + len(value[0])", "acc") .replace("return acc + len", "return acc + self.w + len"),  # reads self
    _agg("0", "max(acc, value[0])", "acc"),  # a string max from an int
    _agg("0, 0", "n + 1, total + n", "acc", unpack="n, total"),  # reads another field
    _agg("[0]", "acc + [value[1]]", "acc"),
]


@pytest.mark.parametrize("source", REFUSED, ids=range(len(REFUSED)))
def test_refused(source):
    assert isinstance(B.aggregate_function(_class(source), SHAPE), str)


def test_nullable_fields_are_refused():
    """Python's ``acc + None`` raises where Spark's sum skips the NULL."""
    shape = PC.Shape.tuple(PC.Field("f0", "string"), PC.Field("f1", "int", nullable=True))
    assert isinstance(B.aggregate_function(_class(_agg("0", "acc + value[1]", "acc")), shape), str)


STAMP = '''class Stamp:
    def process(self, key, context, elements):
        for n, total, top in elements:
            yield "%s,%d,%d,%d,%d" % (key, context.window().start, n, total, top)
'''


def test_process_after_aggregates(spark):
    """``aggregate(FareStats(), window_function=Stamp())`` per (key, window): Columns of the key,
    the window start and the aggregates, named as the loop unpacks them; same lines as running
    both classes in Python per window."""
    from pyspark.sql import functions as F

    source = RECOGNISED[2][0]
    found = B.aggregate_function(_class(source), SHAPE)
    output = PC.Shape.value(PC.Field("value", "string"))
    then = B.then_process(_class(STAMP), PC.Field("f0", "string"), found, output)
    assert isinstance(then, B.Aggregates), then
    assert then.columns[0] == "F.count('*').alias('n')" and not then.tuple
    rng = random.Random(3)
    records = [(rng.choice("xyz"), rng.randint(-99, 99), rng.randint(0, 30_000)) for _ in range(60)]
    spark.conf.set("spark.sql.session.timeZone", "UTC")
    frame = spark.createDataFrame(records, SCHEMA).withColumn("ts", F.timestamp_millis("f2"))
    plan = W.WindowPlan("tumbling", 10_000, 10_000)
    code = W.window_aggregate("frame", "f0", plan, W._declared_result(then, output))
    got = sorted(r[0] for r in eval(code, {"F": F, "frame": frame}).collect())
    scope: dict = {}
    exec(source + "\n" + STAMP, scope)
    want = []
    for key, start in sorted({(r[0], r[2] // 10_000 * 10_000) for r in records}):
        acc = scope["Agg"]().create_accumulator()
        for r in records:
            if (r[0], r[2] // 10_000 * 10_000) == (key, start):
                acc = scope["Agg"]().add(r, acc)

        class Context:
            def window(self, start=start):
                return type("W", (), {"start": start, "end": start + 10_000})()

        want.extend(scope["Stamp"]().process(key, Context(), [scope["Agg"]().get_result(acc)]))
    assert got == sorted(want)


@pytest.mark.parametrize("body", [
    "        for n, total, top in elements:\n            yield self.prefix + key\n",  # reads self
    "        for n, total in elements:\n            yield key\n",  # unpacks into 2 of 3
    "        for r in elements:\n            yield str(r)\n",  # the tuple as a value
    "        out = []\n        for r in elements:\n            out.append(key)\n        return out\n",
    "        for n, total, top in elements:\n            yield context.current_watermark()\n",
])
def test_process_refused(body):
    found = B.aggregate_function(_class(RECOGNISED[2][0]), SHAPE)
    cls = _class("class P:\n    def process(self, key, context, elements):\n" + body)
    assert isinstance(B.then_process(cls, PC.Field("f0", "string"), found, PC.Shape.value(PC.Field("value", "string"))), str)


def test_rebound_max_is_not_pythons():
    module = cst.parse_module("def max(a, b):\n    return a\n")
    assert B.rebound_builtins(module) == {"max"}
    source = RECOGNISED[2][0]
    assert isinstance(B.aggregate_function(_class(source), SHAPE, shadowed=B.rebound_builtins(module)), str)
    assert B.rebound_builtins(cst.parse_module("from x import y\nz = 1\n")) == frozenset()
