"""KeyedProcessFunction classes as Spark StatefulProcessors (``rules/pyflink/_stateful.py``).

The class of a fixture program is translated, run by ``groupBy(key).transformWithState(...)``
over a batch DataFrame of the program's records on the test session, and its results compared
(as a multiset, in Flink's print format) with what the program printed on Flink 2.3
(``expected_stdout.txt``, recorded by ``tests/flink_reference.py``). The classes the translation
refuses keep the shim's ``keyed_process``: each refusal is checked with its reason.
"""

from __future__ import annotations

import ast
import contextlib
import io
from collections import Counter
from pathlib import Path

import libcst as cst
import pytest

from flink2spark.rules.pyflink import _stateful as S
from flink2spark.rules.pyflink._common import record_shape
from flink2spark.transpiler import pyflink_model
from flink2spark.transpiler.infer import Resolver
from flink2spark.transpiler.visitors import nodes

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "pyflink"


def _keyword(module: cst.Module, name: str) -> cst.BaseExpression:
    found = [a.value for c in nodes(module, cst.Call) for a in c.args if a.keyword is not None and a.keyword.value == name]
    assert len(found) == 1, name
    return found[0]


def _translate(source: str, name: str, time: S.Time = S.Time()):
    module = cst.parse_module(source)
    resolver = Resolver(module, pyflink_model.MODEL)
    cls = next(c for c in resolver.class_defs if c.name.value == name)
    record = record_shape(resolver, _keyword(module, "type_info"))
    output = record_shape(resolver, _keyword(module, "output_type"))
    return module, record, output, S.translate(resolver, cls, record, output, time)


def _constant(source: str, name: str):
    """The literal list ``name`` of the program (``Row(a=1, b=2)`` elements as tuples)."""
    for stmt in ast.parse(source).body:
        if isinstance(stmt, ast.Assign) and [t.id for t in stmt.targets if isinstance(t, ast.Name)] == [name]:
            return [
                tuple(ast.literal_eval(k.value) for k in e.keywords) if isinstance(e, ast.Call) else ast.literal_eval(e)
                for e in stmt.value.elts  # type: ignore[attr-defined]
            ]
    raise AssertionError(name)


def _literals(source: str) -> dict:
    """The module's constants the class may read (``GAP_MS = 10_000``)."""
    found = {}
    for stmt in ast.parse(source).body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            try:
                found[stmt.targets[0].id] = ast.literal_eval(stmt.value)
            except ValueError:
                pass
    return found


def _flink_print(row, kind: str) -> str:
    """A result as Flink's print sink shows it: a Tuple as Java's ``(a,1)``, a value as ``str``."""
    if kind == "tuple":
        return "(" + ",".join(str(v) for v in row) + ")"
    if kind == "row":
        return "+I[" + ",".join(str(v) for v in row) + "]"
    return str(row[0])


# fixture, class, records constant, key column (the key_by selector's field), the records' time
CASES = [
    ("keyed_state_order_totals", "Totals", "ORDERS", "f0", S.Time()),
    ("keyed_state_word_repeats", "Repeats", "WORDS", "value", S.Time()),
    ("keyed_state_sensor_highest", "Highest", "READINGS", "sensor", S.Time()),
    ("keyed_list_state_baskets", "Basket", "PURCHASES", "f0", S.Time()),
    # a ValueState of a Tuple: value() gives the tuple back (printed inside the results)
    ("keyed_tuple_state_price_range", "PriceRange", "TRADES", "f0", S.Time()),
    # ctx.timestamp() the field f2, a Tuple state, Rows returned by a helper whose results are only yielded
    ("keyed_process_session_timeout", "Sessionize", "CLICKS", "f0", S.Time("f2")),
    # BATCH: ctx.timestamp() is the assigner's field f2, a key's rows sorted by it, the watermark MIN/MAX
    ("batch_keyed_timers", "Track", "EVENTS", "f0", S.Time("f2", batch=True)),
    # MapState (contains/get/put/items in sorted(...)/remove), a ListState of tuples updated in on_timer
    ("keyed_process_list_map_state", "Digest", "PURCHASES", "f0", S.Time()),
    # ReducingState, AggregatingState of a tuple accumulator, ListState.update(), a TTL (ProcessingTime)
    ("keyed_reducing_aggregating_state", "Stats", "READINGS", "f0", S.Time()),
    # MapState get of a missing key, is_empty, clear, keys/values; ListState update([]), add_all([]), add_all([...])
    ("keyed_map_state_inventory", "Stock", "EVENTS", "f0", S.Time()),
]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_processor_gives_flink_records(case, spark):
    from pyspark.sql import Row
    from pyspark.sql.streaming.stateful_processor import StatefulProcessor

    fixture, name, records, key, time = case
    source = (FIXTURES / fixture / "input.py").read_text()
    module, record, output, processor = _translate(source, name, time)
    assert isinstance(processor, S.Processor), processor
    namespace = {"__name__": "f2s_translated", "StatefulProcessor": StatefulProcessor, "Row": Row, **_literals(source)}
    for function in processor.function_classes:  # a state's ReduceFunction/AggregateFunction, its PyFlink base gone
        plain = function.with_changes(bases=[], lpar=cst.MaybeSentinel.DEFAULT, rpar=cst.MaybeSentinel.DEFAULT)
        exec(compile(module.code_for_node(plain), fixture, "exec"), namespace)  # noqa: S102 - our own fixture
    exec(compile(module.code_for_node(processor.cls), fixture, "exec"), namespace)  # noqa: S102 - our own fixture
    data = _constant(source, records)
    rows = [tuple(r) for r in data] if record.kind != "value" else [(r,) for r in data]
    frame = spark.createDataFrame(rows, S.output_schema(record))
    results = frame.groupBy(key).transformWithState(namespace[name](), processor.output_schema, "Update", processor.time_mode)
    got = Counter(_flink_print(r, output.kind) for r in results.collect())
    want = Counter((FIXTURES / fixture / "expected_stdout.txt").read_text().splitlines())
    assert got == want, f"missing: {sorted((want - got).elements())}; extra: {sorted((got - want).elements())}"


