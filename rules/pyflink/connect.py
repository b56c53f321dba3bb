"""``a.connect(b)`` -> ``f2s.connect(a, b)``; ``ConnectedStreams.map/flat_map/process(fn)`` ->
``f2s.co_process(connected, fn, "map"|"flat_map"|"process")``; ``ConnectedStreams.key_by(k1,
k2)`` keeps its form on the shim's ``ConnectedStreams``.

Two frames (``_side_outputs.co_plan``: a ``CoMapFunction``/``CoFlatMapFunction`` whose
``map1``/``map2`` share no instance data) -> ``f2s_process.connected(a, b, fn, "map", kinds,
schema)``: each input through its own method (a Python UDTF, ``runtime/frame_process.py``), the
results unioned; ``connect`` itself is kept for the ``map`` to read. Two frames read by
``key_by(k1, k2).process(KeyedCoProcessFunction)`` (``_stateful.two_input_plan``): both inputs'
rows in one frame (``input``, ``key``, ``in1``/``in2``), ``groupBy("key").transformWithState``
of the class rewritten as a StatefulProcessor whose ``handleInputRows`` runs each row through
``process_element1``/``process_element2`` (side outputs: tagged result rows, as a process
function's over a frame).

Why a shim: Spark has no two-input operator sharing one function instance (and keyed state)
between its inputs. The user's ``CoMapFunction``/``CoFlatMapFunction``/``CoProcessFunction``/
``KeyedCoProcessFunction``/``(Keyed)BroadcastProcessFunction`` class keeps its code (its PyFlink
base becomes the shim's class of the same name) and ``f2s.co_process`` runs it:

* not keyed: each Spark partition of the first input, then of the second, through one
  function instance per partition (``map1``/``flat_map1``/``process_element1`` for the
  first input). Flink interleaves the two inputs in no set order; this is one of its orders;
* keyed (``KeyedStream.connect(KeyedStream)`` or ``key_by(k1, k2)``): both inputs
  partitioned by key, each key's state and timers shared by both (timers as in
  ``KeyedStream.process``);
* broadcast (``connect(stream.broadcast(descriptor))``): every parallel instance processes all
  broadcast elements, then its data elements (NOTE F2S234: Flink gives no order between the
  two inputs; the result is Flink's when the function does not depend on that order).
"""

