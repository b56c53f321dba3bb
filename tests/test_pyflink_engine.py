"""The PyFlink rule set beyond single rule examples: runtime mode, types, markers, leftovers."""

from __future__ import annotations

import re

import libcst as cst

from flink2spark.transpiler.engine import convert_source

HEAD = (
    "from pyflink.common import Types\n"
    "from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment\n\n"
    "env = StreamExecutionEnvironment.get_execution_environment()\n"
)


def convert(body: str, head: str = HEAD):
    result = convert_source(head + body, "job.py")
    assert result.output is not None, result.markers
    cst.parse_module(result.output)
    assert convert_source(result.output, "job.py").output == result.output  # idempotent
    return result


def codes(result, severity="todo"):
    return [m.code for m in result.markers if m.severity == severity]


def test_runtime_mode_decides_rolling_or_final_reduce():
    body = "env.from_collection([1]).key_by(lambda x: x).reduce(lambda a, b: a + b).print()\n"
    assert "f2s.rolling_reduce(" in convert(body).output  # STREAMING is Flink's default
    for mode in ("BATCH", "AUTOMATIC"):
        out = convert(f"env.set_runtime_mode(RuntimeExecutionMode.{mode})\n" + body).output
        assert "f2s.final_reduce(" in out and "set_runtime_mode" not in out
    streaming = convert("env.set_runtime_mode(RuntimeExecutionMode.STREAMING)\n" + body)
    assert "f2s.rolling_reduce(" in streaming.output and streaming.status == "converted"


def test_runtime_mode_that_cannot_be_told_leaves_todos():
    result = convert("env.set_runtime_mode(MODE)\nenv.from_collection([1]).key_by(lambda x: x).sum(0).print()\n")
    assert codes(result) == ["F2S204", "F2S204"]
    assert "env.set_runtime_mode(MODE)" in result.output and ".sum(0)" in result.output
    two_modes = convert(
        "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
        "other = StreamExecutionEnvironment.get_execution_environment()\n"
        "other.set_runtime_mode(RuntimeExecutionMode.STREAMING)\n"
        "env.from_collection([1]).key_by(lambda x: x).max(0).print()\n"
    )
    assert codes(two_modes) == ["F2S204"]


def test_keyed_print_drops_its_identifier_as_pyflink_does():
    out = convert("env.from_collection([1]).key_by(lambda x: x).print('ignored')\n").output
    assert "for record in env.sparkContext.parallelize([1]).keyBy(lambda x: x).values().collect():\n    print(record)\n" in out


def test_print_of_a_stream_of_several_types_needs_no_type():
    # the helper's calls pass streams of two element types: print(record) prints either
    result = convert(
        "\n\ndef show(ds):\n    ds.print()\n\n\nshow(env.from_collection([(1,)], Types.TUPLE([Types.INT()])))\n"
        "show(env.from_collection(['a'], Types.STRING()))\n"
    )
    assert codes(result, "note") == ["F2S205"] and result.status == "converted"
    assert "    for record in ds.collect():\n        print(record)\n" in result.output


HELPER = "\n\ndef show(ds, label):\n    ds.print()\n\n\npairs = env.from_collection([('a', 1)], Types.TUPLE([Types.STRING(), Types.INT()]))\n"


def test_a_helper_prints_with_the_element_type_its_calls_agree_on():
    """Issue 13: a keyed stream handed to a helper prints its elements, typed as at the call.
    Called once, the helper's stream is a DataFrame (issue 14: the frame plan follows it into
    the def): its rows, keyed by a field, print as they are."""
    result = convert(HELPER + "show(pairs.key_by(lambda p: p[0]), 'keyed')\n")
    assert "    ds.show(2147483647, truncate=False)\n" in result.output and "show(pairs, \"keyed\")\n" in result.output
    assert codes(result) == [] and result.status == "converted"
    both = convert(HELPER + "show(pairs.key_by(lambda p: p[0]), 'by name')\nshow(pairs.key_by(lambda p: p[1]), 'by count')\n")
    assert "    for record in ds.values().collect():\n        print(record)\n" in both.output
    assert codes(both, "note") == ["F2S205"] and "here because the stream is passed to `show()` at line" in both.output


def test_a_helper_called_with_a_keyed_and_a_plain_stream_is_left_with_a_todo():
    """A keyed stream is a pair RDD, a plain one an RDD of elements: no one conversion of the
    helper fits both calls (before: printed as a DataStream, (key, value) pairs for the keyed call)."""
    result = convert(HELPER + "show(pairs.key_by(lambda p: p[0]), 'keyed')\nshow(pairs, 'plain')\n")
    assert codes(result) == ["F2S209"] and result.status == "partial"
    line = result.output.splitlines().index("    ds.print()")
    assert "(DataStream, KeyedStream)" in result.output.splitlines()[line - 1]


KAFKA_HELPER = """\
from pyflink.common import SimpleStringSchema, WatermarkStrategy
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource


def show(stream):
    stream.print()


env = StreamExecutionEnvironment.get_execution_environment()
source = (
    KafkaSource.builder().set_bootstrap_servers("localhost:9092").set_topics("words")
    .set_starting_offsets(KafkaOffsetsInitializer.earliest()).set_value_only_deserializer(SimpleStringSchema()).build()
)
show(env.from_source(source, WatermarkStrategy.no_watermarks(), "words").map(lambda w: w.upper()))
"""


def test_a_helper_given_an_unbounded_stream_prints_per_micro_batch():
    """A Kafka stream handed to a helper is followed into it, as a reassigned name is (before:
    printed by collect() on a micro-batch stream, which fails at run time, with no marker)."""
    # a map with no Column form (a list of words): the stream stays micro-batches of an RDD
    result = convert(KAFKA_HELPER.replace("lambda w: w.upper()", "lambda w: w.split()"), head="")
    assert "f2s_stream.foreach_batch(stream, print_batch)" in result.output
    assert "    def print_batch(batch):\n        for record in batch.collect():\n            print(record)\n" in result.output
    assert codes(result) == [] and "F2S253" in codes(result, "note")
    mixed = convert(KAFKA_HELPER + "show(env.from_collection(['a']))\n", head="")
    assert codes(mixed) == ["F2S209"] and "(DataStream, unbounded DataStream)" in mixed.output
    # a streaming DataFrame (every operator has a Structured Streaming form): the helper's print is the console sink
    frame = convert(KAFKA_HELPER, head="")
    assert codes(frame) == [] and 'stream.writeStream.format("console")' in frame.output and "foreach_batch" not in frame.output


def test_type_expression_is_not_copied_where_its_names_mean_something_else():
    make = "\n\ndef make():\n    t = Types.TUPLE([Types.INT()])\n    return env.from_collection([(1,)], t)\n\n\n"
    # an RDD (a filter with no Column form): execute_and_collect() would need make()'s local type ``t``
    result = convert(make + "rows = make().filter(lambda r: r[0] and r).execute_and_collect()\n")
    assert "F2S207" in codes(result, "note") and "rows = f2s.execute_and_collect(make().filter(lambda r: r[0] and r))\n" in result.output
    # a DataFrame (the frame plan follows what make() returns): print() needs no type
    frame = convert(make + "make().print()\n")
    assert codes(frame) == [] and "make().show(2147483647, truncate=False)\n" in frame.output


