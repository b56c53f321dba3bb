"""``process(ProcessFunction)`` -> ``f2s.process(stream, fn)``;
``KeyedStream.process(KeyedProcessFunction)`` -> ``f2s.keyed_process(keyed, fn, mode=...)``.

Why a shim: Spark has no keyed process function over batch data (``transformWithState`` is a
Structured Streaming operator, for unbounded sources). The user's class keeps its code; its
PyFlink base class, state descriptors, ``OutputTag`` and ``TimeDomain`` become the shim's
classes of the same names (``f2s.KeyedProcessFunction``...), and the shim runs it as Flink does
on a bounded input (``runtime/process.py``):

* each Spark partition stands for a parallel instance: ``open(runtime_context)`` once, then
  ``process_element(value, ctx)`` on its elements in stream order (keyed: the elements are
  hash-partitioned by key, their stream positions taken before the shuffle), ``close()``;
* keyed state (``runtime_context.get_state/get_list_state/get_map_state/get_reducing_state/
  get_aggregating_state`` with their descriptors) is scoped to the current key;
* timers (``ctx.timer_service()``): in STREAMING mode the watermark is ``Long.MIN_VALUE`` while
  elements are processed and every event-time timer fires at the end of the input, in time
  order (timers registered from ``on_timer`` too), which is what Flink 2.3 does on a small
  bounded input (NOTE F2S231: its periodic watermark could fire them earlier on a long one);
  processing-time timers fire when due, those pending at the end do not fire (NOTE F2S232).
  In BATCH mode every timer of a key fires after the key's elements, as on Flink;
* results are what ``process_element``/``on_timer`` yield; ``yield tag, value`` with an
  ``OutputTag`` goes to a side output (``get_side_output``).

The runtime mode comes from the module's ``set_runtime_mode`` (a TODO when it cannot be told).
A lambda or def passed to ``process`` is not a process function: left with a TODO.
"""