import libcst as cst

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.rules.pyflink._process import (
    decode_of,
    env_parallelism,
    flag,
    function_class,
    input_order_note,
    instance_note,
    mode_or_todo,
    shim_call,
    timer_notes,
    unbounded_todo,
)
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=[
        "DataStream.connect",
        "ConnectedStreams.map",
        "ConnectedStreams.flat_map",
        "ConnectedStreams.process",
        "ConnectedStreams.key_by",
        "BroadcastConnectedStream.process",
    ],
    exact=False,
    summary="connect(b) -> f2s.connect(a, b); ConnectedStreams.map/flat_map/process(fn) -> f2s.co_process(connected, fn, method); of two DataFrames, map/flat_map(CoMap/CoFlatMapFunction) -> f2s_process.connected(a, b, fn, ...): each input through its method, unioned; key_by(k1, k2).process(KeyedCoProcessFunction) -> both inputs' rows tagged by input, groupBy(key).transformWithState(StatefulProcessor)",
    codes=(M.PF_PROCESS, M.PF_INSTANCES, M.PF_RUNTIME_MODE, M.PF_EVENT_TIMERS, M.PF_PROCESSING_TIMERS, M.PF_STATE_TTL, M.PF_BROADCAST_ORDER, M.PF_FUNCTION, M.PF_INPUT_ORDER,
           M.PF_TWS_ORDER, M.PF_TWS_TIMERS, M.PF_TWS_MAP_ORDER, M.PF_TWS_TTL),
    examples=[
        Example(  # two typed streams planned as DataFrames: each input through its method, unioned (runtime/frame_process.py)
            program(
                "\n\nclass Both(CoMapFunction):\n"
                "    def map1(self, word):\n"
                "        return word.upper()\n\n"
                "    def map2(self, number):\n"
                "        return str(number)\n\n\n"
                "words = env.from_collection(['a'], type_info=Types.STRING())\n"
                "numbers = env.from_collection([1], type_info=Types.INT())\n"
                "words.connect(numbers).map(Both(), output_type=Types.STRING()).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import CoMapFunction\n",
            ),
            "from flink2spark.runtime import frame_process as f2s_process\n"
            "from flink2spark.runtime.frame_process import CoMapFunction\n"
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n\n\n"
            "class Both(CoMapFunction):\n"
            "    def map1(self, word):\n"
            "        return word.upper()\n\n"
            "    def map2(self, number):\n"
            "        return str(number)\n\n\n"
            'words = env.createDataFrame(["a"], "string")\n'
            'numbers = env.createDataFrame([1], "int")\n'
            "f2s_process.connected(\n"
            '    words, numbers, Both(), "map", ("value", "value"), "value STRING"\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # connect(b).key_by(k1, k2).process(KeyedCoProcessFunction) of two frames: one transformWithState over both inputs' rows
            program(
                "\n\nclass Pair(KeyedCoProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.seen = runtime_context.get_state(ValueStateDescriptor('seen', Types.STRING()))\n\n"
                "    def process_element1(self, left, ctx):\n"
                "        self.seen.update(left)\n\n"
                "    def process_element2(self, right, ctx):\n"
                "        if self.seen.value() is not None:\n"
                "            yield right + '=' + self.seen.value()\n\n\n"
                "lefts = env.from_collection(['a'], type_info=Types.STRING())\n"
                "rights = env.from_collection(['b'], type_info=Types.STRING())\n"
                "lefts.connect(rights).key_by(lambda l: l, lambda r: r).process(Pair(), output_type=Types.STRING()).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import KeyedCoProcessFunction\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            "from pyspark.sql import Row, SparkSession, functions as F\n"
            "from pyspark.sql.streaming import StatefulProcessor\n\n"
            "env = SparkSession.builder.getOrCreate()\n\n\n"
            "class Pair(StatefulProcessor):\n"
            "    def init(self, handle):\n"
            '        self.seen = handle.getValueState("seen", "value string")\n\n'
            "    def handleInputRows(self, key, rows, timerValues):\n"
            "        for row in rows:\n"
            "            if row.input == 1:\n"
            "                left = row.in1\n"
            "                self.seen.update((left,))\n"
            "            else:\n"
            "                right = row.in2\n"
            "                if self.state_value(self.seen) is not None:\n"
            '                    yield Row(value=right + "=" + self.state_value(self.seen))\n\n'
            "    @staticmethod\n"
            "    def state_value(state):\n"
            '        """The value of a ValueState (Spark keeps it in a 1-tuple); None when it has none."""\n'
            "        found = state.get()\n"
            "        return None if found is None else found[0]\n\n\n"
            'lefts = env.createDataFrame(["a"], "string")\n'
            'rights = env.createDataFrame(["b"], "string")\n'
            "# NOTE(flink2spark): F2S266 Pair: handleInputRows gets each key's rows of both inputs at once, in no set order"
            " (Flink: one by one, each input's in arrival order, the two interleaved as they come); results that depend on"
            " that order may differ\n"
            "lefts.select(\n"
            '    F.lit(1).alias("input"), F.col("value").alias("key"), F.col("value").alias("in1")\n'
            ").unionByName(\n"
            "    rights.select(\n"
            '        F.lit(2).alias("input"),\n'
            '        F.col("value").alias("key"),\n'
            '        F.col("value").alias("in2"),\n'
            "    ),\n"
            "    allowMissingColumns=True,\n"
            ').groupBy("key").transformWithState(Pair(), "value string", "Update", "None").show(\n'
            "    2147483647, truncate=False\n"
            ")\n",
        ),
        Example(
            program(
                "\n\nclass Both(CoMapFunction):\n"
                "    def map1(self, value):\n"
                "        return value\n\n"
                "    def map2(self, value):\n"
                "        return str(value)\n\n\n"
                "words = env.from_collection(['a'])\n"
                "numbers = env.from_collection([1])\n"
                "both = words.connect(numbers).map(Both())\n",
                imports="from pyflink.datastream import CoMapFunction\n",
            ),
            spark_program(
                "\n\nclass Both(f2s.CoMapFunction):\n"
                "    def map1(self, value):\n"
                "        return value\n\n"
                "    def map2(self, value):\n"
                "        return str(value)\n\n\n"
                'words = env.sparkContext.parallelize(["a"])\n'
                "numbers = env.sparkContext.parallelize([1])\n"
                'both = f2s.co_process(f2s.connect(words, numbers), Both(), "map")\n',
                shim=True,
                rdd='the source `.from_collection()` at line 15 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=["import sqlite3\n\ndb = sqlite3.connect(':memory:')\ndb.execute('select 1')\n"],
)

_BASES = {
    "map": ("CoMapFunction",),
    "flat_map": ("CoFlatMapFunction",),
    "process": ("CoProcessFunction", "KeyedCoProcessFunction", "BroadcastProcessFunction", "KeyedBroadcastProcessFunction"),
}


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if seg.method in ("connect", "key_by") and facts(ctx.resolver, seg.original).frame is not None:
        return ctx.keep("connected frames: the map/flat_map/process that reads them converts both")
    if seg.method in ("map", "flat_map") and facts(ctx.resolver, seg.original).frame is not None:
        return _connected_frames(ctx, seg)
    if seg.method == "process" and facts(ctx.resolver, seg.original).frame is not None:
        return _two_input_processor(ctx, seg)
    if seg.method == "connect":
        return _connect(ctx, seg)
    if seg.method == "key_by":
        return _key_by(ctx, seg)
    known = function_class(ctx, seg, _BASES[seg.method], f"{seg.method}() on connected streams")
    if known is None:
        return ctx.todo_left()
    cls, kind, instance = known
    if unbounded_todo(ctx, seg.original.func.value, f"{seg.method}() on connected streams"):  # type: ignore[attr-defined]
        return ctx.todo_left()
    mode = mode_or_todo(ctx, f"{seg.method}() on connected streams")
    if mode is None:
        return ctx.todo_left()
    timer_notes(ctx, cls, mode)
    if kind not in ("BroadcastProcessFunction", "KeyedBroadcastProcessFunction"):
        input_order_note(ctx, cls, "two connected streams")
    if kind in ("BroadcastProcessFunction", "KeyedBroadcastProcessFunction"):
        ctx.note(
            M.PF_BROADCAST_ORDER,
            f"{cls.name.value}: each parallel instance processes every broadcast element before its data elements; Flink"
            " gives no order between the two inputs: same results when the function does not depend on that order",
        )
    one = None
    if kind not in ("KeyedCoProcessFunction", "KeyedBroadcastProcessFunction"):
        one = instance_note(ctx, cls)
    keywords = {"mode": "batch" if mode == "batch" else None, "decode": decode_of(ctx), "parallelism": one}
    if kind in ("BroadcastProcessFunction", "KeyedBroadcastProcessFunction"):
        known, parallelism = env_parallelism(ctx)  # every instance processes every broadcast element
        if not known:
            return ctx.todo(M.PF_PROCESS, f"{cls.name.value}: the parallelism (how many instances get the broadcast elements) is set from an expression; pass parallelism=n to f2s.co_process")
        keywords["parallelism"] = None if parallelism is None else cst.Integer(str(parallelism))
    return shim_call(ctx, "co_process", [ctx.site.receiver, instance, cst.SimpleString(f'"{seg.method}"')], keywords)


def _connect(ctx, seg):
    other = ctx.arg(seg, 0, "ds")
    if other is None:
        return ctx.todo(M.PF_PROCESS, "connect(): no stream argument found")
    other_type = ctx.resolver.type_of(other[0])
    keyed = ctx.site.receiver_type == P.KEYED
    if other_type not in (P.BROADCAST,) and not P.is_stream(other_type):
        return ctx.todo(M.PF_PROCESS, "connect(): the other stream's type could not be followed; convert it by hand")
    if other_type != P.BROADCAST and keyed != (other_type == P.KEYED):
        return ctx.todo(M.PF_PROCESS, "connect() of a keyed with a non-keyed stream; convert it by hand")
    stamped = facts(ctx.resolver, seg.original.func.value).timestamped  # type: ignore[attr-defined]
    if facts(ctx.resolver, other[0]).timestamped != stamped:
        return ctx.todo(M.PF_PROCESS, "connect() of a stream whose records carry timestamps with one whose records do not; convert it by hand")
    return shim_call(ctx, "connect", [ctx.site.receiver, other[1]], {"keyed": flag(keyed), "timestamped": flag(stamped)})


def _key_by(ctx, seg):
    first = ctx.function(seg, "key", index=0)
    if first is None:
        return ctx.todo_left()
    second = ctx.function(seg, "key", index=1)
    if second is None:
        return ctx.todo_left()
    return ctx.expr("{c}.key_by({a}, {b})", c=ctx.site.receiver, a=first, b=second)




def _connected_frames(ctx, seg):
    """``a.connect(b).map/flat_map(F(), output_type=T)`` of two frames (``_side_outputs.co_plan``)
    -> ``f2s_process.connected(a, b, F(), "map", (kinds), "<T's schema>")``."""
    from flink2spark.rules.pyflink._side_outputs import co_plan, schema
    from flink2spark.rules.pyflink._streams import graph
    from flink2spark.transpiler import imports as I

    found = co_plan(graph(ctx.resolver), seg.original)
    connect = ctx.site.receiver  # the connect() call, kept
    first, second = connect.func.value, connect.args[0].value
    if found.one:
        first, second = (ctx.expr("{df}.coalesce(1)", df=x) for x in (first, second))
    I.need(ctx.conv.codemod, "flink2spark.runtime", "frame_process", "f2s_process")
    return ctx.expr(
        "f2s_process.connected({a}, {b}, {fn}, %r, %r, %r)" % (seg.method, found.kinds, schema(found.output)),
        a=first, b=second, fn=ctx.arg(seg, 0, "func")[1],
    )


def _two_input_processor(ctx, seg):
    """``a.connect(b).key_by(k1, k2).process(F(), output_type=T)`` of two frames
    (``_stateful.two_input_plan``) -> both inputs' rows in one frame, ``input`` (1 or 2), ``key``
    and ``in1``/``in2`` (the record: a struct of its fields, or its one column), then
    ``groupBy("key").transformWithState(F(), ...)``, ``F`` rewritten as a StatefulProcessor whose
    ``handleInputRows`` runs each row through its input's body."""
    from flink2spark.rules.pyflink._stateful import TWO_INPUTS, two_input_plan
    from flink2spark.rules.pyflink._streams import graph
    from flink2spark.rules.pyflink.process import processor_notes, replace_processor, split_outputs
    from flink2spark.transpiler import imports as I

    found = two_input_plan(graph(ctx.resolver), seg.original)
    p = found.processor
    refused = replace_processor(ctx, found.cls, p)
    if refused is not None:
        return refused
    name = found.cls.name.value
    if found.ordered:
        ctx.note(
            M.PF_TWS_ORDER,
            f"{name}: handleInputRows gets each key's rows of both inputs at once, in no set order (Flink: one by one,"
            " each input's in arrival order, the two interleaved as they come); results that depend on that order may differ",
        )
    processor_notes(ctx, name, p)
    I.need(ctx.conv.codemod, "pyspark.sql", "functions", "F")
    column, first_record, second_record = TWO_INPUTS
    key_by = ctx.site.receiver  # the connect() and key_by() calls, kept
    connect = key_by.func.value
    sides = []
    for i, (frame, key, record, field) in enumerate(zip(("{a}", "{b}"), found.keys, found.columns, (first_record, second_record)), 1):
        sides.append('%s.select(F.lit(%d).alias("%s"), %s.alias("key"), %s.alias("%s"))' % (frame, i, column, key, record, field))
    frame = ctx.expr(
        '%s.unionByName(%s, allowMissingColumns=True).groupBy("key").transformWithState({fn}, "%s", "Update", "%s")'
        % (sides[0], sides[1], p.output_schema, p.time_mode),
        a=connect.func.value, b=connect.args[0].value, fn=ctx.arg(seg, 0, "func")[1],
    )
    if found.outputs_name is None:
        return frame
    return split_outputs(ctx, seg, found.outputs_name, frame)