def test_unknown_and_unconverted_methods_say_pyflink():
    result = convert("env.from_collection([1]).frobnicate()\nenv.from_collection([1]).cache().print()\n")
    messages = [m.message for m in result.markers if m.severity == "todo"]
    assert messages[0] == "DataStream.frobnicate() is not part of Flink's PyFlink DataStream API"
    assert messages[1].startswith("DataStream.cache() has no conversion: ") and "persist()" in messages[1]
    assert all("DataSet" not in m for m in messages)


def test_any_builtin_callable_is_a_function():
    result = convert("env.from_collection(['a']).map(str.upper).filter(len).print()\n")
    assert result.status == "converted" and ".map(str.upper).filter(len)" in result.output


def test_unknown_function_object_is_left_with_a_todo():
    result = convert("env.from_collection(['a']).flat_map(Tokenizer()).print()\n", head="from mylib import Tokenizer\n" + HEAD)
    assert codes(result) == ["F2S201"] and ".flat_map(Tokenizer())" in result.output


DEDUP = (
    "\n\nclass Dedup(FlatMapFunction):\n"
    "    def open(self, runtime_context):\n"
    "        self.seen = runtime_context.get_state(ValueStateDescriptor('seen', Types.BOOLEAN()))\n\n"
    "    def flat_map(self, value):\n"
    "        yield value\n\n\n"
)
DEDUP_HEAD = "from pyflink.datastream.functions import FlatMapFunction\nfrom pyflink.datastream.state import ValueStateDescriptor\n" + HEAD


def test_function_class_with_keyed_state_runs_per_key_on_a_keyed_stream():
    result = convert(DEDUP + "env.from_collection([1]).key_by(lambda x: x).flat_map(Dedup()).print()\n", head=DEDUP_HEAD)
    assert result.status == "converted", result.markers
    assert "class Dedup:" in result.output and "f2s.ValueStateDescriptor(" in result.output
    assert 'Dedup(), method="flat_map"' in result.output


def test_function_class_with_keyed_state_on_a_stream_not_keyed_stays_with_todo():
    result = convert(DEDUP + "env.from_collection([1]).flat_map(Dedup()).print()\n", head=DEDUP_HEAD)
    todos = [m for m in result.markers if m.severity == "todo"]
    assert [m.code for m in todos] == ["F2S202"] and "not keyed" in todos[0].message
    assert ".flat_map(Dedup())" in result.output


def test_keyed_state_with_metrics_in_open_stays_as_it_is():
    result = convert(
        "\n\nclass Count(KeyedProcessFunction):\n"
        "    def open(self, ctx):\n"
        "        self.m = ctx.get_metrics_group()\n\n"
        "    def process_element(self, value, ctx):\n"
        "        yield value\n\n\n"
        "env.from_collection([1]).key_by(lambda x: x).process(Count()).print()\n",
        head="from pyflink.datastream import KeyedProcessFunction\n" + HEAD,
    )
    assert "F2S230" in codes(result) and ".process(Count())" in result.output


def test_source_used_twice_stays_with_todo():
    result = convert(
        "numbers = NumberSequenceSource(1, 3)\n"
        "env.from_source(numbers, WatermarkStrategy.no_watermarks(), 'a').print()\n"
        "env.from_source(numbers, WatermarkStrategy.no_watermarks(), 'b').print()\n",
        head="from pyflink.common import WatermarkStrategy\nfrom pyflink.datastream.connectors.number_seq import NumberSequenceSource\n"
        + HEAD,
    )
    assert "numbers = NumberSequenceSource(1, 3)" in result.output
    assert codes(result).count("F2S200") == 3


_WM_HEAD = (
    "from pyflink.common import Duration, WatermarkStrategy\n"
    "from pyflink.datastream.connectors.number_seq import NumberSequenceSource\n" + HEAD
)


def test_event_time_source_stays_with_todo():
    # a process function may read timestamps and timers fire on watermarks
    result = convert(
        "env.from_source(NumberSequenceSource(1, 3), WatermarkStrategy.for_monotonous_timestamps(), 'n').process(f).print()\n",
        head=_WM_HEAD,
    )
    assert any("watermark strategy" in m.message for m in result.markers)
    # a timestamp assigner runs user code and sets timestamps
    result = convert(
        "ws = WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(a)\n"
        "env.from_source(NumberSequenceSource(1, 3), ws, 'n').print()\n",
        head=_WM_HEAD,
    )
    assert any("watermark strategy" in m.message for m in result.markers)


def test_watermarks_nobody_reads_are_dropped_with_the_source():
    result = convert(
        "env.from_source(\n"
        "    NumberSequenceSource(1, 3),\n"
        "    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_idleness(Duration.of_seconds(5)),\n"
        "    'n',\n"
        ").map(lambda x: x * 2).print()\n",
        head=_WM_HEAD,
    )
    assert result.status == "converted", result.markers
    assert 'env.range(1, 3 + 1).toDF("value"), "map", lambda x: x * 2, "value"' in result.output  # a frame (pickled results)
    assert "Watermark" not in result.output


def test_stream_type_followed_through_reassignment_and_helper_return():
    result = convert(
        "def pairs(env):\n"
        "    ds = env.from_collection(['a b'])\n"
        "    ds = ds.map(lambda s: (s, 1), output_type=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
        "    return ds\n\n\n"
        "pairs(env).execute_and_collect()\n"
        "out = env.from_collection([1])\n"
        "if flag:\n"
        "    out = out.map(str, output_type=Types.STRING())\n"
        "out.execute_and_collect()\n"
    )
    lines = result.output.splitlines()
    assert "    pairs(env), f2s.Types.TUPLE([f2s.Types.STRING(), f2s.Types.INT()])" in lines
    # the assignment in the branch may not reach the collect: its type is not taken
    assert "f2s.execute_and_collect(out)" in lines and "F2S207" in result.output


def test_star_import_is_resolved_and_dropped():
    result = convert(
        "env.from_collection([1]).print()\n",
        head="from pyflink.datastream import *\n\nenv = StreamExecutionEnvironment.get_execution_environment()\n",
    )
    assert result.status == "converted" and "pyflink" not in result.output


def test_every_pyflink_import_left_carries_a_todo():
    result = convert(
        "env.from_collection([1]).key_by(lambda x: x).window(TumblingEventTimeWindows.of(Time.seconds(1))).reduce(max).print()\n",
        head="from pyflink.common import Time\nfrom pyflink.datastream.window import TumblingEventTimeWindows\n" + HEAD,
    )
    lines = result.output.splitlines()
    for i, line in enumerate(lines):
        if re.match(r"(from|import) pyflink", line):
            assert lines[i - 1].startswith("# TODO(flink2spark): F2S208 "), result.output
    assert "event-time windows on a stream without timestamps" in result.output  # Flink fails there