import libcst as cst

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import SPARK_HEAD, program, runtime_mode, spark_program
from flink2spark.rules.pyflink._process import (
    decode_of,
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
    matches=["DataStream.process", "KeyedStream.process"],
    exact=False,
    summary="process(ProcessFunction) -> f2s.process(rdd, fn); KeyedStream.process -> f2s.keyed_process(keyed, fn, mode) (state, timers, side outputs)",
    codes=(M.PF_PROCESS, M.PF_INSTANCES, M.PF_RUNTIME_MODE, M.PF_EVENT_TIMERS, M.PF_PROCESSING_TIMERS, M.PF_STATE_TTL, M.PF_INPUT_ORDER, M.PF_STREAMING_PROCESS, M.PF_STREAMING_TIMERS, M.PF_MICRO_BATCH),
    examples=[
        Example(
            program(
                "\n\nclass Count(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))\n\n"
                "    def process_element(self, value, ctx):\n"
                "        n = (self.n.value() or 0) + 1\n"
                "        self.n.update(n)\n"
                "        yield ctx.get_current_key(), n\n\n\n"
                "counts = env.from_collection(['a', 'b', 'a']).key_by(lambda w: w).process(Count())\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import KeyedProcessFunction\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            spark_program(
                "\n\nclass Count(f2s.KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.n = runtime_context.get_state(\n"
                '            f2s.ValueStateDescriptor("n", f2s.Types.INT())\n'
                "        )\n\n"
                "    def process_element(self, value, ctx):\n"
                "        n = (self.n.value() or 0) + 1\n"
                "        self.n.update(n)\n"
                "        yield ctx.get_current_key(), n\n\n\n"
                "counts = f2s.keyed_process(\n"
                '    env.sparkContext.parallelize(["a", "b", "a"]).keyBy(lambda w: w), Count()\n'
                ")\n",
                shim=True,
            ),
        ),
        Example(  # an unbounded (Kafka) stream: transformWithState keeps the keyed state
            program(
                "\n\nclass Count(KeyedProcessFunction):\n"
                "    def open(self, runtime_context):\n"
                "        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))\n\n"
                "    def process_element(self, value, ctx):\n"
                "        self.n.update((self.n.value() or 0) + 1)\n"
                "        yield ctx.get_current_key(), self.n.value()\n\n\n"
                "source = KafkaSource.builder().set_bootstrap_servers('kafka:9092').set_topics('words')"
                ".set_value_only_deserializer(SimpleStringSchema()).build()\n"
                "words = env.from_source(source, WatermarkStrategy.no_watermarks(), 'words')\n"
                "counts = words.key_by(lambda w: w).process(Count())\n",
                imports="from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy\n"
                "from pyflink.datastream import KeyedProcessFunction\n"
                "from pyflink.datastream.connectors.kafka import KafkaSource\n"
                "from pyflink.datastream.state import ValueStateDescriptor\n",
            ),
            "from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\n"
            "from pyspark.sql import SparkSession, functions as F\n"
            + SPARK_HEAD
            + "\n\nclass Count(f2s.KeyedProcessFunction):\n"
            "    def open(self, runtime_context):\n"
            "        self.n = runtime_context.get_state(\n"
            '            f2s.ValueStateDescriptor("n", f2s.Types.INT())\n'
            "        )\n\n"
            "    def process_element(self, value, ctx):\n"
            "        self.n.update((self.n.value() or 0) + 1)\n"
            "        yield ctx.get_current_key(), self.n.value()\n\n\n"
            "# NOTE(flink2spark): F2S250 " + K.PACKAGE_NOTE + "\n"
            "words = f2s_stream.micro_batches(\n"
            '    env.readStream.format("kafka")\n'
            '    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("subscribe", "words")\n'
            '    .option("startingOffsets", "earliest")\n'
            "    .load()\n"
            '    .select(F.col("value").cast("string").alias("value")),\n'
            "    f2s.Types.STRING(),\n"
            ")\n"
            "# NOTE(flink2spark): F2S259 " + K.PROCESS_NOTE + "\n"
            "counts = f2s_stream.keyed_process(words.keyBy(lambda w: w), Count())\n",
        ),
        Example(
            program(
                "\n\nclass Parse(ProcessFunction):\n"
                "    def process_element(self, line, ctx):\n"
                "        if line.isdigit():\n"
                "            yield int(line)\n"
                "        else:\n"
                "            yield BAD, line\n\n\n"
                "BAD = OutputTag('bad', Types.STRING())\n"
                "numbers = env.from_collection(['1', 'x']).process(Parse(), Types.INT())\n"
                "bad = numbers.get_side_output(BAD)\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import OutputTag, ProcessFunction\n",
            ),
            spark_program(
                "\n\nclass Parse(f2s.ProcessFunction):\n"
                "    def process_element(self, line, ctx):\n"
                "        if line.isdigit():\n"
                "            yield int(line)\n"
                "        else:\n"
                "            yield BAD, line\n\n\n"
                'BAD = f2s.OutputTag("bad", f2s.Types.STRING())\n'
                'numbers = f2s.process(env.sparkContext.parallelize(["1", "x"]), Parse())\n'
                "bad = f2s.side_output(numbers, BAD)\n",
                shim=True,
            ),
        ),
    ],
    noop=[
        "import multiprocessing\n\np = multiprocessing.Process(target=print)\np.process = lambda f: f\np.process(len)\n",
    ],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    keyed = ctx.site.receiver_type == P.KEYED
    kinds = ("KeyedProcessFunction", "ProcessFunction") if keyed else ("ProcessFunction",)
    known = function_class(ctx, seg, kinds, "KeyedStream.process()" if keyed else "process()")
    if known is None:
        return ctx.todo_left()
    cls, _, instance = known
    receiver = seg.original.func.value  # type: ignore[attr-defined]
    if keyed and facts(ctx.resolver, receiver).micro_batches:
        if runtime_mode(ctx) == "streaming" and K.streaming_process_class(ctx.resolver, seg.original) is not None:
            if K.rolling_key_by(ctx.resolver, receiver) is None:
                return ctx.keep("a process function on an unbounded keyed stream: the key_by() it reads has the TODO")
            ctx.note(M.PF_STREAMING_PROCESS, K.PROCESS_NOTE)
            args = [cst.Arg(ctx.site.receiver), cst.Arg(instance)]
            timers = K.streaming_timers(ctx.resolver, seg.original)
            if timers is not None:
                ctx.note(M.PF_STREAMING_TIMERS, K.TIMERS_NOTE)
                args.append(cst.Arg(cst.SimpleString(f'"{timers}"'), keyword=cst.Name("timers")))
            return cst.Call(func=K.shim(ctx, "keyed_process"), args=args)
    if not keyed and facts(ctx.resolver, receiver).micro_batches and K.micro_batch_process_class(ctx.resolver, seg.original) is not None:
        ctx.note(M.PF_MICRO_BATCH, K.MICRO_BATCH_PROCESS_NOTE)
        return shim_call(ctx, "process", [ctx.site.receiver, instance], {"decode": decode_of(ctx)})
    if unbounded_todo(ctx, receiver, "process()"):
        return ctx.todo_left()
    stamped = facts(ctx.resolver, seg.original.func.value).timestamped  # type: ignore[attr-defined]
    if facts(ctx.resolver, seg.original.func.value).from_union:  # type: ignore[attr-defined]
        input_order_note(ctx, cls, "a union of streams")
    if not keyed:
        one = instance_note(ctx, cls)
        keywords = {"timestamped": flag(stamped), "decode": decode_of(ctx), "parallelism": one}
        return shim_call(ctx, "process", [ctx.site.receiver, instance], keywords)
    mode = mode_or_todo(ctx, "KeyedStream.process()")
    if mode is None:
        return ctx.todo_left()
    timer_notes(ctx, cls, mode)
    keywords = {"mode": "batch" if mode == "batch" else None, "timestamped": flag(stamped), "decode": decode_of(ctx)}
    return shim_call(ctx, "keyed_process", [ctx.site.receiver, instance], keywords)