def test_translated_class_reads_as_the_users():
    source = (FIXTURES / "keyed_state_order_totals" / "input.py").read_text()
    module, _, _, processor = _translate(source, "Totals")
    code = module.code_for_node(processor.cls)
    assert code.lstrip().startswith("class Totals(StatefulProcessor):\n    def init(self, handle):\n        self.handle = handle\n")
    assert 'self.total = handle.getValueState("total", "value bigint")' in code
    assert "    def handleInputRows(self, key, rows, timerValues):\n        for order in rows:\n" in code
    assert "            self.handle.registerTimer(1000)\n" in code
    assert "    def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):\n        timestamp = expiredTimerInfo.getExpiryTimeInMs()\n" in code
    assert 'yield Row(f0=key[0], f1=label, f2=self.state_value(self.total))' in code
    assert "    @staticmethod\n    def state_value(state):\n" in code and code.count("def state_value") == 1
    assert (processor.output_schema, processor.time_mode, processor.timers) == ("f0 string, f1 string, f2 bigint", "ProcessingTime", True)


_HEAD = """
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction
from pyflink.common import Time
from pyflink.datastream.functions import ReduceFunction
from pyflink.datastream.state import ListStateDescriptor, MapStateDescriptor, ReducingStateDescriptor, StateTtlConfig, ValueStateDescriptor

class Sum(ReduceFunction):
    def reduce(self, a, b):
        return a + b

class F(KeyedProcessFunction):
"""
_TAIL = """
env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([("a", 1)], type_info=Types.TUPLE([Types.STRING(), Types.INT()])).key_by(lambda r: r[0]).process(
    F(), output_type={out})
"""
_OPEN = "    def open(self, runtime_context):\n        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))\n"

# (class body, output type, what the reason names): the class keeps the shim's keyed_process
REFUSED = [
    (_OPEN + "    def process_element(self, v, ctx):\n        yield str(ctx.timer_service().current_watermark())\n", "Types.STRING()",
     "current_watermark() in STREAMING mode"),
    (_OPEN + "    def process_element(self, v, ctx):\n        yield str(ctx.timestamp())\n", "Types.STRING()", "whose timestamp is not one of their fields"),
    (_OPEN + "    def process_element(self, v, ctx):\n        yield str(ctx.time_domain())\n", "Types.STRING()", "context 'ctx'"),
    (_OPEN + "    def process_element(self, v, ctx):\n        ctx.timer_service().register_event_time_timer(5)\n        yield 'x'\n"
     "    def on_timer(self, t, ctx):\n        yield str(ctx.timestamp())\n", "Types.STRING()", "ctx.timestamp() in on_timer()"),
    (_OPEN + "    def process_element(self, v, ctx):\n        ctx.timer_service().register_processing_time_timer(5)\n"
     "        ctx.timer_service().register_event_time_timer(5)\n        yield 'x'\n", "Types.STRING()", "event-time and processing-time timers"),
    (_OPEN + "    def process_element(self, v, ctx):\n        ctx.timer_service().register_processing_time_timer(5)\n        yield 'x'\n"
     "    def on_timer(self, t, ctx):\n        ctx.timer_service().register_processing_time_timer(t + 5)\n        yield 'y'\n",
     "Types.STRING()", "on_timer() registers a timer"),
    (_OPEN + "    def process_element(self, v, ctx):\n        ctx.timer_service().register_event_time_timer(5)\n        yield 'x'\n"
     "    def on_timer(self, t, ctx):\n        ctx.timer_service().register_event_time_timer(t + 5)\n        yield 'y'\n",
     "Types.STRING()", "on_timer() registers a timer"),
    ("    def open(self, runtime_context):\n        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.PICKLED_BYTE_ARRAY()))\n"
     "    def process_element(self, v, ctx):\n        yield 'x'\n", "Types.STRING()", "not a basic one"),
    ("    def open(self, runtime_context):\n        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.TUPLE([Types.INT(), Types.LIST(Types.INT())])))\n"
     "    def process_element(self, v, ctx):\n        yield 'x'\n", "Types.STRING()", "nor a Value/List/AggregatingState of a TUPLE"),
    (_OPEN + "    def process_element(self, v, ctx):\n        yield str(v)\n", "Types.STRING()", "record 'v'"),
    # the record itself is yielded as its Row only when the output type has its fields (here LONG, not INT)
    (_OPEN + "    def process_element(self, v, ctx):\n        yield v\n", "Types.TUPLE([Types.STRING(), Types.LONG()])", "record 'v'"),
    (_OPEN + "    def process_element(self, v, ctx):\n        t = (v[0], 1)\n        yield t\n",
     "Types.TUPLE([Types.STRING(), Types.INT()])", "a tuple of 2 values"),
    (_OPEN + "    def emit(self, x):\n        return Row(x, 1)\n    def process_element(self, v, ctx):\n        r = self.emit(v[0])\n        yield r\n",
     "Types.ROW_NAMED(['a', 'b'], [Types.STRING(), Types.INT()])", "something else than a Row(...)"),
    (_OPEN + "    def emit(self, x):\n        return (x, 1)\n    def process_element(self, v, ctx):\n        yield self.emit(v[0])\n",
     "Types.ROW_NAMED(['a', 'b'], [Types.STRING(), Types.INT()])", "something else than a Row(...)"),
    (_OPEN + "    def process_element(self, v, ctx):\n        yield Row(b=1, a=v[0])\n",
     "Types.ROW_NAMED(['a', 'b'], [Types.STRING(), Types.INT()])", "in its order"),
    (_OPEN + "    def process_element(self, v, ctx):\n        self.helper(self.n)\n        yield 'x'\n", "Types.STRING()", "self.n"),
    (_OPEN + "    def process_element(self, v, ctx):\n        self.last = v[0]\n        yield 'x'\n", "Types.STRING()", "instance"),
    (_OPEN + "    def process_element(self, v, ctx):\n        return [v[0]]\n", "Types.STRING()", "returns a value"),
    (_OPEN + "    def process_element(self, v, ctx):\n        for c in v[0]:\n            if c == ' ':\n                return\n"
     "        yield v[0]\n", "Types.STRING()", "inside a loop"),
    (_OPEN + "    def process_element(self, v, ctx):\n        yield str(Types.INT())\n", "Types.STRING()", "pyflink.common.Types"),
    ("    def open(self, runtime_context):\n        d = ValueStateDescriptor('n', Types.INT())\n"
     "        self.n = runtime_context.get_state(d)\n        self.d = d\n"
     "    def process_element(self, v, ctx):\n        yield 'x'\n", "Types.STRING()", "descriptor 'd'"),
    ("    def open(self, runtime_context):\n        self.m = runtime_context.get_map_state(MapStateDescriptor('m', Types.STRING(), Types.TUPLE([Types.INT()])))\n"
     "    def process_element(self, v, ctx):\n        yield 'x'\n", "Types.STRING()", "MapState whose keys or values"),
    ("    def open(self, runtime_context):\n        self.m = runtime_context.get_map_state(MapStateDescriptor('m', Types.STRING(), Types.INT()))\n"
     "    def process_element(self, v, ctx):\n        self.m.put_all({v[0]: v[1]})\n        yield 'x'\n", "Types.STRING()", "self.m.put_all() on a MapState"),
    ("    def open(self, runtime_context):\n        d = ValueStateDescriptor('n', Types.INT())\n"
     "        d.enable_time_to_live(StateTtlConfig.new_builder(Time.hours(1)).set_update_type(StateTtlConfig.UpdateType.OnReadAndWrite).build())\n"
     "        self.n = runtime_context.get_state(d)\n"
     "    def process_element(self, v, ctx):\n        yield 'x'\n", "Types.STRING()", "other settings than its time"),
    ("    def open(self, runtime_context):\n        d = ValueStateDescriptor('n', Types.INT())\n"
     "        self.n = runtime_context.get_state(d)\n        d.enable_time_to_live(StateTtlConfig.new_builder(Time.hours(1)).build())\n"
     "    def process_element(self, v, ctx):\n        yield 'x'\n", "Types.STRING()", "after get_state()"),
    ("    def open(self, runtime_context):\n        self.r = runtime_context.get_reducing_state(ReducingStateDescriptor('r', lambda a, b: a + b, Types.INT()))\n"
     "    def process_element(self, v, ctx):\n        self.r.add(v[1])\n        yield 'x'\n", "Types.STRING()", "whose function is not C()"),
    ("    def open(self, runtime_context):\n        self.r = runtime_context.get_reducing_state(ReducingStateDescriptor('r', Sum(), Types.TUPLE([Types.INT()])))\n"
     "    def process_element(self, v, ctx):\n        yield 'x'\n", "Types.STRING()", "nor a Value/List/AggregatingState"),
    (_OPEN + "    def process_element(self, v, ctx):\n        rows = [v[0]]\n        yield rows[0]\n", "Types.STRING()", "'rows'"),
    (_OPEN + "    def process_element(self, v, ctx):\n        key = v[0]\n        yield key + str(ctx.get_current_key())\n", "Types.STRING()", "'key'"),
    ("    def open(self, runtime_context):\n        self.t = Types.INT()\n"
     "    def process_element(self, v, ctx):\n        yield 'x'\n", "Types.STRING()", "Types"),
]