_SINK_HEAD = (
    "from pyflink.common import Encoder\n"
    "from pyflink.datastream.connectors.file_system import FileSink, OutputFileConfig\n" + HEAD
)


def test_file_sink_parts_in_variables_stay_unless_a_converted_sink_reads_them():
    sink = "FileSink.for_row_format('/o', Encoder.simple_string_encoder()).with_output_file_config(cfg).build()"
    # read by a sink that converts: dropped, its prefix used
    result = convert(
        "cfg = OutputFileConfig('p', '.x')\n"
        f"env.from_collection(['a'], type_info=Types.STRING()).sink_to({sink})\n",
        head=_SINK_HEAD,
    )
    assert result.status == "converted", result.markers
    # a DataFrame's lines: Spark's part files, the prefix read and said not to be applied
    assert "cfg" not in result.output and '.write.mode("append").text(' in result.output
    assert any("part prefix and suffix are not applied" in m.message for m in result.markers if m.code == "F2S241")
    # also used elsewhere, and read by a sink that does not convert (pickled stream): kept
    result = convert(
        "cfg = OutputFileConfig('p', '.x')\nprint(cfg)\n"
        f"env.from_collection([1]).sink_to({sink})\n",
        head=_SINK_HEAD,
    )
    assert "cfg = OutputFileConfig(" in result.output
    assert "F2S240" in codes(result)  # the pickled stream's sink


def test_file_sink_builder_variable_used_once_converts_mutated_one_stays():
    head = _SINK_HEAD
    result = convert(
        "builder = FileSink.for_row_format('/o', Encoder.simple_string_encoder())\n"
        "sink = builder.with_output_file_config(OutputFileConfig('a', '.b')).build()\n"
        "env.from_collection(['x'], type_info=Types.STRING()).sink_to(sink)\n",
        head=head,
    )
    assert result.status == "converted", result.markers
    assert '.write.mode("append").text(' in result.output and "builder =" not in result.output
    assert any("part prefix and suffix are not applied" in m.message for m in result.markers if m.code == "F2S241")
    # the builder is changed by a statement of its own: the chain read at build() misses it
    result = convert(
        "builder = FileSink.for_row_format('/o', Encoder.simple_string_encoder())\n"
        "builder.with_output_file_config(OutputFileConfig('a', '.b'))\n"
        "env.from_collection(['x'], type_info=Types.STRING()).sink_to(builder.build())\n",
        head=head,
    )
    assert "write_rows" not in result.output and ".write.mode(" not in result.output
    assert "F2S240" in codes(result)


_CONFIG_HEAD = "from pyflink.common import Configuration\nfrom pyflink.datastream import StreamExecutionEnvironment\n\n"


def test_configuration_of_the_environment():
    body = "env.from_collection([('a', 1), ('a', 2)]).key_by(lambda p: p[0]).sum(1).print()\n"
    env = "env = StreamExecutionEnvironment.get_execution_environment(config)\n"
    # no runtime mode in it: Flink's default, STREAMING (rolling sums)
    result = convert("config = Configuration()\nconfig.set_integer('parallelism.default', 2)\n" + env + body, head=_CONFIG_HEAD)
    assert result.status == "converted", result.markers
    assert "f2s.rolling_reduce(" in result.output and "parallelism.default" in result.output
    assert "config" not in result.output.replace("configuration", "")
    # the mode set from an expression: the aggregation cannot tell
    result = convert("config = Configuration()\nconfig.set_string('execution.runtime-mode', MODE)\n" + env + body, head=_CONFIG_HEAD)
    assert "F2S204" in codes(result)
    # a configuration used in another way stays with a TODO
    result = convert("config = Configuration()\nprint(config.to_dict())\n" + env + body, head=_CONFIG_HEAD)
    assert any("get_execution_environment(configuration)" in m.message for m in result.markers if m.severity == "todo")


def test_sink_to_on_a_keyed_stream_stays():
    # recorded on Flink 2.3: KeyedStream.sink_to writes Row(pickled key, element) as text
    result = convert(
        "env.from_collection(['a'], type_info=Types.STRING()).key_by(lambda s: s).sink_to(\n"
        "    FileSink.for_row_format('/o', Encoder.simple_string_encoder()).build()\n"
        ")\n",
        head=_SINK_HEAD,
    )
    assert "write_rows" not in result.output
    assert any("KeyedStream" in m.message for m in result.markers if m.code == "F2S240")


def test_process_function_on_an_unbounded_source_stays_with_a_transform_with_state_hint():
    # timers on an unbounded stream are not converted (f2s_stream.keyed_process runs none)
    result = convert(
        "\n\nclass Count(KeyedProcessFunction):\n"
        "    def process_element(self, value, ctx):\n"
        "        ctx.timer_service().register_event_time_timer(5)\n"
        "        yield value\n\n\n"
        "source = KafkaSource.builder().set_topics('t').build()\n"
        "env.from_source(source, WatermarkStrategy.no_watermarks(), 'k').key_by(lambda x: x).process(Count()).print()\n",
        head="from pyflink.common import WatermarkStrategy\nfrom pyflink.datastream import KeyedProcessFunction\n"
        "from pyflink.datastream.connectors.kafka import KafkaSource\n" + HEAD,
    )
    todo = [m for m in result.markers if m.code == "F2S230"]
    assert todo and "transformWithState" in todo[0].message and ".process(Count())" in result.output


def test_stream_from_the_table_api_is_left_with_the_table_api_part():
    result = convert(
        "t_env = StreamTableEnvironment.create(env)\n"
        "ds = t_env.to_data_stream(t_env.from_path('src'))\n"
        "ds = ds.map(lambda r: (r[0], 1)).key_by(lambda r: r[0]).reduce(lambda a, b: (a[0], a[1] + b[1]))\n"
        "ds.sink_to(FileSink.for_row_format('/o', Encoder.simple_string_encoder()).build())\n"
        "local = env.from_collection([1, 2], type_info=Types.INT())\n"
        "local.key_by(lambda x: x % 2).sum(0).print()\n",
        head="from pyflink.table import StreamTableEnvironment\n" + _SINK_HEAD,
    )
    table = [m for m in result.markers if m.code == "F2S210"]
    # the key_by and the sink_to of the Table API stream, nothing about its file sink
    base = 1 + _SINK_HEAD.count("\n")  # lines of the head
    assert sorted(m.line for m in table) == [base + 3, base + 4]
    assert all("to_data_stream" in m.message for m in table)
    assert "F2S209" not in codes(result) and "F2S240" not in codes(result)
    # the imports only the Table API part uses say so; the one converted code uses does not
    imports = {m.message.split(" from ")[0]: m.message for m in result.markers if m.code == "F2S208"}
    assert imports["Encoder"].endswith("still used by the Table API part (F2S210): convert them with it")
    assert imports["FileSink"].endswith("still used by the Table API part (F2S210): convert them with it")
    assert set(imports) == {"Encoder", "FileSink"}  # the table environment converts (rules/table)
    assert "StreamTableEnvironment" not in result.output
    assert ".key_by(lambda r: r[0])" in result.output and "ds.sink_to(" in result.output
    # the stream that does not come from the Table API converts
    assert "local.key_by" not in result.output


