"""``env.from_source(source, WatermarkStrategy.no_watermarks(), name)`` for bounded sources.

* ``NumberSequenceSource(a, b)`` -> ``range(a, b + 1).toDF("value")``, a DataFrame with one
  ``bigint`` column, where the program model plans the stream as one (``_frames.NUMBERS``), else
  ``sparkContext.range(a, b + 1)``: Flink's end is inclusive. The elements are ints
  (``Types.LONG()``).
* ``FileSource.for_record_stream_format(StreamFormat.text_line_format(), *paths).build()`` ->
  ``read.text(paths, recursiveFileLookup=True)``, a DataFrame with one ``value`` column, where
  the program model plans the stream as one (``_frames.text_source_shape``), else
  ``read.text(paths, recursiveFileLookup=True).rdd.map(lambda row: row.value)``: the lines of
  every file (folders are read recursively; files whose names start with ``.`` or ``_`` are
  skipped by both), without line terminators (``\\n``, ``\\r\\n`` or ``\\r``: Flink's reader is
  Java's ``BufferedReader.readLine``, Spark's text source splits on the same three).
* The same with ``.monitor_continuously(interval)`` (one path) -> unbounded:
  ``f2s_stream.micro_batches(spark.readStream.text(path, recursiveFileLookup=True), STRING)``,
  a Structured Streaming file source that reads the files present and each new one once
  (NOTE F2S257: it looks for new files at every micro-batch, not at the interval).

* ``KafkaSource.builder()...build()`` -> ``spark.readStream.format("kafka")...`` (``spark.read``
  with ``set_bounded``), the value decoded by its schema: see ``_kafka``.

The source may be built in a variable used only by ``from_source``: that assignment is dropped
(see ``source_builders``). A strategy that only makes watermarks no operator reads (``_common.unused_watermarks``) is
dropped as ``no_watermarks()`` is. Other watermark strategies, monitoring
several paths, other formats and other sources stay with a TODO.
"""

import libcst as cst

from flink2spark.rules.pyflink import _kafka as K

from flink2spark.rules.pyflink._streams import facts
from flink2spark.rules.pyflink._common import call_arg, from_source_problem, program, source_kind, spark_head, spark_program
from flink2spark.rules.pyflink._time import strategy_has_assigner, watermark_strategy, windows_shim
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

MONITOR_NOTE = (
    "FileSource.monitor_continuously(interval): Structured Streaming's file source reads the files there at the start"
    " and each new file once, looking for new files at every micro-batch rather than every interval; a file"
    " changed after it was read is not read again (as in Flink)"
)