@pytest.mark.parametrize("body, out, reason", REFUSED, ids=[r[2] for r in REFUSED])
def test_refused_with_reason(body, out, reason):
    _, _, _, processor = _translate(_HEAD + body + _TAIL.format(out=out), "F")
    assert isinstance(processor, str) and reason in processor, processor


def test_rows_returned_by_a_helper():
    """A helper whose results are only yielded, returning Row(...): its returns are the output's Rows."""
    source = _HEAD + (
        "    def emit(self, name, n):\n        return Row(name, n * 2)\n"
        "    def process_element(self, v, ctx):\n        yield self.emit(v[0], v[1])\n"
    ) + _TAIL.format(out="Types.ROW_NAMED(['name', 'twice'], [Types.STRING(), Types.INT()])")
    module, _, _, processor = _translate(source, "F")
    code = module.code_for_node(processor.cls)
    assert "    def emit(self, name, n):\n        return Row(name=name, twice=n * 2)\n" in code
    assert "            yield self.emit(v[0], v[1])\n" in code


def test_row_named_output_and_value_records():
    source = _HEAD + (
        "    def process_element(self, v, ctx):\n        if v[1] > 0:\n            yield Row(v[0], v[1] * 2)\n"
    ) + _TAIL.format(out="Types.ROW_NAMED(['name', 'twice'], [Types.STRING(), Types.INT()])")
    module, _, _, processor = _translate(source, "F")
    code = module.code_for_node(processor.cls)
    assert "        for v in rows:\n            if v[1] > 0:\n                yield Row(name=v[0], twice=v[1] * 2)\n" in code
    assert "    def init(self, handle):\n        pass\n" in code
    assert (processor.output_schema, processor.time_mode) == ("name string, twice int", "None")