def test_flink_1_12_simple_string_encoder_is_the_string_encoder():
    result = convert(
        "env.from_collection(['a', 'b'], type_info=Types.STRING()).add_sink(\n"
        "    StreamingFileSink.for_row_format('/o', SimpleStringEncoder()).build()\n"
        ")\n",
        head="from pyflink.common.serialization import SimpleStringEncoder\n"
        "from pyflink.datastream.connectors import StreamingFileSink\n" + HEAD,
    )
    assert '.write.mode("append").text(' in result.output and not codes(result)  # a DataFrame of strings
    assert "SimpleStringEncoder" not in result.output


def test_async_io_converts_or_is_marked_where_it_stands():
    body = (
        "\n\nclass Lookup({base}):\n"
        "    async def async_invoke(self, value):\n"
        "        return [value]\n\n\n"
        "ds = env.from_collection([1, 2], type_info=Types.INT())\n"
        "out = AsyncDataStream.unordered_wait(ds, Lookup(), Time.seconds(5), 10, Types.INT())\n"
    )
    head = "from pyflink.common import Time\nfrom pyflink.datastream import AsyncDataStream, AsyncFunction\n" + HEAD
    result = convert(body.format(base="AsyncFunction"), head=head)
    assert result.status == "converted" and "f2s.async_wait(ds, Lookup(), f2s.Time.seconds(5), capacity=10, ordered=False)" in result.output
    assert "F2S238" in codes(result, "note")
    # not an AsyncFunction class of the module: left where it stands
    result = convert(body.format(base="object"), head=head)
    todo = [m for m in result.markers if m.code == "F2S201"]
    assert len(todo) == 1 and todo[0].line == 2 + HEAD.count("\n") + 9  # the AsyncDataStream line
    assert "AsyncDataStream.unordered_wait(" in result.output


def test_sink_arguments_may_use_builtins_but_not_names_that_change():
    body = (
        "import sys\n\n"
        "def main():\n"
        "    words = env.from_collection(['a'], type_info=Types.STRING())\n"
        "    sink = FileSink.for_row_format(sys.argv[1] if len(sys.argv) > 1 else '/tmp/o', Encoder.simple_string_encoder()).build()\n"
        "{shadow}"
        "    words.sink_to(sink)\n"
    )
    result = convert(body.format(shadow=""), head=_SINK_HEAD)
    # the path (a conditional) in parentheses before the date-time bucket folder is added
    assert ('.write.mode("append").text(\n        (sys.argv[1] if len(sys.argv) > 1 else "/tmp/o")\n        + "/"\n'
            in result.output) and "F2S240" not in codes(result), result.output
    # `len` means something else where the sink is written: the sink stays
    result = convert(body.format(shadow="    len = lambda x: 0\n"), head=_SINK_HEAD)
    assert "f2s_io.write_" not in result.output and ".write.mode(" not in result.output and "F2S240" in codes(result)


def test_sink_left_with_a_todo_stays_as_it_is_when_converted_again():
    # convert() checks that converting the output again changes nothing
    result = convert(
        "words = env.from_collection(['a'], type_info=Types.STRING())\n"
        "sink = FileSink.for_bulk_format('/tmp/o', None).build()\n"
        "words.sink_to(sink)\n",
        head=_SINK_HEAD,
    )
    assert [m.message.split(" (")[0] for m in result.markers if m.code == "F2S240"] == ["FileSink.for_bulk_format"]


def test_types_missing_from_pyflink_are_named_in_every_todo():
    # Types.LOCAL_DATE() exists in Java's Types, not in PyFlink 2.3's: the program fails on Flink
    stream = "ds = env.from_collection([1], type_info=Types.INT()).map(str, output_type=Types.LOCAL_DATE())\n"
    collected = convert(stream + "with ds.execute_and_collect() as it:\n    print(list(it))\n")
    sunk = convert(
        "from pyflink.common.serialization import Encoder\n"
        "from pyflink.datastream.connectors.file_system import FileSink\n"
        + stream
        + "ds.sink_to(FileSink.for_row_format('/tmp/out', Encoder.simple_string_encoder()).build())\n"
    )
    for result in (collected, sunk):
        [todo] = [m for m in result.markers if m.severity == "todo" and m.code != "F2S208"]  # not the imports left
        assert "Types has no LOCAL_DATE()" in todo.message, todo.message
        assert "not converted yet" not in todo.message


def test_simple_string_schema_charset_other_than_utf8_is_left_marked():
    head = HEAD + "from pyflink.common import SimpleStringSchema, WatermarkStrategy\nfrom pyflink.datastream.connectors.kafka import KafkaSource\n"

    def source(charset):
        return convert(
            "ds = env.from_source(KafkaSource.builder().set_bootstrap_servers('k:9092').set_topics('t')"
            f".set_value_only_deserializer(SimpleStringSchema({charset})).build(), WatermarkStrategy.no_watermarks(), 'k')\n",
            head,
        )

    for utf8 in ("", "'UTF-8'", "charset='utf8'"):
        result = source(utf8)
        assert "F2S252" not in codes(result) and 'cast("string")' in result.output, utf8
    for latin1 in ("'ISO-8859-1'", "charset='latin1'"):  # every byte one character: Spark's decode()
        result = source(latin1)
        assert "F2S252" not in codes(result) and 'F.decode(F.col("value"), "ISO-8859-1")' in result.output, latin1
    for other in ("'US-ASCII'", "charset='UTF-16'", "name"):
        result = source(other)
        assert "F2S252" in codes(result), other
        assert [m for m in result.markers if m.code == "F2S252" and "charset" in m.message]
    # writing ISO-8859-1 stays marked (Java writes '?' for characters it cannot encode)
    result = convert(
        "from pyflink.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink\n"
        "env.from_collection(['é'], type_info=Types.STRING()).sink_to(KafkaSink.builder().set_bootstrap_servers('k:9092')"
        ".set_record_serializer(KafkaRecordSerializationSchema.builder().set_topic('t')"
        ".set_value_serialization_schema(SimpleStringSchema('ISO-8859-1')).build()).build())\n",
        head,
    )
    assert [m for m in result.markers if m.code == "F2S252" and "charset" in m.message]


def test_spark_decodes_iso_8859_1_as_java_does(spark):
    # Java's ISO-8859-1 maps byte b to the character U+00b, as Python's latin-1 codec does
    from pyspark.sql import functions as F

    every_byte = bytes(range(256))
    df = spark.createDataFrame([(every_byte,)], "value binary")
    assert df.select(F.decode(F.col("value"), "ISO-8859-1")).first()[0] == every_byte.decode("latin-1")


