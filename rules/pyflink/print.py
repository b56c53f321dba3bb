"""``print([identifier])`` -> ``df.show(2147483647, truncate=False)`` / ``for record in rdd.collect(): print(record)``.

A stream the program model lowers to a DataFrame (``StreamFacts.frame``) is shown with
Spark's own row format: ``show()`` with the largest row count it takes (``Int.MaxValue``; its
default is 20 rows) prints every record, ``truncate=False`` every character of the values.
The records are Flink's; the layout (a box, no ``identifier> `` prefix) is Spark's.

A stream kept as an RDD prints as the Spark programming guide prints an RDD's elements in the
driver ("Printing elements of an RDD": ``collect()`` then print each; ``rdd.foreach(print)``
would print on the executors, where the driver's stdout never sees them): the print statement
becomes ``for record in rdd.collect(): print(record)``, one Spark job, records in the RDD's
order. Each record prints in Python's own form (``('keyboard', 101)``, ``Row(id=1,
name='a')``, ``Decimal('1.50')``, ``{'a': 1}``), not in Flink's per-type one (``+I[1,a]``,
Java's ``(keyboard,101)``, ``1.0E-5``, a Java HashMap's key order): the same records, which the
tests compare as values (tests/print_records.py). The stream's type is not needed for that.

The identifier stays, as ``print("name>", record)``: Flink's ``name> `` before each record,
which tells the sinks apart when several print to the same stdout (as the streaming form below
does). Never the ``N> `` subtask prefix Flink adds at higher parallelism. As in PyFlink,
``KeyedStream.print(identifier)`` ignores the identifier. Values Python cannot show as Flink
does keep their NOTE (F2S212: Flink prints a Java array's identity).

On an unbounded stream the program model plans as a streaming DataFrame (a Kafka source of
strings or JSON/CSV rows, a monitored folder: ``StreamFacts.frame``) the print is the console
sink, ``writeStream.format("console")`` with every row and every character of each micro-batch
(``numRows`` Int.MaxValue, ``truncate`` false) and a checkpoint location (NOTE F2S251): Spark's
``show()`` table per micro-batch, no ``identifier> `` prefix, the same records.

On an unbounded (Kafka) stream kept as micro-batches of an RDD the print is a streaming query: ``f2s_stream.foreach_batch(stream,
print_<identifier>)`` with a checkpoint location, started where the print stands (NOTE F2S253,
F2S251), and ``print_<identifier>`` a function defined before it that prints each micro-batch's
records in the driver the same way (tests/test_pyflink_streaming.py compares records per sink).

The loop is a statement: a ``print()`` whose value is used (its ``DataStreamSink``), or where
``print`` is not Python's builtin, keeps a TODO. The print runs where it stands (a Spark
action), not at ``env.execute()``.
"""

import json

import libcst as cst

from flink2spark.rules.pyflink import _kafka as K

from flink2spark.rules.pyflink._common import as_stream, container_notes, program, spark_program, unsupported_reason, unsupported_types
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler import source as S
from flink2spark.transpiler.registry import Example, Rule

_NOT_A_STATEMENT = (
    "print() whose value is used, or where print is not Python's: print the records with"
    " `for record in rdd.collect(): print(record)`"
)