def test_spark_batch_timers_as_the_translation_assumes(spark):
    """What the translation relies on, on a batch DataFrame: EventTime timers never fire (so
    Flink's event-time timers become ProcessingTime ones, NOTE F2S267), ProcessingTime timers
    due by the clock fire after the key's rows with its final state, in time order, and a timer
    registered while timers fire does not (so such classes keep the shim)."""
    from pyspark.sql import Row
    from pyspark.sql.streaming.stateful_processor import StatefulProcessor

    class Probe(StatefulProcessor):
        def init(self, handle):
            self.handle = handle
            self.n = handle.getValueState("n", "value int")

        def handleInputRows(self, key, rows, timerValues):
            for row in rows:
                self.n.update((((self.n.get() or (None,))[0] or 0) + 1,))
                self.handle.registerTimer(row.t)
            yield Row(k=key[0], what="rows", v=self.n.get()[0])

        def handleExpiredTimer(self, key, timerValues, expiredTimerInfo):
            t = expiredTimerInfo.getExpiryTimeInMs()
            if t < 100:
                self.handle.registerTimer(t + 1000)  # never fires in the batch
            yield Row(k=key[0], what="timer %d" % t, v=self.n.get()[0])

    frame = spark.createDataFrame([("a", 30), ("b", 7), ("a", 10), ("a", 2000)], "k string, t bigint")
    schema = "k string, what string, v int"
    fired = frame.groupBy("k").transformWithState(Probe(), schema, "Update", "ProcessingTime").collect()
    assert sorted((r.k, r.what, r.v) for r in fired) == [
        ("a", "rows", 3), ("a", "timer 10", 3), ("a", "timer 2000", 3), ("a", "timer 30", 3),
        ("b", "rows", 1), ("b", "timer 7", 1),
    ]
    assert [r.what for r in fired if r.k == "a"][1:] == ["timer 10", "timer 30", "timer 2000"]  # after the rows, by time
    none = frame.groupBy("k").transformWithState(Probe(), schema, "Update", "EventTime").collect()
    assert sorted((r.k, r.what) for r in none) == [("a", "rows"), ("b", "rows")]


_PROGRAM = """
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction
from pyflink.datastream.state import ValueStateDescriptor


class Count(KeyedProcessFunction):
    def open(self, runtime_context):
        self.n = runtime_context.get_state(ValueStateDescriptor("n", Types.INT()))

    def process_element(self, value, ctx):
        self.n.update((self.n.value() or 0) + 1)
        yield value[0], self.n.value()


env = StreamExecutionEnvironment.get_execution_environment()
pairs = env.from_collection([("a", 1), ("b", 2)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
{use}
"""
_OUT = "output_type=Types.TUPLE([Types.STRING(), Types.INT()])"

# programs whose keyed process stays the shim's keyed_process (and why)
SHIM = [
    (f"pairs.key_by(lambda p: (p[0], p[1])).process(Count(), {_OUT}).print()", "a key of two fields: get_current_key() is a tuple"),
    (f"pairs.key_by(lambda p: p[0]).process(Count(), {_OUT}).print()\npairs.key_by(lambda p: p[1]).process(Count(), {_OUT}).print()",
     "the class used twice"),
    ("pairs.key_by(lambda p: p[0]).process(Count()).print()", "no output_type"),
    (f"pairs.key_by(lambda p: p[0]).process(Count(), {_OUT}).map(lambda t: [t]).key_by(lambda s: s[0]).print()",
     "a consumer with no native form (key_by of pickled lists)"),
]


@pytest.mark.parametrize("use, why", SHIM, ids=[s[1] for s in SHIM])
def test_kept_on_the_shim(use, why):
    from flink2spark.transpiler.engine import convert_source

    out = convert_source(_PROGRAM.format(use=use), "job.py").output
    assert "f2s.keyed_process(" in out and "transformWithState" not in out and "StatefulProcessor" not in out, why


def test_converted_on_a_frame():
    from flink2spark.transpiler.engine import convert_source

    out = convert_source(_PROGRAM.format(use=f"pairs.key_by(lambda p: p[0]).process(Count(), {_OUT}).print()"), "job.py").output
    assert 'pairs.groupBy("f0").transformWithState(Count(), "f0 string, f1 int", "Update", "None")' in out.replace("\n", "").replace("    ", "")
    assert "f2s" not in out and "class Count(StatefulProcessor):" in out


def test_value_reads_stay_inline_where_the_class_uses_the_helper_name():
    """``value()`` reads go through an added ``state_value`` method, unless the class names
    ``state_value`` itself (its own method or variable): then they stay inline expressions."""
    from flink2spark.transpiler.engine import convert_source

    use = f"pairs.key_by(lambda p: p[0]).process(Count(), {_OUT}).print()"
    plain = convert_source(_PROGRAM.format(use=use), "job.py").output
    assert "self.state_value(self." in plain and "or (None,))[0]" not in plain
    named = _PROGRAM.format(use=use).replace("class Count(KeyedProcessFunction):", "class Count(KeyedProcessFunction):\n    state_value = 0\n")
    out = convert_source(named, "job.py").output
    assert "class Count(StatefulProcessor):" in out and "self.state_value(" not in out
    assert ".get() or (None,))[0]" in out and "def state_value" not in out


_STAMPED = """
from pyflink.common import Types, WatermarkStrategy
from pyflink.common.watermark_strategy import TimestampAssigner
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction
from pyflink.datastream.state import ValueStateDescriptor


class At(TimestampAssigner):
    def extract_timestamp(self, value, record_timestamp):
        return {stamp}


class Count(KeyedProcessFunction):
    def open(self, runtime_context):
        self.n = runtime_context.get_state(ValueStateDescriptor("n", Types.INT()))

    def process_element(self, value, ctx):
        self.n.update((self.n.value() or 0) + 1)
        yield value[0], ctx.timestamp()


env = StreamExecutionEnvironment.get_execution_environment()
{mode}
pairs = env.from_collection([("a", 1), ("b", 2)], type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))
pairs = pairs.assign_timestamps_and_watermarks(WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At()))
pairs.key_by(lambda p: p[0]).process(Count(), output_type=Types.TUPLE([Types.STRING(), Types.LONG()])).print()
"""


def _stamped(stamp: str, mode: str = "") -> str:
    from flink2spark.transpiler.engine import convert_source

    return convert_source(_STAMPED.format(stamp=stamp, mode=mode), "job.py").output