def test_row_field_extractor_schema_needs_byte_array_fields():
    head = (
        HEAD
        + "from pyflink.common.serialization import RowFieldExtractorSchema\n"
        + "from pyflink.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink\n"
    )

    def sink(field_type, index):
        return convert(
            "ds = env.from_collection([(b'k', 1)], type_info=Types.ROW([Types.PRIMITIVE_ARRAY(Types.BYTE()), %s]))\n"
            "ds.sink_to(KafkaSink.builder().set_bootstrap_servers('k:9092').set_record_serializer("
            "KafkaRecordSerializationSchema.builder().set_topic('t')"
            ".set_value_serialization_schema(RowFieldExtractorSchema(%d)).build()).build())\n" % (field_type, index),
            head,
        )

    converted = sink("Types.INT()", 0)
    assert not codes(converted) and 'F.coalesce(F.col("f0"), F.lit(b""))' in converted.output
    for field_type, index in (("Types.INT()", 1), ("Types.INT()", 2)):
        left = sink(field_type, index)
        assert "F2S252" in codes(left) and "RowFieldExtractorSchema(%d)" % index in left.output


def test_file_sinks_and_collect_on_unbounded_streams_are_left_marked():
    # a Kafka stream (and a monitored folder) is a MicroBatches object, not an RDD: batch sinks
    # and execute_and_collect() must not be applied to it
    head = (
        HEAD
        + "from pyflink.common import Duration, SimpleStringSchema, WatermarkStrategy\n"
        + "from pyflink.common.serialization import Encoder\n"
        + "from pyflink.datastream.connectors.file_system import FileSink, FileSource, StreamFormat\n"
        + "from pyflink.datastream.connectors.kafka import KafkaSource\n"
    )
    sources = {
        "kafka": "KafkaSource.builder().set_bootstrap_servers('k:9092').set_topics('t')"
        ".set_value_only_deserializer(SimpleStringSchema()).build()",
        "files": "FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/in')"
        ".monitor_continuously(Duration.of_seconds(1)).build()",
    }
    for name, source in sources.items():
        lines = f"lines = env.from_source({source}, WatermarkStrategy.no_watermarks(), 'in')\n"
        sunk = convert(lines + "lines.sink_to(FileSink.for_row_format('/out', Encoder.simple_string_encoder()).build())\n", head)
        assert [m.code for m in sunk.markers if m.severity == "todo" and "unbounded" in m.message] == ["F2S240"], name
        assert "write_rows" not in sunk.output
        collected = convert(lines + "with lines.execute_and_collect() as it:\n    print(list(it))\n", head)
        assert any(m.severity == "todo" and "execute_and_collect() of an unbounded" in m.message for m in collected.markers), name
        assert "f2s.execute_and_collect" not in collected.output


def test_source_left_with_a_todo_stays_as_it_is_when_converted_again():
    # from_source() keeps a TODO (a source it does not convert with this strategy); the source
    # variable it reads gets no TODO of its own, now or when the output is converted again
    # (convert() checks that converting the output again changes nothing)
    result = convert(
        "source = NumberSequenceSource(1, 3)\n"
        "env.from_source(source, strategy, 'n').print()\n",
        head="from pyflink.datastream.connectors import NumberSequenceSource\n" + HEAD,
    )
    assert codes(result).count("F2S200") == 1
    assert "a source object used other than" not in result.output


def test_methods_of_plain_classes_are_plain_callables():
    classes = (
        "class Stats:\n"
        "    def mean(self):\n        return 1\n\n"
        "    @staticmethod\n    def parse(line):\n        return line\n\n\n"
        "class Cleaner:\n    def execute(self, x):\n        return x\n\n\n"
    )
    result = convert(
        classes + "cleaner = Cleaner()\n"
        "env.from_collection(['a']).map(cleaner.execute).map(Stats.parse).filter(Stats.mean).print()\n"
    )
    assert result.status == "converted", codes(result)
    assert ".map(cleaner.execute)\n    .map(Stats.parse)\n    .filter(Stats.mean)" in result.output
    # a method the class does not define, or an object whose class is not known: still marked
    for fn in ("Stats.median", "unknown.execute", "Cleaner().run"):
        result = convert(classes + "import unknown\n" + f"env.from_collection(['a']).map({fn}).print()\n")
        assert codes(result) == ["F2S201"], (fn, codes(result))


def test_table_api_streams_are_followed_into_and_out_of_defs():
    result = convert(
        "def workflow(stream: DataStream):\n"
        "    return stream.key_by(lambda r: r[0]).reduce(lambda a, b: a)\n\n\n"
        "t_env = StreamTableEnvironment.create(env)\n"
        "result = workflow(t_env.to_append_stream(t_env.from_path('src'), Types.TUPLE([Types.STRING()])))\n"
        "result.get_side_output(tag).print()\n",
        head="from pyflink.datastream import DataStream\nfrom pyflink.table import StreamTableEnvironment\n" + HEAD,
    )
    table = [m for m in result.markers if m.code == "F2S210"]
    assert [m.line for m in table] == [8, 13]  # the key_by in the def, a method on what it returns
    assert "F2S209" not in codes(result)
    # DataStream is used by the annotation of a parameter that takes the Table API stream
    imports = {m.message.split(" from ")[0]: m.message for m in result.markers if m.code == "F2S208"}
    assert imports["DataStream"].endswith("still used by the Table API part (F2S210): convert them with it")
    # the same annotation on a def that takes a converted stream is a use outside the Table API part
    result = convert(
        "def workflow(stream: DataStream):\n"
        "    return stream\n\n\n"
        "t_env = StreamTableEnvironment.create(env)\n"
        "workflow(env.from_collection([1])).print()\n",
        head="from pyflink.datastream import DataStream\nfrom pyflink.table import StreamTableEnvironment\n" + HEAD,
    )
    imports = {m.message.split(" from ")[0]: m.message for m in result.markers if m.code == "F2S208"}
    assert imports["DataStream"].endswith("is still used: convert the remaining uses by hand")


def test_watermarks_no_process_function_reads_are_dropped_with_the_source():
    body = (
        "class Count(KeyedProcessFunction):\n"
        "    def process_element(self, value, ctx):\n"
        "        yield {read}\n\n\n"
        "ds = env.from_source(NumberSequenceSource(1, 4), WatermarkStrategy.for_monotonous_timestamps(), 'n')\n"
        "ds.key_by(lambda x: x % 2).process(Count()).print()\n"
    )
    head = (
        "from pyflink.common import WatermarkStrategy\nfrom pyflink.datastream import KeyedProcessFunction\n"
        "from pyflink.datastream.connectors import NumberSequenceSource\n" + HEAD
    )
    result = convert(body.format(read="value"), head=head)
    assert result.status == "converted" and "sparkContext.range(1, 4 + 1)" in result.output
    for read in ("ctx.timestamp()", "ctx.timer_service().current_watermark()"):
        result = convert(body.format(read=read), head=head)
        assert any("with a watermark strategy" in m.message for m in result.markers if m.code == "F2S200"), read