rule = Rule(
    __name__,
    matches=["DataStream.print"],
    summary="print([identifier]) -> df.show(2147483647, truncate=False) on a DataFrame (a streaming one: writeStream.format('console')); for record in rdd.collect(): print(record) on an RDD (native: Python's record format); unbounded: foreach_batch(stream, print_<id>), print(record) per micro-batch",
    codes=(M.PF_UNSUPPORTED, M.PF_MAP_ORDER, M.PF_ARRAY_PRINT, M.PF_MICRO_BATCH, M.PF_CHECKPOINT),
    examples=[
        Example(  # a DataFrame (the program model's frame form): every record, Spark's row format
            program(
                "rows = env.from_collection([(1, 'a')], Types.ROW([Types.INT(), Types.STRING()]))\n"
                "rows.print('rows')\n",
                imports="from pyflink.common import Types\n",
            ),
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'rows = env.createDataFrame([(1, "a")], "f0 INT, f1 STRING")\n'
            "rows.show(2147483647, truncate=False)\n",
        ),
        Example(
            program(
                "pairs = env.from_collection([('a', 1)], type_info=Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "pairs.print('pairs')\n"
                "pairs.map(lambda p: p[1] * 2.5, output_type=Types.DOUBLE()).print()\n"
                "pairs.key_by(lambda p: p[0]).map(lambda p: p[1]).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            'from pyspark.sql import SparkSession, functions as F\n'
            '\n'
            'env = SparkSession.builder.getOrCreate()\n'
            'pairs = env.createDataFrame([("a", 1)], "f0 STRING, f1 INT")\n'
            'pairs.show(2147483647, truncate=False)\n'
            'pairs.select((F.col("f1") * 2.5).alias("value")).show(2147483647, truncate=False)\n'
            'pairs.select(F.col("f1").alias("value")).show(2147483647, truncate=False)\n',
        ),
        Example(
            program(
                "words = env.from_collection(['a'])\n"
                "words.map(lambda w: {w: 1}, output_type=Types.MAP(Types.STRING(), Types.INT())).print()\n"
                "words.map(lambda w: w.encode(), output_type=Types.PRIMITIVE_ARRAY(Types.BYTE())).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            spark_program(
                'words = env.sparkContext.parallelize(["a"])\n'
                "for record in words.map(lambda w: {w: 1}).collect():\n"
                "    print(record)\n"
                "# NOTE(flink2spark): F2S212 print() of Types.PRIMITIVE_ARRAY() values: Flink's sink prints the Java"
                " array's identity ([B@1b2c3d, [I@5e6f7a), the converted program the values as Python prints them (b'...', [1, 2])\n"
                "for record in words.map(lambda w: w.encode()).collect():\n"
                "    print(record)\n",
                rdd='the source `.from_collection()` at line 5 has no type_info (no DataFrame schema)',
            ),
        ),
        Example(  # the sink used as a value: no loop can stand there
            program("words = env.from_collection(['a'])\nsink = words.print()\n"),
            spark_program(
                'words = env.sparkContext.parallelize(["a"])\n'
                "# TODO(flink2spark): F2S200 " + _NOT_A_STATEMENT + "\n"
                "sink = words.print()\n",
                rdd="the source `.from_collection()` at line 4 has no type_info (no DataFrame schema)",
            ),
        ),
        Example(  # an unbounded (Kafka) stream: a function printing each micro-batch's records, Python's format
            program(
                "source = KafkaSource.builder().set_bootstrap_servers('kafka:9092').set_topics('words').set_value_only_deserializer(SimpleStringSchema()).build()\n"
                "words = env.from_source(source, WatermarkStrategy.no_watermarks(), 'words')\n"
                "words.map(lambda w: (w, len(w))).print('sizes')\n"
                'env.execute()\n',
                imports='from pyflink.common import SimpleStringSchema, WatermarkStrategy\nfrom pyflink.datastream.connectors.kafka import KafkaSource\n',
            ),
            'from flink2spark.runtime import streaming as f2s_stream\n'
            'from pyspark.sql import SparkSession, functions as F\n'
            '\n'
            'env = SparkSession.builder.getOrCreate()\n'
            '# NOTE(flink2spark): F2S250 the Kafka connector is not part of PySpark: run with spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<your Spark version>\n'
            'words = (\n'
            '    env.readStream.format("kafka")\n'
            '    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("subscribe", "words")\n'
            '    .option("startingOffsets", "earliest")\n'
            '    .load()\n'
            '    .select(F.col("value").cast("string").alias("value"))\n'
            ')\n'
            '# NOTE(flink2spark): F2S251 streaming query checkpoint: f2s_stream.checkpoint() is a fresh temporary folder per run (the job starts from its starting offsets, as a newly submitted Flink job); set F2S_CHECKPOINT_DIR to a durable folder to resume across runs\n'
            'words.select(\n'
            '    F.col("value").alias("f0"), F.char_length(F.col("value")).alias("f1")\n'
            ').writeStream.format("console").option("numRows", 2147483647).option(\n'
            '    "truncate", False\n'
            ').option("checkpointLocation", f2s_stream.checkpoint("print")).start()\n'
            'f2s_stream.await_termination(env)\n',
        ),
        Example(  # an unbounded stream the program model plans as a streaming DataFrame: the console sink
            program(
                "source = KafkaSource.builder().set_bootstrap_servers('kafka:9092').set_topics('words').set_value_only_deserializer(SimpleStringSchema()).build()\n"
                "words = env.from_source(source, WatermarkStrategy.no_watermarks(), 'words')\n"
                "words.filter(lambda w: w.startswith('a')).print('a-words')\n"
                'env.execute()\n',
                imports='from pyflink.common import SimpleStringSchema, WatermarkStrategy\nfrom pyflink.datastream.connectors.kafka import KafkaSource\n',
            ),
            'from flink2spark.runtime import streaming as f2s_stream\nfrom pyspark.sql import SparkSession, functions as F\n\n'
            'env = SparkSession.builder.getOrCreate()\n'
            '# NOTE(flink2spark): F2S250 ' + K.PACKAGE_NOTE + '\n'
            'words = (\n    env.readStream.format("kafka")\n    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("subscribe", "words")\n    .option("startingOffsets", "earliest")\n    .load()\n'
            '    .select(F.col("value").cast("string").alias("value"))\n)\n'
            '# NOTE(flink2spark): F2S251 ' + K.CHECKPOINT_NOTE + '\n'
            'words.where(F.col("value").startswith("a")).writeStream.format("console").option(\n    "numRows", 2147483647\n'
            ').option("truncate", False).option(\n    "checkpointLocation", f2s_stream.checkpoint("print")\n).start()\n'
            'f2s_stream.await_termination(env)\n',
        ),
    ],
    noop=["class Report:\n    def print(self, label=None):\n        return label\n\n\nReport().print('x')\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if facts(ctx.resolver, seg.original.func.value).frame is not None and facts(ctx.resolver, seg.original.func.value).micro_batches:  # type: ignore[attr-defined]
        if ctx.statement_line is None:
            return ctx.todo(M.PF_UNSUPPORTED, _NOT_A_STATEMENT)
        # a streaming DataFrame: the console sink, each micro-batch's records as show() prints them
        console = ctx.expr(
            '{df}.writeStream.format("console").option("numRows", 2147483647).option("truncate", False)', df=ctx.site.receiver
        )
        return K.streaming_query(ctx, console, "print")
    frame = facts(ctx.resolver, seg.original.func.value).frame  # type: ignore[attr-defined]
    if frame is not None:
        df = ctx.site.receiver
        if frame.kind == "untyped":  # records of a function with no output_type: PyFlink prints str() of each
            from flink2spark.transpiler import imports as I

            I.need(ctx.conv.codemod, "flink2spark.runtime", "frame_process", "f2s_process")
            df = ctx.expr("f2s_process.as_text({df})", df=df)
        # every record, in Spark's own format (show() prints 20 rows by default; its maximum
        # is Int.MaxValue), values not cut
        return ctx.expr("{df}.show(2147483647, truncate=False)", df=df)
    stream = as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type)
    if facts(ctx.resolver, seg.original.func.value).timestamped:  # type: ignore[attr-defined]
        stream = ctx.expr("{s}.values()", s=stream)  # (timestamp, value) pairs: the values
    t = facts(ctx.resolver, seg.original.func.value).element_type  # type: ignore[attr-defined]
    if isinstance(t, cst.BaseExpression):
        unsupported = unsupported_types(ctx.resolver, t)
        if unsupported:
            return ctx.todo(M.PF_UNSUPPORTED, f"print() of Types.{unsupported[0]}() values: {unsupported_reason(unsupported[0])}")
    container_notes(ctx, t, printed=True)
    identifier = ctx.arg(seg, 0, "sink_identifier")
    label = _label(identifier[1]) if identifier is not None and ctx.site.receiver_type != P.KEYED else None  # KeyedStream.print drops it
    if facts(ctx.resolver, seg.original.func.value).micro_batches:  # type: ignore[attr-defined]
        if K.streaming_todo(ctx, seg.original.func.value):  # type: ignore[attr-defined]
            return ctx.todo_left()
        printer = _batch_printer(ctx, identifier[1] if identifier is not None and ctx.site.receiver_type != P.KEYED else None)
        if printer is None:
            return ctx.todo(M.PF_UNSUPPORTED, _NOT_A_STATEMENT)
        return K.streaming_sink(ctx, stream, "print", function=printer)
    collected = ctx.print_loop(stream, lambda record: [cst.Arg(label), cst.Arg(record)] if label is not None else [cst.Arg(record)])
    if collected is None:
        return ctx.todo(M.PF_UNSUPPORTED, _NOT_A_STATEMENT)
    return collected


def _label(identifier: cst.BaseExpression) -> cst.BaseExpression:
    """What ``print`` writes before a record for Flink's ``identifier> `` prefix: ``"name>"``
    (``print`` puts the space), ``f"{identifier}>"`` for an expression."""
    if isinstance(identifier, cst.SimpleString):
        return cst.SimpleString(json.dumps(identifier.evaluated_value + ">"))
    return cst.parse_expression('f"{IDENTIFIER}>"').visit(_Identifier(identifier))  # type: ignore[return-value]


class _Identifier(cst.CSTTransformer):
    def __init__(self, value: cst.BaseExpression) -> None:
        self.value = value

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.value if original.value == "IDENTIFIER" else updated


def _batch_printer(ctx, identifier):
    """The name of a function printing a micro-batch's records (``print(record)``, after
    ``"name>"`` for an identifier), defined before the print's statement (None: the print is
    not a statement of its own, or ``print`` is not Python's there)."""
    line = ctx.statement_line
    if line is None:
        return None
    bindings = ctx.resolver.visible_bindings("print", ctx.site.head.original.func.value)
    if bindings is None or any(not ctx.resolver.is_builtin(b) for b in bindings):
        return None
    label = identifier.evaluated_value if isinstance(identifier, cst.SimpleString) else None
    # one function per block and printed form: a later print in the same block calls the same one
    key = (id(ctx.resolver.parent(line)), label, identifier is None)
    defined = ctx.conv.__dict__.setdefault("_batch_printers", {})
    if key in defined and (label is not None or identifier is None):
        return cst.Name(defined[key])
    name = S.free_name("print_" + label if label and label.isidentifier() else "print_batch")
    if name in defined.values():  # another form in this file: its own name
        name = S.free_name(name + "_" + str(len(defined)))
    defined[key] = name
    args = [cst.Arg(_label(identifier)), cst.Arg(cst.Name("record"))] if identifier is not None else [cst.Arg(cst.Name("record"))]
    printed = cst.SimpleStatementLine([cst.Expr(cst.Call(func=cst.Name("print"), args=args))])
    function = cst.parse_statement(f"def {name}(batch):\n    for record in batch.collect():\n        pass\n")
    loop = function.body.body[0]  # type: ignore[attr-defined]
    function = function.with_changes(body=function.body.with_changes(body=[loop.with_changes(body=loop.body.with_changes(body=[printed]))]))  # type: ignore[attr-defined]
    ctx.rewrite_statement(line, lambda new: cst.FlattenSentinel([function, new]))
    return cst.Name(name)
