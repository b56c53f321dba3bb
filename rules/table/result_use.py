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

from flink2spark.rules.table._common import CLICKS_KAFKA_SPARK, STREAM_ROWS_SPARK, program, spark_program, streaming_program
from flink2spark.rules.table._program import tables
from flink2spark.rules.table.execute import collected, show, stream_rows
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import table_model as T
from flink2spark.transpiler.registry import Example, Rule

STREAM_LOOP = "result = t_env.from_path('clicks').execute()\nwith result.collect() as rows:\n    for row in rows:\n        print(row[0])\n"

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
        Example(  # a name bound again after each result's print(): each binding keeps its DataFrame
            program("words = t_env.from_elements([('a', 1)], ['word', 'n'])\nresult = words.execute()\nresult.print()\n"
                    "result = words.filter(words.n > 1).execute()\nresult.print()\n"),
            spark_program('words = t_env.createDataFrame([("a", 1)], ["word", "n"])\nresult = words\n'
                          "result.show(2147483647, truncate=False)\n"
                          'result = words.filter(F.col("n") > F.lit(1))\nresult.show(2147483647, truncate=False)\n',
                          functions=True),
        ),
        Example(  # a streaming query's rows iterated: the loop body per micro-batch in a foreachBatch function
            streaming_program(STREAM_LOOP),
            spark_program(
                CLICKS_KAFKA_SPARK
                + 'result = t_env.table("clicks")\n'
                + STREAM_ROWS_SPARK
                + 'result.writeStream.foreachBatch(for_each_batch).option(\n'
                '    "checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")\n'
                ').outputMode("append").start().awaitTermination()\n',
                imports="import tempfile\n",
            ),
        ),
        Example(  # a break ends Flink's loop: no function per micro-batch gives that
            streaming_program(STREAM_LOOP.replace("print(row[0])", "if row[0] == 'stop':\n            break\n        print(row[0])")),
            spark_program(
                CLICKS_KAFKA_SPARK
                + "# TODO(flink2spark): F2S300 Table.execute() whose result is kept: a streaming query (it reads an unbounded table): Flink's TableResult gives its rows as they come, without end; Spark's collect() refuses a streaming DataFrame (port the use of the rows to writeStream.foreachBatch); the body of the loop over its rows holds a break (it cannot run as a function per micro-batch)\n"
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
    value = tables(resolver).held_value(receiver) if isinstance(receiver, cst.Name) else None
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