def test_process_function_classes_of_sibling_modules(tmp_path):
    (tmp_path / "functions.py").write_text(
        "from pyflink.datastream import OutputTag, ProcessFunction\n\n\n"
        "class Route(ProcessFunction):\n"
        "    def process_element(self, value, ctx):\n"
        "        yield value\n\n\n"
        "class Plain:\n"
        "    def process_element(self, value, ctx):\n"
        "        yield value\n"
    )
    job = tmp_path / "job.py"
    body = "from functions import Route, Plain\n" + HEAD + "env.from_collection([1]).process({fn}()).print()\n"
    job.write_text(body.format(fn="Route"))
    result = convert_source(job.read_text(), str(job))
    assert result.status == "converted" and "f2s.process(" in result.output and "Route()" in result.output
    job.write_text(body.format(fn="Plain"))  # not a PyFlink process function: left with a TODO
    assert "F2S230" in codes(convert_source(job.read_text(), str(job)))


def test_a_reassigned_stream_variable_has_the_type_of_its_last_value():
    # ds is a DataStream, then a windowed stream: the window function is the window's
    result = convert(
        "class Count(ProcessWindowFunction):\n"
        "    def process(self, key, context, elements):\n"
        "        yield key, len(list(elements))\n\n\n"
        "ds = env.from_collection([('a', 1), ('a', 2)])\n"
        "ds = ds.key_by(lambda e: e[0]).count_window(2)\n"
        "ds.process(Count(), Types.TUPLE([Types.STRING(), Types.INT()])).print()\n",
        head="from pyflink.datastream import ProcessWindowFunction\n" + HEAD,
    )
    assert result.status == "converted", codes(result)
    assert "ds.process(Count())" in result.output and "f2s.windows.Windows(" in result.output


def test_state_fed_by_union_or_connect_is_noted():
    counter = (
        "class Count(KeyedProcessFunction):\n"
        "    def open(self, runtime_context):\n"
        "        self.n = runtime_context.get_state(ValueStateDescriptor('n', Types.INT()))\n\n"
        "    def process_element(self, value, ctx):\n"
        "        yield value\n\n\n"
        "class Echo(KeyedProcessFunction):\n"
        "    def process_element(self, value, ctx):\n"
        "        yield value\n\n\n"
    )
    head = "from pyflink.datastream import KeyedProcessFunction\nfrom pyflink.datastream.state import ValueStateDescriptor\n" + HEAD
    a = "a = env.from_collection([1, 2])\nb = env.from_collection([3])\n"
    result = convert(counter + a + "a.union(b).map(lambda x: x).key_by(lambda x: x % 2).process(Count()).print()\n", head=head)
    assert codes(result, "note").count("F2S237") == 1
    # no state, or no union: nothing to say
    result = convert(counter + a + "a.union(b).key_by(lambda x: x % 2).process(Echo()).print()\n", head=head)
    assert "F2S237" not in codes(result, "note")
    result = convert(counter + a + "a.key_by(lambda x: x % 2).process(Count()).print()\n", head=head)
    assert "F2S237" not in codes(result, "note")


def test_keyed_window_functions_with_open_convert_with_a_note():
    fn = (
        "class Numbered(ProcessWindowFunction):\n"
        "    def open(self, runtime_context):\n"
        "        self.seen = runtime_context.get_state(ValueStateDescriptor('seen', Types.INT()))\n\n"
        "    def process(self, key, context, elements):\n"
        "        yield key\n\n\n"
    )
    head = "from pyflink.datastream import ProcessWindowFunction\nfrom pyflink.datastream.state import ValueStateDescriptor\n" + HEAD
    result = convert(fn + "env.from_collection([('a', 1)]).key_by(lambda x: x[0]).count_window(2).process(Numbered()).print()\n", head=head)
    assert result.status == "converted" and "F2S203" in codes(result, "note") and ".process(Numbered())" in result.output
    # window_all: no keyed state to scope (Flink fails on it): left with a TODO
    result = convert(
        fn.replace("key, context", "context")
        + "env.from_collection([('a', 1)]).window_all(CountTumblingWindowAssigner.of(2)).process(Numbered()).print()\n",
        head="from pyflink.datastream.window import CountTumblingWindowAssigner\n" + head,
    )
    assert "F2S220" in codes(result)


def test_annotations_of_parameters_only_the_table_api_part_reads():
    result = convert(
        "def workflow(stream: DataStream, rules: BroadcastStream):\n"
        "    return stream.key_by(lambda r: r[0]).connect(rules).process(None)\n\n\n"
        "t_env = StreamTableEnvironment.create(env)\n"
        "rules = env.from_collection([('a', 1.0)]).broadcast()\n"
        "workflow(t_env.to_append_stream(t_env.from_path('src'), Types.TUPLE([Types.STRING()])), rules).print()\n",
        head="from pyflink.datastream import BroadcastStream, DataStream\nfrom pyflink.table import StreamTableEnvironment\n" + HEAD,
    )
    imports = {m.message.split(" from ")[0]: m.message for m in result.markers if m.code == "F2S208"}
    assert imports["BroadcastStream, DataStream"].endswith("still used by the Table API part (F2S210): convert them with it")


def test_function_class_methods_that_flink_cannot_call_are_marked():
    # PyFlink calls flat_map(value): a collector-style flat_map(value, out) fails on Flink
    body = (
        "class Split(FlatMapFunction):\n"
        "    def flat_map(self, {params}):\n"
        "        yield from value.split()\n\n\n"
        "env.from_collection(['a b']).flat_map(Split()).print()\n"
    )
    head = "from pyflink.datastream import FlatMapFunction\n" + HEAD
    assert convert(body.format(params="value"), head=head).status == "converted"
    assert convert(body.format(params="value, extra=None"), head=head).status == "converted"
    result = convert(body.format(params="value, collector"), head=head)
    assert [m.message.split(" does")[0] for m in result.markers if m.code == "F2S201"] == ["Split.flat_map()"]


def test_comments_inside_a_rewritten_chain_are_kept_above_it():
    result = convert(
        "(\n"
        "    env.from_collection(['a b'])  # the lines\n"
        "    # split them\n"
        "    .flat_map(lambda line: line.split())\n"
        "    .print()  # done\n"
        ")\n"
    )
    out = result.output
    assert out.index("# the lines\n# split them\n# done\n") < out.index("f2s_process.as_text(")
    assert out.count("# split them") == 1


def test_async_io_on_a_table_api_stream_belongs_to_the_table_api_part():
    result = convert(
        "t_env = StreamTableEnvironment.create(env)\n"
        "ds = t_env.to_data_stream(t_env.from_path('src'))\n"
        "out = AsyncDataStream.unordered_wait(data_stream=ds, async_function=fn, timeout=t)\n"
        "out.sink_to(sink)\n",
        head="from pyflink.datastream import AsyncDataStream\nfrom pyflink.table import StreamTableEnvironment\n" + HEAD,
    )
    table = [m for m in result.markers if m.code == "F2S210"]
    assert [m.line for m in table] == [9, 10]  # the async call and the sink of its result
    assert not {"F2S200", "F2S209"} & set(codes(result))


