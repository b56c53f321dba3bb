"""``result.print()`` / ``result.collect()`` of a query's TableResult kept in a name
(``result = t_env.execute_sql("SELECT ...")``, ``result = table.execute()``): when the program
model's ``kept_query`` says the name keeps the DataFrame (the rules of ``execute_sql`` and
``execute`` leave it there), ``print()`` -> a ``show`` of every row (as ``execute().print()``),
``collect()`` -> ``df.collect()`` (``contextlib.nullcontext`` of it in a ``with``). The rows of
a streaming query's ``collect()`` iterated by a for loop whose body can run per row
(``_program.stream_loop``): a function of that loop over each micro-batch's rows, given to
``writeStream.foreachBatch``, started and awaited (NOTE F2S337). Otherwise a TODO, as the call
the result comes from keeps its own.
"""

import libcst as cst

from flink2spark.rules.table._common import program, spark_program
from flink2spark.rules.table._program import tables
from flink2spark.rules.table.execute import collected, show, stream_rows
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import table_model as T
from flink2spark.transpiler.registry import Example, Rule

STREAM_LOOP = ("t_env.execute_sql(\"CREATE TABLE clicks (u STRING) WITH ('connector' = 'kafka', 'topic' = 'clicks', "
               "'properties.bootstrap.servers' = 'k:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')\")\n"
               "result = t_env.from_path('clicks').execute()\n"
               "with result.collect() as rows:\n    for row in rows:\n        print(row[0])\n")

rule = Rule(
    __name__,
    matches=["TableResult.print", "TableResult.collect"],
    summary="result.print()/collect() of a kept query's TableResult -> show/collect of the DataFrame the name keeps",
    codes=(M.TB_UNSUPPORTED, M.TB_CHANGELOG, M.TB_STREAM_COLLECT),
    examples=[
        Example(
            program("result = t_env.execute_sql('SELECT 1 AS n')\nresult.print()\n"),
            spark_program('result = t_env.sql("SELECT 1 AS n")\nresult.show(2147483647, truncate=False)\n'),
        ),
        Example(
            program("words = t_env.from_elements([('a', 1)], ['word', 'n'])\nrows = words.execute()\n"
                    "for row in rows.collect():\n    print(row[0], row[1])\n"),
            spark_program('words = t_env.createDataFrame([("a", 1)], ["word", "n"])\nrows = words\n'
                          "for row in rows.collect():\n    print(row[0], row[1])\n"),
        ),
        Example(  # a streaming query's rows iterated: the loop body per micro-batch in a foreachBatch function
            program(STREAM_LOOP).replace("in_batch_mode", "in_streaming_mode"),
            spark_program(
                "# NOTE(flink2spark): F2S307 Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package (spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>); Flink's json format fails the job on a malformed record ('json.ignore-parse-errors' false), Spark's from_json gives NULL fields there\n"
                't_env.readStream.format("kafka").option("kafka.bootstrap.servers", "k:9092").option(\n'
                '    "subscribe", "clicks"\n'
                ').option("startingOffsets", "earliest").load().selectExpr(\n'
                '    "from_json(CAST(value AS STRING), \'u STRING\') AS value"\n'
                ').selectExpr("value.u").createOrReplaceTempView("clicks")\n'
                'result = t_env.table("clicks")\n'
                '\n'
                '\n'
                "# NOTE(flink2spark): F2S308 streaming query: rows come out per micro-batch (a window's in the micro-batch after the watermark passes its end); the checkpoint is a fresh folder per run, so the query starts from its starting offsets as a newly submitted Flink job: give a durable folder to resume across runs\n"
                "# NOTE(flink2spark): F2S337 the loop over the streaming query's rows runs in for_each_batch for each micro-batch's rows, in no set order within one (Flink's arrive one by one); it never ends in either\n"
                'def for_each_batch(batch, batch_id):\n'
                '    for row in batch.collect():\n'
                '        print(row[0])\n'
                '\n'
                '\n'
                'result.writeStream.foreachBatch(for_each_batch).option(\n'
                '    "checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")\n'
                ').outputMode("append").start().awaitTermination()\n',
                imports="import tempfile\n",
            ),
        ),
        Example(  # a break ends Flink's loop: no function per micro-batch gives that
            program(STREAM_LOOP.replace("print(row[0])", "if row[0] == 'stop':\n            break\n        print(row[0])"))
            .replace("in_batch_mode", "in_streaming_mode"),
            spark_program(
                "# NOTE(flink2spark): F2S307 Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package (spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>); Flink's json format fails the job on a malformed record ('json.ignore-parse-errors' false), Spark's from_json gives NULL fields there\n"
                't_env.readStream.format("kafka").option("kafka.bootstrap.servers", "k:9092").option(\n'
                '    "subscribe", "clicks"\n'
                ').option("startingOffsets", "earliest").load().selectExpr(\n'
                '    "from_json(CAST(value AS STRING), \'u STRING\') AS value"\n'
                ').selectExpr("value.u").createOrReplaceTempView("clicks")\n'
                "# TODO(flink2spark): F2S300 Table.execute() whose result is kept: a streaming query (it reads an unbounded table): Flink's TableResult gives its rows as they come, without end; Spark's collect() refuses a streaming DataFrame (port the use of the rows to writeStream.foreachBatch); the body of the loop over its rows holds a break (it cannot run as a function per micro-batch)\n"
                'result = t_env.table("clicks").execute()\n'
                "# TODO(flink2spark): F2S300 TableResult.collect(): a streaming query (it reads an unbounded table): Flink's TableResult gives its rows as they come, without end; Spark's collect() refuses a streaming DataFrame (port the use of the rows to writeStream.foreachBatch); the body of the loop over its rows holds a break (it cannot run as a function per micro-batch)\n"
                'with result.collect() as rows:\n'
                '    for row in rows:\n'
                "        if row[0] == 'stop':\n"
                '            break\n'
                '        print(row[0])\n',
            ),
        ),
    ],
    noop=["import queue\n\nresults = queue.Queue()\nresults.put(1)\nprint(results.get())\n"],
)


def _result_call(resolver, receiver) -> "cst.Call | None":
    """The ``execute_sql(...)`` / ``Table.execute()`` call a name holds the TableResult of."""
    value = resolver.single_value(receiver) if isinstance(receiver, cst.Name) else None
    if not (isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute)):
        return None
    method, typ = value.func.attr.value, resolver.type_of(value.func.value)
    if (method, typ) in (("execute_sql", T.TABLE_ENV), ("execute_sql", T.STREAM_TABLE_ENV), ("execute", T.TABLE)):
        return value
    return None


@rule.converter
def convert(ctx):
    head = ctx.site.head
    call = _result_call(ctx.resolver, head.original.func.value)
    kept = tables(ctx.resolver).kept_query(call) if call is not None else None
    if kept is None or kept.problem is not None or kept.use is not head.original:
        why = kept.problem if kept is not None else "a TableResult this conversion does not follow"
        return ctx.todo(M.TB_UNSUPPORTED, f"TableResult.{head.method}(): {why}")
    if head.method == "print":
        return show(ctx, ctx.site.receiver, inserts=kept.inserts)
    if kept.loop is not None:
        return stream_rows(ctx, ctx.site.receiver, kept.loop)
    return collected(ctx, ctx.site.receiver)
