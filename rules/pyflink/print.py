"""``print([identifier])`` -> ``df.show(2147483647, truncate=False)`` / ``f2s.print(stream, type_info, identifier=...)``.

A stream the program model lowers to a DataFrame (``StreamFacts.frame``) is shown with
Spark's own row format: ``show()`` with the largest row count it takes (``Int.MaxValue``; its
default is 20 rows) prints every record, ``truncate=False`` every character of the values.
The records are Flink's; the layout (a box, no ``identifier> `` prefix) is Spark's. On an RDD:

Flink prints each element in a format that depends on the stream's type (PyFlink 2.3,
``DataStream._align_output_type`` and Java's ``PrintSinkFunction``):

* no type (pickled): Python's ``str(value)`` (``('tail', 19)``, strings as they are);
* ``Types.ROW``/``ROW_NAMED``: ``+I[101,keyboard,49.5]`` (row kind, fields by ``str``, no spaces);
* ``Types.TUPLE``: Java's ``Tuple.toString``, ``(keyboard,101)``;
* basic types: Java's ``toString`` (``19.0``, ``1.0E-5``, ``true``).

The stream's type is followed through the program (``type_info``/``output_type`` of the
operator that made it; ``filter``, ``key_by``, ``reduce``... keep it) and passed to the shim,
which collects the stream and prints every element that way. Where the type cannot be followed
the elements are printed with ``str()`` and a NOTE says so.

Lines are those of Flink at parallelism 1: ``identifier> `` before each record when an
identifier is given, never the ``N> `` subtask prefix Flink adds at higher parallelism (its
number depends on which subtask printed the record; compare outputs without it). As in PyFlink,
``KeyedStream.print(identifier)`` ignores the identifier.

On an unbounded (Kafka) stream the print is a streaming query: ``f2s_stream.foreach_batch(stream,
print_<identifier>)`` with a checkpoint location, started where the print stands (NOTE F2S253,
F2S251), and ``print_<identifier>`` a function defined before it that prints each micro-batch's
records in the driver with Python's ``print(record)`` (after ``"identifier>"``): the same records
as Flink's, in Spark's (Python's) format rather than Flink's per-type one, so no type is needed
(tests/test_pyflink_streaming.py compares records per sink). Where the print is not a statement
of its own (or ``print`` is not Python's there) the shim's ``f2s.print`` prints in Flink's format.
The print runs where it stands (a Spark action), not at ``env.execute()``.
"""

import json

import libcst as cst

from flink2spark.rules.pyflink import _kafka as K