_TRIGGER_HEAD = (
    "from pyflink.common import Time\n"
    "from pyflink.datastream.window import CountTrigger, GlobalWindows, PurgingTrigger, Trigger, TriggerResult\n"
    "from pyflink.datastream.window import TumblingEventTimeWindows\n" + HEAD
)
_STAMPED = (
    "from pyflink.common import WatermarkStrategy\n"
    "from pyflink.common.watermark_strategy import TimestampAssigner\n\n\n"
    "class At(TimestampAssigner):\n"
    "    def extract_timestamp(self, value, record_timestamp):\n"
    "        return value[1]\n\n\n"
    "events = env.from_collection([('a', 1000)]).assign_timestamps_and_watermarks(\n"
    "    WatermarkStrategy.for_monotonous_timestamps().with_timestamp_assigner(At())\n"
    ")\n"
)


def test_triggers_convert_on_bounded_streams():
    result = convert(
        "env.from_collection([1, 2, 3]).key_by(lambda x: x % 2).window(GlobalWindows.create())"
        ".trigger(PurgingTrigger.of(CountTrigger.of(2))).reduce(lambda a, b: a + b).print()\n",
        head=_TRIGGER_HEAD,
    )
    assert codes(result) == []
    assert ".trigger(f2s.PurgingTrigger.of(f2s.CountTrigger.of(2)))" in result.output
    assert "f2s.GlobalWindows.create()" in result.output and ".reduce(lambda a, b: a + b)" in result.output
    # GlobalWindows without a trigger never fire, on Flink too: converted as they are
    plain = convert("env.from_collection([1]).key_by(lambda x: x).window(GlobalWindows.create()).reduce(max).print()\n", head=_TRIGGER_HEAD)
    assert codes(plain) == [] and "f2s.GlobalWindows.create()" in plain.output


def test_user_trigger_class_keeps_its_methods_on_the_shim_base():
    trigger = (
        "class Big(Trigger):\n"
        "    def on_element(self, element, timestamp, window, ctx):\n"
        "        return TriggerResult.FIRE_AND_PURGE if element[0] > 5 else TriggerResult.CONTINUE\n\n\n"
    )
    result = convert(trigger + _STAMPED + "events.key_by(lambda e: e[0]).window(TumblingEventTimeWindows.of(Time.seconds(5))).trigger(Big()).process(Fn()).print()\n", head=_TRIGGER_HEAD)
    assert "class Big(f2s.Trigger):" in result.output and "f2s.TriggerResult.FIRE_AND_PURGE" in result.output
    assert ".trigger(Big())" in result.output and "pyflink" not in result.output


def test_allowed_lateness_is_kept_only_beside_a_trigger():
    window = "events.key_by(lambda e: e[0]).window(TumblingEventTimeWindows.of(Time.seconds(5)))"
    after = convert(_STAMPED + window + ".allowed_lateness(2000).trigger(CountTrigger.of(2)).reduce(max).print()\n", head=_TRIGGER_HEAD)
    before = convert(_STAMPED + window + ".trigger(CountTrigger.of(2)).allowed_lateness(2000).reduce(max).print()\n", head=_TRIGGER_HEAD)
    for result in (after, before):
        assert ".allowed_lateness(2000)" in result.output and "F2S222" not in codes(result, "note"), result.output
    alone = convert(_STAMPED + window + ".allowed_lateness(2000).reduce(max).print()\n", head=_TRIGGER_HEAD)
    assert ".allowed_lateness(" not in alone.output and "F2S222" in codes(alone, "note")


def test_triggers_in_batch_mode_and_evictors_stay_with_todos():
    batch = convert(
        "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
        "env.from_collection([1]).key_by(lambda x: x).window(GlobalWindows.create()).trigger(CountTrigger.of(2)).reduce(max).print()\n",
        head=_TRIGGER_HEAD,
    )
    assert any("trigger() in BATCH mode is not converted" in m.message for m in batch.markers)
    assert ".window(f2s.GlobalWindows.create())\n    .trigger(f2s.CountTrigger.of(2))" in batch.output  # left as it was
    evictor = convert(
        "env.from_collection([1]).key_by(lambda x: x).window(GlobalWindows.create()).evictor(None).reduce(max).print()\n",
        head=_TRIGGER_HEAD,
    )
    assert any("PyFlink's windowed streams have no evictor()" in m.message for m in evictor.markers)


_KAFKA_STAMPED = (
    "from pyflink.common import Duration, WatermarkStrategy\n"
    "from pyflink.common.serialization import SimpleStringSchema\n"
    "from pyflink.common.watermark_strategy import TimestampAssigner\n"
    "from pyflink.datastream.connectors.kafka import KafkaSource\n\n\n"
    "class At(TimestampAssigner):\n"
    "    def extract_timestamp(self, value, record_timestamp):\n"
    "        return int(value.split(',')[1])\n\n\n"
    "source = KafkaSource.builder().set_bootstrap_servers('k:9092').set_topics('t').set_value_only_deserializer(SimpleStringSchema()).build()\n"
    "strategy = WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_timestamp_assigner(At())\n"
    "keyed = env.from_source(source, strategy, 'kafka').key_by(lambda line: line.split(',')[0])\n"
)


def test_triggers_on_unbounded_streams_run_in_transform_with_state():
    window = "keyed.window(TumblingEventTimeWindows.of(Time.seconds(10)))"
    result = convert(
        _KAFKA_STAMPED
        + "keyed.window(GlobalWindows.create()).trigger(PurgingTrigger.of(CountTrigger.of(3))).reduce(lambda a, b: a + b).print()\n"
        + window + ".trigger(ContinuousEventTimeTrigger.of(Time.seconds(2))).reduce(lambda a, b: b).print()\n",
        head="from pyflink.datastream.window import ContinuousEventTimeTrigger\n" + _TRIGGER_HEAD,
    )
    assert codes(result) == [] and codes(result, "note").count("F2S260") == 2
    assert "f2s_stream.windows(keyed, f2s.GlobalWindows.create())\n    .trigger(f2s.PurgingTrigger.of(f2s.CountTrigger.of(3)))" in result.output
    assert ".trigger(f2s.ContinuousEventTimeTrigger.of(f2s.Time.seconds(2)))" in result.output
    # processing-time timers on an event-time stream: transformWithState has one time mode
    mixed = convert(
        _KAFKA_STAMPED + window + ".trigger(ProcessingTimeTrigger.create()).reduce(lambda a, b: b).print()\n",
        head="from pyflink.datastream.window import ProcessingTimeTrigger\n" + _TRIGGER_HEAD,
    )
    assert "F2S254" in codes(mixed) and "f2s_stream.windows" not in mixed.output
    # a user trigger class: its timer methods decide
    user = (
        "class Early(Trigger):\n"
        "    def on_element(self, element, timestamp, window, ctx):\n"
        "        ctx.register_processing_time_timer(window.max_timestamp())\n"
        "        return TriggerResult.CONTINUE\n\n\n"
    )
    refused = convert(user + _KAFKA_STAMPED + window + ".trigger(Early()).reduce(lambda a, b: b).print()\n", head=_TRIGGER_HEAD)
    assert "F2S254" in codes(refused) and "f2s_stream.windows" not in refused.output
    kept = convert(user.replace("processing", "event") + _KAFKA_STAMPED + window + ".trigger(Early()).reduce(lambda a, b: b).print()\n", head=_TRIGGER_HEAD)
    assert codes(kept) == [] and ".trigger(Early())" in kept.output