def test_timestamp_is_the_assigners_field():
    """STREAMING: ctx.timestamp() reads the field the assigner returns; the rows are not sorted
    (arrival order, NOTE F2S266 as without a timestamp) and the frame gets no timestamp column."""
    out = _stamped("value[1]")
    assert "        for value in rows:\n            self.n.update(" in out
    assert "yield Row(f0=value[0], f1=value[1])" in out
    assert "withColumn" not in out and "f2s" not in out
    assert "pairs = pairs\n" not in out  # s = s.assign_timestamps_and_watermarks(...) is dropped, not left as s = s
    assert "F2S266 Count: handleInputRows gets each key's rows at once, in no set order" in out


def test_batch_sorts_by_the_timestamp_field():
    out = _stamped("value[1]", "env.set_runtime_mode(RuntimeExecutionMode.BATCH)")
    assert "        for value in sorted(rows, key=lambda row: row.f1):\n" in out
    assert "F2S266 Count: handleInputRows sorts each key's rows by their timestamp (f1), as Flink's BATCH mode does" in out


@pytest.mark.parametrize("stamp", ["value[1] * 1000", "value[1] + 5"])
def test_computed_timestamp_keeps_the_shim(stamp):
    """A timestamp the assigner computes is no field the translation can read: the shim."""
    out = _stamped(stamp, "env.set_runtime_mode(RuntimeExecutionMode.BATCH)")
    assert "f2s.keyed_process(" in out and "StatefulProcessor" not in out


def test_timestamp_of_a_single_value_record():
    """Records that are one value: ctx.timestamp() is the value itself, refused when the body
    assigns the record's name (it would no longer be the timestamp)."""
    tail = ('\nenv = StreamExecutionEnvironment.get_execution_environment()\n'
            'env.from_collection([7], type_info=Types.LONG()).key_by(lambda r: r).process(F(), output_type=Types.LONG())\n')
    head = _HEAD + _OPEN + "    def process_element(self, v, ctx):\n"
    module, _, _, processor = _translate(head + "        yield ctx.timestamp() + 1\n" + tail, "F", S.Time("value"))
    assert "        for (v,) in rows:\n            yield Row(value=v + 1)\n" in module.code_for_node(processor.cls)
    _, _, _, refused = _translate(head + "        v = v * 2\n        yield ctx.timestamp()\n" + tail, "F", S.Time("value"))
    assert isinstance(refused, str) and "assigns its record 'v'" in refused, refused


def test_a_local_key_where_the_key_is_not_read():
    """``key`` as a local variable of a method that does not read the key hides a parameter nothing reads."""
    source = _HEAD + "    def process_element(self, v, ctx):\n        key = v[0]\n        yield key\n" + _TAIL.format(out="Types.STRING()")
    module, _, _, processor = _translate(source, "F")
    assert "        for v in rows:\n            key = v[0]\n            yield Row(value=key)\n" in module.code_for_node(processor.cls)


def _state_class(body: str, out: str = "Types.STRING()"):
    source = _HEAD + "    def open(self, runtime_context):\n" + body + _TAIL.format(out=out)
    module, _, _, processor = _translate(source, "F")
    assert isinstance(processor, S.Processor), processor
    return module.code_for_node(processor.cls), processor


_MAP = "        self.m = runtime_context.get_map_state(MapStateDescriptor('m', Types.STRING(), Types.INT()))\n"


@pytest.mark.parametrize(
    "use, free",
    [
        ("yield ','.join(sorted(self.m.keys()))", True),
        ("yield str(max(n for n in self.m.values()))", True),
        ("yield str(sorted((k, n) for k, n in self.m.items() if n > 1))", True),
        ("yield str(any(n > 1 for n in self.m.values()))", True),
        ("yield ','.join(self.m.keys())", False),  # the join follows the iteration order
        ("yield str(sorted(self.m.items(), key=lambda kv: kv[1]))", False),  # ties keep the iteration order
        ("yield str(sum(self.m.values()))", False),  # a sum of floats depends on the order
        ("for k in self.m.keys():\n            yield k", False),
    ],
)
def test_map_iteration_order_decided_from_the_code(use, free):
    """NOTE F2S262 (``map_order``) unless every keys()/values()/items() is read where its order changes nothing."""
    code, processor = _state_class(_MAP + f"    def process_element(self, v, ctx):\n        {use}\n")
    assert processor.map_order is not free, code


def test_state_forms_read_as_spark_code():
    code, processor = _state_class(
        _MAP
        + "        self.l = runtime_context.get_list_state(ListStateDescriptor('l', Types.TUPLE([Types.STRING(), Types.INT()])))\n"
        + "        self.r = runtime_context.get_reducing_state(ReducingStateDescriptor('r', Sum(), Types.INT()))\n"
        + "        d = ValueStateDescriptor('n', Types.INT())\n"
        + "        d.enable_time_to_live(StateTtlConfig.new_builder(Time.minutes(2)).cleanup_full_snapshot().build())\n"
        + "        self.n = runtime_context.get_state(d)\n"
        + "    def process_element(self, v, ctx):\n"
        + "        self.m.put(v[0], (self.m.get(v[0]) or 0) + v[1])\n"
        + "        self.l.add_all([(v[0], v[1])])\n        self.l.add_all([])\n        self.l.update(list(self.l.get())[-2:])\n"
        + "        self.r.add(v[1])\n"
        + "        if self.m.is_empty():\n            self.l.add_all([])\n"
        + "        yield '%s %s' % (self.r.get(), self.m.contains('a'))\n"
    )
    assert """self.m = handle.getMapState('m', "key string", "value int")""" in code
    assert """self.l = handle.getListState('l', "f0 string, f1 int")""" in code
    assert """self.r = handle.getValueState('r', "value int")""" in code
    assert """self.n = handle.getValueState('n', "value int", ttlDurationMs=120_000)""" in code
    assert "self.m.updateValue((v[0],), (((self.m.getValue((v[0],)) or (None,))[0] or 0) + v[1],))" in code
    assert "self.l.appendList([(v[0], v[1])])\n            self.put_list(self.l, [tuple(v) for v in list([tuple(v) for v in self.l.get()])[-2:]])" in code
    assert "self.reduce_into(self.r, Sum(), v[1])" in code
    assert "if not self.m.exists():\n                pass\n" in code
    assert "(self.state_value(self.r), self.m.containsKey(('a',)))" in code
    assert (processor.time_mode, processor.ttl, [c.name.value for c in processor.function_classes]) == ("ProcessingTime", {"n": 120_000}, ["Sum"])