from flink2spark.rules.pyflink._common import as_stream, container_notes, program, spark_program, type_expression, unsupported_reason, unsupported_types
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler import source as S
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.print"],
    summary="print([identifier]) -> df.show(2147483647, truncate=False) on a DataFrame; f2s.print(rdd, type_info, identifier=...) on an RDD (Flink's format per type); unbounded: foreach_batch(stream, print_<id>), print(record) per micro-batch",
    codes=(M.PF_PRINT_TYPE, M.PF_UNSUPPORTED, M.PF_MAP_ORDER, M.PF_ARRAY_PRINT, M.PF_MICRO_BATCH, M.PF_CHECKPOINT),
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
            spark_program(
                "pairs = env.sparkContext.parallelize(\n"
                '    f2s.typed([("a", 1)], f2s.Types.TUPLE([f2s.Types.STRING(), f2s.Types.INT()]))\n'
                ")\n"
                "f2s.print(\n"
                '    pairs, f2s.Types.TUPLE([f2s.Types.STRING(), f2s.Types.INT()]), identifier="pairs"\n'
                ")\n"
                "f2s.print(pairs.map(lambda p: p[1] * 2.5), f2s.Types.DOUBLE())\n"
                "f2s.print(pairs.keyBy(lambda p: p[0]).values().map(lambda p: p[1]))\n",
                shim=True,
                rdd='`.map()` at line 8 has no DataFrame form',
            ),
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
                "f2s.print(\n"
                "    words.map(lambda w: {w: 1}), f2s.Types.MAP(f2s.Types.STRING(), f2s.Types.INT())\n"
                ")\n"
                "# NOTE(flink2spark): F2S212 print() of Types.PRIMITIVE_ARRAY() values: Flink's sink prints the Java"
                " array's identity ([B@1b2c3d, [I@5e6f7a), the converted program the values as Python prints them (b'...', [1, 2])\n"
                "f2s.print(words.map(lambda w: w.encode()), f2s.Types.PRIMITIVE_ARRAY(f2s.Types.BYTE()))\n",
                shim=True,
                rdd='the source `.from_collection()` at line 5 has no type_info (no DataFrame schema)',
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
            'from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\nfrom pyspark.sql import SparkSession, functions as F\n\n# NOTE(flink2spark): F2S205 PyFlink streams become RDDs: Python functions over records run on the RDD API (SparkContext), which Spark Connect does not offer; here because the source `.from_source()` at line 7 has no DataFrame form (a typed from_collection and a bounded text file source have one)\nenv = SparkSession.builder.getOrCreate()\n# NOTE(flink2spark): F2S250 the Kafka connector is not part of PySpark: run with spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<your Spark version>\nwords = f2s_stream.micro_batches(\n    env.readStream.format("kafka")\n    .option("kafka.bootstrap.servers", "kafka:9092")\n    .option("subscribe", "words")\n    .option("startingOffsets", "earliest")\n    .load()\n    .select(F.col("value").cast("string").alias("value")),\n    f2s.Types.STRING(),\n)\n\n\ndef print_sizes(batch):\n    for record in batch.collect():\n        print("sizes>", record)\n\n\n# NOTE(flink2spark): F2S253 unbounded stream: the Python operators run on each micro-batch (foreachBatch), so records come out per micro-batch rather than one at a time; same records\n# NOTE(flink2spark): F2S251 streaming query checkpoint: f2s_stream.checkpoint() is a fresh temporary folder per run (the job starts from its starting offsets, as a newly submitted Flink job); set F2S_CHECKPOINT_DIR to a durable folder to resume across runs\nf2s_stream.foreach_batch(words.map(lambda w: (w, len(w))), print_sizes).option(\n    "checkpointLocation", f2s_stream.checkpoint("print")\n).start()\nf2s_stream.await_termination(env)\n',
        ),
    ],
    noop=["class Report:\n    def print(self, label=None):\n        return label\n\n\nReport().print('x')\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if facts(ctx.resolver, seg.original.func.value).frame is not None:  # type: ignore[attr-defined]
        # every record, in Spark's own format (show() prints 20 rows by default; its maximum
        # is Int.MaxValue), values not cut
        return ctx.expr("{df}.show(2147483647, truncate=False)", df=ctx.site.receiver)
    stream = as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type)
    if facts(ctx.resolver, seg.original.func.value).timestamped:  # type: ignore[attr-defined]
        stream = ctx.expr("{s}.values()", s=stream)  # (timestamp, value) pairs: the values
    t = facts(ctx.resolver, seg.original.func.value).element_type  # type: ignore[attr-defined]
    if isinstance(t, cst.BaseExpression):
        unsupported = unsupported_types(ctx.resolver, t)
        if unsupported:
            return ctx.todo(M.PF_UNSUPPORTED, f"print() of Types.{unsupported[0]}() values: {unsupported_reason(unsupported[0])}")
    container_notes(ctx, t, printed=True)
    known, type_info = type_expression(ctx, t, seg.original)
    if not known:  # a Kafka source whose record type comes from its schema (Avro)
        type_info = K.source_type(ctx, seg.original.func.value)  # type: ignore[attr-defined]
        known = type_info is not None
    if not known:
        ctx.note(M.PF_PRINT_TYPE, "print(): the stream's type could not be followed; elements are printed with str() as for pickled values")
    args = [cst.Arg(stream)]
    if type_info is not None:
        args.append(cst.Arg(type_info))
    identifier = ctx.arg(seg, 0, "sink_identifier")
    if identifier is not None and ctx.site.receiver_type != P.KEYED:  # KeyedStream.print drops it
        args.append(cst.Arg(identifier[1], keyword=cst.Name("identifier")))
    if facts(ctx.resolver, seg.original.func.value).micro_batches:  # type: ignore[attr-defined]
        if K.streaming_todo(ctx, seg.original.func.value):  # type: ignore[attr-defined]
            return ctx.todo_left()
        printer = _batch_printer(ctx, identifier[1] if identifier is not None and ctx.site.receiver_type != P.KEYED else None)
        if printer is not None:
            return K.streaming_sink(ctx, stream, "print", function=printer)
        return K.streaming_sink(ctx, stream, "print", lambda batch: cst.Call(func=ctx.shim("print"), args=[cst.Arg(batch), *args[1:]]))
    return cst.Call(func=ctx.shim("print"), args=args)


class _Identifier(cst.CSTTransformer):
    def __init__(self, value: cst.BaseExpression) -> None:
        self.value = value

    def leave_Name(self, original: cst.Name, updated: cst.Name) -> cst.BaseExpression:
        return self.value if original.value == "IDENTIFIER" else updated


def _batch_printer(ctx, identifier):
    """The name of a function printing a micro-batch's records (``print(record)``, after
    ``"name>"`` for an identifier), defined before the print's statement (None: the print is
    not a statement of its own, or ``print`` is not Python's there: the shim prints)."""
    expr = ctx.resolver.parent(ctx.outer)
    line = ctx.resolver.parent(expr) if isinstance(expr, cst.Expr) else None
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
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
    if identifier is None:
        printed = "print(record)"
    elif label is not None:
        printed = f"print({json.dumps(label + '>')}, record)"
    else:
        printed = 'print(f"{IDENTIFIER}>", record)'
    function = cst.parse_statement(f"def {name}(batch):\n    for record in batch.collect():\n        {printed}\n")
    if identifier is not None and label is None:
        function = function.visit(_Identifier(identifier))  # type: ignore[assignment]
    ctx.rewrite_statement(line, lambda new: cst.FlattenSentinel([function, new]))
    return cst.Name(name)