def test_processing_time_triggers_carry_a_note():
    window = "events.key_by(lambda e: e[0]).window(TumblingEventTimeWindows.of(Time.seconds(5)))"
    clock = convert(
        _STAMPED + window + ".trigger(ContinuousProcessingTimeTrigger.of(Time.seconds(1))).reduce(max).print()\n",
        head="from pyflink.datastream.window import ContinuousProcessingTimeTrigger\n" + _TRIGGER_HEAD,
    )
    assert codes(clock) == [] and "F2S221" in codes(clock, "note")
    counted = convert(_STAMPED + window + ".trigger(PurgingTrigger.of(CountTrigger.of(2))).reduce(max).print()\n", head=_TRIGGER_HEAD)
    assert "F2S221" not in codes(counted, "note")


def test_connectors_without_a_conversion_say_what_to_use_on_spark():
    result = convert(
        "from pyflink.datastream.connectors.elasticsearch import Elasticsearch7SinkBuilder, ElasticsearchEmitter\n"
        "from pyflink.datastream.connectors.pulsar import PulsarSource\n"
        "from pyflink.common import WatermarkStrategy\n"
        "source = PulsarSource.builder().set_service_url('pulsar://p:6650').set_topics('in').build()\n"
        "events = env.from_source(source, WatermarkStrategy.no_watermarks(), 'pulsar')\n"
        "sink = Elasticsearch7SinkBuilder().set_hosts(['es:9200']).set_emitter(ElasticsearchEmitter.static_index('idx')).build()\n"
        "events.sink_to(sink)\n"
    )
    messages = [m.message for m in result.markers if m.severity == "todo"]
    assert any("Pulsar: Spark has no built-in connector" in m for m in messages), messages
    assert any("elasticsearch-spark connector" in m for m in messages), messages


def test_an_object_of_a_class_that_wraps_flink_keeps_its_todo():
    """Methods with Flink's names on an object of the user's own class are the user's (no
    marker) only when nothing of that class touches Flink: a class that builds Flink streams
    may hand one back."""
    plain = convert(
        "\n\nclass Table:\n    def key_by(self, f):\n        return self\n\n    def print(self):\n        return None\n\n\n"
        "Table().key_by(len).print()\n"
    )
    assert codes(plain) == [] and "Table().key_by(len).print()" in plain.output
    wrapper = convert(
        "\n\nclass Jobs:\n    def source(self):\n        return env.from_collection([1, 2])\n\n\n"
        "Jobs().source().key_by(lambda x: x).print()\n"
    )
    assert "F2S209" in codes(wrapper)
    line = wrapper.output.splitlines().index("Jobs().source().key_by(lambda x: x).print()")
    assert wrapper.output.splitlines()[line - 1].startswith("# TODO(flink2spark): F2S209")


def _helper_printing_a_timestamped(source: str) -> str:
    return convert(
        "from pyflink.common import Duration, WatermarkStrategy\n"
        "from pyflink.common.watermark_strategy import TimestampAssigner\n\n\n"
        "class ByTime(TimestampAssigner):\n    def extract_timestamp(self, value, record_timestamp):\n        return value[1]\n\n\n"
        "def show(stream):\n    stream.print()\n\n\n"
        f"events = {source}\n"
        "show(events.assign_timestamps_and_watermarks(\n"
        "    WatermarkStrategy.for_bounded_out_of_orderness(Duration.of_seconds(1)).with_timestamp_assigner(ByTime())))\n"
    ).output


def test_a_helper_given_a_timestamped_stream_prints_its_elements():
    """A timestamped RDD stream is (timestamp, element) pairs: a helper that prints one it is
    given prints the elements, as Flink does (before: the pairs). A typed one is a DataFrame
    whose timestamps nothing reads: the helper shows its rows."""
    untyped = _helper_printing_a_timestamped("env.from_collection([('a', 1000)])")
    assert "    for record in stream.values().collect():\n        print(record)\n" in untyped
    typed = _helper_printing_a_timestamped("env.from_collection([('a', 1000)], type_info=Types.TUPLE([Types.STRING(), Types.LONG()]))")
    assert "    stream.show(2147483647, truncate=False)\n" in typed and "show(events)\n" in typed and "f2s" not in typed


def _todo_lines(result):
    return sorted((m.line, m.code, m.message.split(" ")[0]) for m in result.markers if m.severity == "todo")


def test_every_call_on_a_stream_from_the_table_api_is_marked_once_per_chain():
    """A stream from ``to_data_stream`` keeps its Flink calls: the bridge, a chain of
    operators (once, at its first call: map, not filter/name) and a print each carry a TODO,
    whatever the method's name (before: map, filter and print had none)."""
    result = convert(
        "from pyflink.table import StreamTableEnvironment\n\n"
        "t_env = StreamTableEnvironment.create(env)\n"
        "ds = t_env.to_data_stream(t_env.sql_query('SELECT 1'))\n"
        "clean = ds.map(lambda r: r).filter(lambda r: r is not None).name('clean')\n"
        "ds.print()\n"
    )
    assert _todo_lines(result) == [
        (8, "F2S300", "to_data_stream():"),
        (9, "F2S210", ".map()"),
        (10, "F2S210", ".print()"),
    ]


def test_flink_method_on_an_object_of_another_module_is_marked():
    """``t_env`` from the user's own module (a star import, a from-import, an attribute) is
    most likely a Flink object: its distinctive calls carry F2S209 (before: such statements were
    set aside as not touching Flink, and passed through unmarked). A library's object is not
    (pandas), and a chain of such calls is marked once."""
    head = "from pyflink.table import DataTypes\n"
    for binding in ("from config import *\n", "from config import t_env\n", "import config\nt_env = config.make()\n"):
        result = convert(binding + "\nt_env.execute_sql('SELECT 1')\nt_env.get_config().set_string('a', 'b').set_string('c', 'd')\n", head=head)
        assert [(m.code, m.message.split(" ")[0]) for m in result.markers if m.severity == "todo"] == [
            ("F2S209", ".execute_sql()"), ("F2S209", ".set_string()")], binding
    library = convert("from pandas import read_sql\n\nread_sql.execute_sql('x')\n", head=head)
    assert codes(library) == []