def test_spark_state_methods_as_the_translation_assumes(spark):
    """What the translation relies on, on Spark 4.3: MapState getValue of a missing key is None, exists()
    is False once every key is removed (Flink's is_empty()), iterator() gives (key, value) tuples;
    ListState put([]) and appendList([]) fail (so update([])/add_all([]) become clear()/nothing), get() of
    an empty list is empty; a TTL needs timeMode ProcessingTime."""
    from pyspark.sql import Row
    from pyspark.sql.streaming.stateful_processor import StatefulProcessor

    class Probe(StatefulProcessor):
        def init(self, handle):
            self.m = handle.getMapState("m", "key string", "value int")
            self.l = handle.getListState("l", "value int", ttlDurationMs=60_000)

        def handleInputRows(self, key, rows, timerValues):
            seen = [str(self.m.getValue(("x",))), str(self.m.exists()), str(list(self.l.get()))]
            for row in rows:
                self.m.updateValue((row.v,), (len(row.v),))
            seen.append(str(sorted((k, v) for (k,), (v,) in self.m.iterator())))
            for (k,) in list(self.m.keys()):
                self.m.removeKey((k,))
            seen.append(str(self.m.exists()))
            yield Row(k=key[0], seen=" | ".join(seen))

    class Empty(StatefulProcessor):
        def __init__(self, method):
            self.method = method

        def init(self, handle):
            self.l = handle.getListState("l", "value int")

        def handleInputRows(self, key, rows, timerValues):
            getattr(self.l, self.method)([])
            yield Row(k=key[0], seen="accepted")

    frame = spark.createDataFrame([("a", "xy"), ("a", "abc")], "k string, v string")
    schema = "k string, seen string"
    got = frame.groupBy("k").transformWithState(Probe(), schema, "Update", "ProcessingTime").collect()
    assert [r.seen for r in got] == ["None | False | [] | [('abc', 3), ('xy', 2)] | False"]
    for method in ("put", "appendList"):  # EMPTY_LIST_VALUE: the job fails
        with pytest.raises(Exception, match="PythonException|EMPTY_LIST_VALUE|Broken pipe"):
            frame.groupBy("k").transformWithState(Empty(method), schema, "Update", "None").collect()


# -- keyed map/flat_map of a function class with keyed state (FlatMapFunction/MapFunction) ------------

_FUNCTION_HEAD = """
from pyflink.common import Row, Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import FlatMapFunction, MapFunction
from pyflink.datastream.state import ValueStateDescriptor

class F({base}):
    def open(self, runtime_context):
        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))
"""
_FUNCTION_TAIL = """
env = StreamExecutionEnvironment.get_execution_environment()
env.from_collection([("a", 1)], type_info=Types.TUPLE([Types.STRING(), Types.INT()])).key_by(lambda r: r[0]).{method}(
    F(), output_type={out})
"""
_PAIR = "Types.TUPLE([Types.STRING(), Types.INT()])"

# (base, operator, method's body, output type, what the reason names)
FUNCTIONS_REFUSED = [
    ("MapFunction", "map", "    def map(self, v):\n        if v[1] > 0:\n            return v[0], 1\n", _PAIR, "does not end with a return"),
    ("MapFunction", "map", "    def map(self, v):\n        for c in v[0]:\n            return v[0], 1\n        return v[0], 2\n", _PAIR,
     "from inside a loop"),
    ("MapFunction", "map", "    def map(self, v, extra):\n        return v\n", _PAIR, "does not take (self, value)"),
    ("FlatMapFunction", "flat_map", "    def flat_map(self, v):\n        yield v\n", "Types.TUPLE([Types.STRING(), Types.LONG()])", "record 'v'"),
    ("FlatMapFunction", "flat_map", "    def flat_map(self, v):\n        yield v\n    def on_timer(self, t, ctx):\n        yield v\n", _PAIR,
     "on_timer()"),
    ("MapFunction", "flat_map", "    def flat_map(self, v):\n        yield v\n", _PAIR, "does not derive from FlatMapFunction"),
]


@pytest.mark.parametrize("base, method, body, out, reason", FUNCTIONS_REFUSED, ids=[r[4] for r in FUNCTIONS_REFUSED])
def test_function_class_refused_with_reason(base, method, body, out, reason):
    source = _FUNCTION_HEAD.format(base=base) + body + _FUNCTION_TAIL.format(method=method, out=out)
    module = cst.parse_module(source)
    resolver = Resolver(module, pyflink_model.MODEL)
    cls = next(c for c in resolver.class_defs if c.name.value == "F")
    record = record_shape(resolver, _keyword(module, "type_info"))
    output = record_shape(resolver, _keyword(module, "output_type"))
    found = S.translate(resolver, cls, record, output, S.Time(), method)
    assert isinstance(found, str) and reason in found, found


def test_map_returns_become_yields():
    """A map's returns are its one result per row: the last is yielded, the others yielded then ``continue``;
    a flat_map yielding its record hands on the record's Row."""
    body = "    def map(self, v):\n        n = (self.n.value() or 0) + 1\n        self.n.update(n)\n        if n > 2:\n            return v[0], 0\n        return v[0], n\n"
    source = _FUNCTION_HEAD.format(base="MapFunction") + body + _FUNCTION_TAIL.format(method="map", out=_PAIR)
    module = cst.parse_module(source)
    resolver = Resolver(module, pyflink_model.MODEL)
    cls = next(c for c in resolver.class_defs if c.name.value == "F")
    record = record_shape(resolver, _keyword(module, "type_info"))
    found = S.translate(resolver, cls, record, record, S.Time(), "map")
    code = module.code_for_node(found.cls)
    assert "class F(StatefulProcessor):" in code
    assert "            if n > 2:\n                yield Row(f0=v[0], f1=0)\n                continue\n" in code.replace("; continue", "\n                continue")
    assert code.rstrip().count("yield Row(f0=v[0], f1=n)") == 1 and "return" not in code.split("def state_value")[0]