rule = Rule(
    __name__,
    matches=["StreamExecutionEnvironment.from_source"],
    summary="from_source(NumberSequenceSource(a, b) | FileSource text lines) -> range(a, b + 1) / read.text(...) (DataFrames, or RDDs)",
    codes=(M.PF_UNSUPPORTED, M.PF_KAFKA_UNSUPPORTED, M.PF_KAFKA_OFFSETS, M.PF_KAFKA_PACKAGE, M.PF_KAFKA_FORMAT, M.PF_MONITOR_INTERVAL),
    examples=[
        Example(
            program(
                "numbers = env.from_source(NumberSequenceSource(1, 20), WatermarkStrategy.no_watermarks(), 'numbers')\n"
                "numbers.map(lambda n: (n, n)).print()\n",
                imports="from pyflink.common import WatermarkStrategy\nfrom pyflink.datastream.connectors.number_seq import NumberSequenceSource\n",
            ),
            'from pyspark.sql import SparkSession, functions as F\n'
            '\n'
            'env = SparkSession.builder.getOrCreate()\n'
            'numbers = env.range(1, 20 + 1).toDF("value")\n'
            'numbers.select(F.col("value").alias("f0"), F.col("value").alias("f1")).show(\n'
            '    2147483647, truncate=False\n'
            ')\n',
        ),
        Example(  # a DataFrame of the numbers: every consumer has a native form; the strategy is read by nothing
            program(
                "numbers = env.from_source(NumberSequenceSource(1, 20), WatermarkStrategy.for_monotonous_timestamps(), 'numbers')\n"
                "numbers.filter(lambda n: n % 2 == 0).print()\n",
                imports="from pyflink.common import WatermarkStrategy\nfrom pyflink.datastream.connectors.number_seq import NumberSequenceSource\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'numbers = env.range(1, 20 + 1).toDF("value")\n'
            'numbers.where(F.pmod(F.col("value"), F.lit(2)) == 0).show(2147483647, truncate=False)\n',
        ),
        Example(  # a DataFrame of the lines (the program model's frame form): every consumer has a native form
            program(
                "lines = env.from_source(\n"
                "    FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/data/in').build(),\n"
                "    WatermarkStrategy.no_watermarks(),\n"
                "    'lines',\n"
                ")\n"
                "lines.filter(lambda line: line.startswith('ERROR')).print()\n",
                imports="from pyflink.common import WatermarkStrategy\n"
                "from pyflink.datastream.connectors.file_system import FileSource, StreamFormat\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'lines = env.read.text("/data/in", recursiveFileLookup=True)\n'
            'lines.where(F.col("value").startswith("ERROR")).show(2147483647, truncate=False)\n',
        ),
        Example(  # an unbounded folder: a streaming DataFrame (every consumer has a native form)
            program(
                "source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/data/in')"
                ".monitor_continuously(Duration.of_seconds(30)).build()\n"
                "lines = env.from_source(source, WatermarkStrategy.no_watermarks(), 'lines')\n",
                imports="from pyflink.common import Duration, WatermarkStrategy\n"
                "from pyflink.datastream.connectors.file_system import FileSource, StreamFormat\n",
            ),
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "# NOTE(flink2spark): F2S257 " + MONITOR_NOTE + "\n"
            'lines = env.readStream.text("/data/in", recursiveFileLookup=True)\n',
        ),
        Example(  # an unbounded folder read by a function with no Column form: micro-batches of an RDD
            program(
                "source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/data/in')"
                ".monitor_continuously(Duration.of_seconds(30)).build()\n"
                "lines = env.from_source(source, WatermarkStrategy.no_watermarks(), 'lines')\n"
                "words = lines.flat_map(lambda line: line.split())\n",
                imports="from pyflink.common import Duration, WatermarkStrategy\n"
                "from pyflink.datastream.connectors.file_system import FileSource, StreamFormat\n",
            ),
            spark_program(
                "# NOTE(flink2spark): F2S257 " + MONITOR_NOTE + "\n"
                "lines = f2s_stream.micro_batches(\n"
                '    env.readStream.text("/data/in", recursiveFileLookup=True), f2s.Types.STRING()\n'
                ")\n"
                "words = lines.flatMap(lambda line: line.split())\n",
                imports="from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\n",
                rdd='`.flat_map()` at line 8 has no DataFrame form (as a Python UDTF: an unbounded stream (the UDTF form is checked on bounded frames only))',
            ),
        ),
        Example(
            program(
                "source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/data/in').build()\n"
                "# the lines\n"
                "lines = env.from_source(source, WatermarkStrategy.no_watermarks(), 'lines')\n"
                "lines.map(lambda line: line.split()).print()\n",
                imports="from pyflink.common import WatermarkStrategy\n"
                "from pyflink.datastream.connectors.file_system import FileSource, StreamFormat\n",
            ),
            'from flink2spark.runtime import frame_process as f2s_process\n'
            'from pyspark.sql import SparkSession\n'
            '\n'
            'env = SparkSession.builder.getOrCreate()\n'
            '# the lines\n'
            'lines = env.read.text("/data/in", recursiveFileLookup=True)\n'
            'f2s_process.as_text(\n'
            '    f2s_process.pickled(lines, "map", lambda line: line.split(), "value")\n'
            ').show(2147483647, truncate=False)\n',
        ),
        Example(
            program(
                "source = (\n    KafkaSource.builder()\n    .set_bootstrap_servers('kafka:9092')\n    .set_topics('a', 'b')\n"
                "    .set_bounded(KafkaOffsetsInitializer.latest())\n    .set_value_only_deserializer(SimpleStringSchema())\n    .build()\n)\n"
                "lines = env.from_source(source, WatermarkStrategy.no_watermarks(), 'lines')\n",
                imports="from pyflink.common import SimpleStringSchema, WatermarkStrategy\n"
                "from pyflink.datastream.connectors.kafka import KafkaOffsetsInitializer, KafkaSource\n",
            ),
            "from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\n"
            "from pyspark.sql import SparkSession, functions as F\n"
            + spark_head('the source `.from_source()` at line 14 has no DataFrame form (a typed from_collection and a bounded text file source have one)')
            + "# NOTE(flink2spark): F2S250 " + K.PACKAGE_NOTE + "\n"
            "lines = f2s_stream.elements(\n"
            '    env.read.format("kafka")\n'
            '    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("subscribe", "a,b")\n'
            '    .option("startingOffsets", "earliest")\n'
            '    .option("endingOffsets", "latest")\n'
            "    .load()\n"
            '    .select(F.col("value").cast("string").alias("value")),\n'
            "    f2s.Types.STRING(),\n"
            ")\n",
        ),
    ],
    noop=["class Env:\n    def from_source(self, s, w, n):\n        return s\n\n\nEnv().from_source([1], None, 'x')\n"],
)


def _parenthesized(node: cst.BaseExpression) -> cst.BaseExpression:
    if isinstance(node, (cst.Name, cst.Integer, cst.Attribute, cst.Call, cst.Subscript)):
        return node
    return node.with_changes(lpar=[cst.LeftParen()], rpar=[cst.RightParen()])




@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if K.is_kafka_source(ctx.resolver, call_arg(seg.original, 0, "source")):
        strategy = call_arg(seg.original, 1, "watermark_strategy")
        if strategy_has_assigner(ctx.resolver, strategy):  # the records get the assigner's timestamps
            assigner, problem = watermark_strategy(ctx, strategy)
            if problem is None and isinstance(assigner, cst.Lambda):
                problem = "a lambda has no extract_timestamp() (PyFlink fails too)"
            if problem is not None:
                return ctx.todo(M.PF_EVENT_TIME, f"from_source(): {problem}")
        source = K.convert_source(ctx, ctx.site.receiver, call_arg(seg.original, 0, "source"))
        if source is None:
            return ctx.todo_left()
        if not strategy_has_assigner(ctx.resolver, strategy):
            return source
        return cst.Call(func=windows_shim(ctx, "with_timestamps"), args=[cst.Arg(source), cst.Arg(ctx.arg(seg, 1, "watermark_strategy")[1])])  # type: ignore[index]
    problem = from_source_problem(ctx, seg.original)
    if problem is not None:
        return ctx.todo(M.PF_UNSUPPORTED, problem)
    env = ctx.site.receiver
    kind, call, _ = source_kind(ctx.resolver, call_arg(seg.original, 0, "source"))
    if kind == "numbers":
        start, end = call_arg(call, 0, "start"), call_arg(call, 1, "end")
        if facts(ctx.resolver, seg.original).frame is not None:  # a DataFrame of one bigint column (_frames.NUMBERS)
            return ctx.expr('{env}.range({a}, {b} + 1).toDF("value")', env=env, a=start, b=_parenthesized(end))
        return ctx.expr("{env}.sparkContext.range({a}, {b} + 1)", env=env, a=start, b=_parenthesized(end))
    paths = [a.value for a in call.args[1:]]
    where = paths[0] if len(paths) == 1 else cst.List([cst.Element(p) for p in paths])
    if kind == "stream_text":  # unbounded: every file there now and every new one, once
        ctx.note(M.PF_MONITOR_INTERVAL, MONITOR_NOTE)
        if facts(ctx.resolver, seg.original).frame is not None:  # a streaming DataFrame of the lines
            return ctx.expr("{env}.readStream.text({path}, recursiveFileLookup=True)", env=env, path=where)
        return ctx.expr(
            "{mb}({env}.readStream.text({path}, recursiveFileLookup=True), {t}.STRING())",
            mb=K.shim(ctx, "micro_batches"),
            env=env,
            path=where,
            t=ctx.shim("Types"),
        )
    if facts(ctx.resolver, seg.original).frame is not None:  # a DataFrame of the lines (the program model's plan)
        return ctx.expr("{env}.read.text({paths}, recursiveFileLookup=True)", env=env, paths=where)
    return ctx.expr("{env}.read.text({paths}, recursiveFileLookup=True).rdd.map(lambda row: row.value)", env=env, paths=where)