_KEYED_FUNCTIONS = """
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import FlatMapFunction
from pyflink.datastream.state import ValueStateDescriptor


class First(FlatMapFunction):
    def open(self, runtime_context):
        self.seen = runtime_context.get_state(ValueStateDescriptor("seen", Types.BOOLEAN()))

    def flat_map(self, value):
        if self.seen.value() is None:
            self.seen.update(True)
            yield value


env = StreamExecutionEnvironment.get_execution_environment()
{parallelism}
pairs = env.from_collection([("a", 1), ("b", 2), ("a", 3)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
{use}
"""
_PAIRS_OUT = "output_type=Types.TUPLE([Types.STRING(), Types.INT()])"


def test_keyed_flat_map_with_state_in_source_order():
    from flink2spark.transpiler.engine import convert_source

    program = _KEYED_FUNCTIONS.format(parallelism="env.set_parallelism(1)", use=f"pairs.key_by(lambda p: p[0]).flat_map(First(), {_PAIRS_OUT}).print()")
    result = convert_source(program, "job.py")
    flat = result.output.replace("\n", "").replace("    ", "")
    assert 'pairs.coalesce(1).groupBy("f0").transformWithState(First(), "f0 string, f1 int", "Update", "None")' in flat
    assert "class First(StatefulProcessor):" in result.output and "f2s" not in result.output
    assert [m.code for m in result.markers if m.severity == "note"] == ["F2S291"]


@pytest.mark.parametrize(
    "parallelism, use",
    [
        ("", f"pairs.key_by(lambda p: p[0]).flat_map(First(), {_PAIRS_OUT}).print()"),  # default parallelism: Flink's order is not the source's
        ("env.set_parallelism(1)", f"pairs.key_by(lambda p: p[1]).sum(1).key_by(lambda p: p[0]).flat_map(First(), {_PAIRS_OUT}).print()"),
        ("env.set_parallelism(1)", "pairs.key_by(lambda p: p[0]).flat_map(First()).print()"),  # no output_type
    ],
    ids=["default parallelism", "after a keyed operator", "no output_type"],
)
def test_keyed_flat_map_with_state_kept_on_the_shim(parallelism, use):
    from flink2spark.transpiler.engine import convert_source

    out = convert_source(_KEYED_FUNCTIONS.format(parallelism=parallelism, use=use), "job.py").output
    assert "f2s.keyed_process(" in out and "transformWithState" not in out and "StatefulProcessor" not in out


# --------------------------------------------------------------------------------------------
# a KeyedCoProcessFunction over two frames: connect(b).key_by(k1, k2).process(F()) as one
# transformWithState over both inputs' rows, tagged by input (_stateful.two_input_plan)

_TWO_INPUTS = """
from pyflink.common import Row, Types
from pyflink.datastream import OutputTag, RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedCoProcessFunction
from pyflink.datastream.state import ListStateDescriptor, ValueStateDescriptor

SEEN = OutputTag("seen", Types.STRING())


class Join(KeyedCoProcessFunction):
    def open(self, runtime_context):
        self.names = runtime_context.get_list_state(ListStateDescriptor("names", Types.STRING()))
        self.total = runtime_context.get_state(ValueStateDescriptor("total", Types.INT()))

{methods}

env = StreamExecutionEnvironment.get_execution_environment()
env.set_parallelism(2)
{mode}
names = env.from_collection(["ann", "bob", "ann"], type_info=Types.STRING())
scores = env.from_collection(
    [Row(who="ann", points=3), Row(who="ann", points=4), Row(who="cid", points=1)],
    type_info=Types.ROW_NAMED(["who", "points"], [Types.STRING(), Types.INT()]),
)
joined = names.connect(scores).key_by(lambda n: n, {second_key}).process(
    Join(), output_type=Types.ROW_NAMED(["name", "count", "total"], [Types.STRING(), Types.INT(), Types.INT()])
)
joined.print()
{side}
env.execute()
"""
_JOIN = """    def process_element1(self, name, ctx):
        self.names.add(name)
        ctx.timer_service().register_event_time_timer(100)

    def process_element2(self, score, ctx):
        self.total.update((self.total.value() or 0) + score.points)
        yield SEEN, "%s scored %d" % (score.who, score.points)

    def on_timer(self, timestamp, ctx):
        yield Row(ctx.get_current_key(), len(list(self.names.get())), self.total.value() or 0)
"""


def _two_input_program(methods=_JOIN, mode="", second_key="lambda s: s.who", side="joined.get_side_output(SEEN).print()"):
    return _TWO_INPUTS.format(methods=methods, mode=mode, second_key=second_key, side=side)


def _two_input_plan(source: str):
    from flink2spark.rules.pyflink._streams import graph

    module = cst.parse_module(source)
    resolver = Resolver(module, pyflink_model.MODEL)
    call = next(c for c in nodes(module, cst.Call) if isinstance(c.func, cst.Attribute) and c.func.attr.value == "process")
    return S.two_input_plan(graph(resolver), call)


def test_two_inputs_run_on_spark_as_flink_would(spark):
    """Both inputs' rows of a key reach one handleInputRows (a value record, a Row record), the
    ListState and ValueState are the key's for both, the timer fires after the key's rows and the
    side output is the tagged results' own. Flink's records, worked out by hand: the timer at 100
    fires at the end of the bounded input for the keys that got a name (ann, bob), each reporting
    its names and its points; every score goes to the side output."""
    from flink2spark.transpiler.engine import convert_source
    from table_output import flink_stream_records, spark_stream_records

    from flink_reference import normalize_flink_print

    out = convert_source(_two_input_program(), "job.py").output
    assert "f2s." not in out and "class Join(StatefulProcessor):" in out
    assert "                name = row.in1\n" in out and "                score = Row(**row.in2)\n" in out
    assert '.groupBy("key")' in out and "allowMissingColumns=True" in out and "joined_outputs = (" in out
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        exec(compile(out, "job.py", "exec"), {"__name__": "job"})  # noqa: S102 - our own program
    got = spark_stream_records(stdout.getvalue(), normalize_flink_print)
    want = flink_stream_records(["+I[ann,2,7]", "+I[bob,1,0]", "ann scored 3", "ann scored 4", "cid scored 1"])
    assert got == want, f"missing: {sorted((want - got).elements())}; extra: {sorted((got - want).elements())}"


def test_two_inputs_class_reads_as_the_users():
    found = _two_input_plan(_two_input_program())
    assert isinstance(found, S.TwoInputPlan), found
    code = cst.Module([]).code_for_node(found.processor.cls)
    assert "    def handleInputRows(self, key, rows, timerValues):\n        for row in rows:\n            if row.input == 1:\n" in code
    assert """                yield Row(output='seen', main=None, seen=Row(value="%s scored %d" % (score.who, score.points)))\n""" in code
    assert "        yield Row(output=None, main=Row(name=key[0], count=len(list([v for (v,) in self.names.get()])), total=" in code
    assert found.processor.output_schema == "output string, main struct<name: string, count: int, total: int>, `seen` struct<value: string>"
    assert (found.keys, found.columns, found.outputs_name) == (('F.col("value")', 'F.col("who")'), ('F.col("value")', 'F.struct("*")'), "joined_outputs")
    assert found.ordered and found.processor.time_mode == "ProcessingTime"


def test_tuple_state_read_in_a_comparison_keeps_its_meaning():
    """``self.s.value() is None`` of a Tuple state: ``(tuple(...) or None) is None`` (without the
    parentheses ``or`` would take ``None is None``)."""
    source = (FIXTURES / "keyed_co_process_orders" / "input.py").read_text()
    found = _two_input_plan(source)
    code = cst.Module([]).code_for_node(found.processor.cls)
    assert "if (tuple(self.order.get() or ()) or None) is None:" in code
    assert "order_id, customer, amount, _ = tuple(self.order.get() or ()) or None\n" in code


TWO_INPUTS_REFUSED = [
    (dict(mode="env.set_runtime_mode(RuntimeExecutionMode.BATCH)"), "BATCH mode"),
    (dict(second_key="lambda s: s.points"), "keys of two types"),
    (dict(side=""), "SEEN, which no get_side_output() of a tag of a basic type reads"),
    (dict(methods=_JOIN.replace("register_event_time_timer(100)", "register_event_time_timer(ctx.timestamp())")),
     "whose timestamp is not one of their fields"),
    (dict(methods=_JOIN.replace("self.names.add(name)", "row = name\n        self.names.add(row)")), "'row'"),
    (dict(methods=_JOIN.replace("    def process_element2", "    def other")), "process_element1 / process_element2"),
]


@pytest.mark.parametrize("parts, reason", TWO_INPUTS_REFUSED, ids=[r[1] for r in TWO_INPUTS_REFUSED])
def test_two_inputs_refused_with_reason(parts, reason):
    found = _two_input_plan(_two_input_program(**parts))
    assert isinstance(found, str) and reason in found, found


_PROCESSING = """
from pyflink.common import Types
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.functions import KeyedProcessFunction
from pyflink.datastream.state import ValueStateDescriptor


class Remind(KeyedProcessFunction):
    def open(self, runtime_context):
        self.n = runtime_context.get_state(ValueStateDescriptor("n", Types.INT()))

    def process_element(self, value, ctx):
        self.n.update((self.n.value() or 0) + 1)
        ctx.timer_service().register_processing_time_timer(ctx.timer_service().current_processing_time() + value[1])

    def on_timer(self, timestamp, ctx):
        yield ctx.get_current_key(), self.n.value()


env = StreamExecutionEnvironment.get_execution_environment()
{mode}
pairs = env.from_collection([("a", -5), ("a", 3_600_000), ("b", 3_600_000)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))
pairs.key_by(lambda p: p[0]).process(Remind(), output_type=Types.TUPLE([Types.STRING(), Types.INT()])).print()
"""


def test_processing_time_timers_on_spark(spark):
    """Processing-time timers: ``current_processing_time()`` is the batch's clock; a timer already
    due by it fires after the key's rows (with the key's final state), one an hour ahead does not:
    Flink, on a bounded input that ends before the hour, fires none of those either (NOTE F2S232)."""
    from flink2spark.transpiler.engine import convert_source

    out = convert_source(_PROCESSING.format(mode=""), "job.py").output
    assert "f2s" not in out and "timerValues.getCurrentProcessingTimeInMs() + value[1]" in out
    assert '"Update", "ProcessingTime"' in out.replace("\n", " ").replace("  ", "") and "F2S232 Remind:" in out and "F2S267" not in out
    stdout = io.StringIO()
    with contextlib.redirect_stdout(stdout):
        exec(compile(out, "job.py", "exec"), {"__name__": "job"})  # noqa: S102 - our own program
    shown = [line for line in stdout.getvalue().splitlines() if line.startswith("|") and "f0" not in line]
    assert [line.replace(" ", "") for line in shown] == ["|a|2|"]


def test_processing_time_in_batch_mode_keeps_the_shim():
    from flink2spark.transpiler.engine import convert_source

    out = convert_source(_PROCESSING.format(mode="env.set_runtime_mode(RuntimeExecutionMode.BATCH)").replace(
        "import StreamExecutionEnvironment", "import RuntimeExecutionMode, StreamExecutionEnvironment"), "job.py").output
    assert "f2s.keyed_process(" in out and "transformWithState" not in out
