"""The buffered inserts of Flink 1.9-1.13's Table API:

- ``table.insert_into("sink")`` and ``t_env.sql_update("INSERT INTO ...")`` only add an insert
  to the environment's job; ``t_env.execute("job name")`` runs the inserts added so far. Spark
  writes at once: the insert becomes the write ``execute_insert("sink")`` becomes (by the sink's
  connector: ``df.write.insertInto("sink")``, a ``show`` for ``print``...) and the
  ``execute(job_name)`` statement is removed: the same rows are written, at the same point
  before the program goes on. An insert no ``execute()`` follows (Flink writes nothing of it)
  keeps a TODO. An insert from an unbounded table (Kafka) is a streaming query, awaited as
  ``execute()`` waits for its job; where several such inserts make one job, each is a query
  started at its insert and the ``execute()`` waits for them all
  (``spark.streams.awaitAnyTermination()``: none of them ends but by failing, which fails
  Flink's job too); with the ``execute()`` in another function, a TODO.
- ``t_env.sql_update("CREATE TABLE ...")`` (DDL runs at once) -> as ``execute_sql``.
"""

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg
from flink2spark.rules.table._common import CLICKS_KAFKA_SPARK, STREAMING_NOTE_SPARK, program, spark_program, streaming_program
from flink2spark.rules.table._program import tables
from flink2spark.rules.table.execute import await_all, write_to
from flink2spark.rules.table import _sql
from flink2spark.rules.table.sql import _statement
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import REMOVE

rule = Rule(
    __name__,
    matches=["Table.insert_into", "TableEnvironment.execute", "TableEnvironment.sql_update"],
    summary="Flink 1.9-1.13: insert_into(sink)/sql_update(INSERT) + t_env.execute(job) -> a write at the insert, execute() removed",
    codes=(M.TB_UNSUPPORTED, M.TB_SQL, M.TB_CONNECTOR, M.TB_CATALOG_TABLE, M.TB_CATALOG_STREAM),
    examples=[
        Example(
            program(
                "t_env.execute_sql(\"CREATE TABLE totals (word STRING) WITH ('connector' = 'print')\")\n"
                "t_env.from_elements([('a',)], ['word']).insert_into('totals')\n"
                "t_env.execute('words')\n"
            ),
            spark_program('t_env.createDataFrame([("a",)], ["word"]).show(2147483647, truncate=False)\n'),
        ),
        Example(  # several streaming inserts of one job: a Spark query each, awaited together where execute() is
            streaming_program(
                "t_env.execute_sql(\"CREATE TABLE seen (u STRING) WITH ('connector' = 'blackhole')\")\n"
                "t_env.from_path('clicks').insert_into('seen')\n"
                "t_env.sql_update(\"INSERT INTO seen SELECT u FROM clicks WHERE u <> ''\")\n"
                "t_env.execute('clicks')\n"
            ),
            spark_program(
                CLICKS_KAFKA_SPARK
                + STREAMING_NOTE_SPARK
                + 't_env.table("clicks").writeStream.format("noop").option(\n'
                '    "checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")\n'
                ').outputMode("append").start()\n'
                + STREAMING_NOTE_SPARK
                + 't_env.sql("SELECT u FROM clicks WHERE u <> \'\'").writeStream.format("noop").option(\n'
                '    "checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")\n'
                ').outputMode("append").start()\n'
                "t_env.streams.awaitAnyTermination()\n",
                imports="import tempfile\n",
            ),
        ),
    ],
    noop=['import subprocess\n\nsubprocess.run(["true"]).check_returncode()\n'],
)

_NOT_RUN = "no t_env.execute() follows it, so Flink writes nothing of it: remove it, or write at once"
_SEVERAL = ("one of several inserts from unbounded tables that a t_env.execute() in another function runs as one "
            "streaming job: Spark needs a query each, started together and then awaited (spark.streams.awaitAnyTermination())")


def _together(model, call) -> tuple[bool, bool]:
    """(the insert ``call`` is one of several streaming inserts of its job, whose execute() is in
    its function: started here, awaited there; it is one whose execute() is elsewhere: a TODO)."""
    job, count = model.streaming_job(call)
    return count > 1 and job is not None, count > 1 and job is None


@rule.converter
def convert(ctx):
    head = ctx.site.head
    model = tables(ctx.resolver)
    if head.method == "execute":
        if not ctx.is_statement:
            return ctx.todo(M.TB_UNSUPPORTED, "the result of TableEnvironment.execute() (a JobExecutionResult) is used")
        if model.streaming_job(head.original)[1] > 1:  # its streaming queries, started at their inserts
            return await_all(ctx, ctx.site.receiver)
        return REMOVE
    if head.method == "insert_into":
        sink = call_arg(head.original, 0, "table_path")
        if not isinstance(sink, cst.SimpleString) or len(head.original.args) != 1:
            return ctx.todo(M.TB_UNSUPPORTED, "insert_into() of a table named by an expression")
        if not model.executed_after(head.original):
            return ctx.todo(M.TB_UNSUPPORTED, f"insert_into(): {_NOT_RUN}")
        if not ctx.is_statement:
            return ctx.todo(M.TB_UNSUPPORTED, "the result of insert_into() is used")
        streaming = not model.bounded(head.original.func.value)
        together, elsewhere = _together(model, head.original)
        if streaming and elsewhere:
            return ctx.todo(M.TB_UNSUPPORTED, f"insert_into(): {_SEVERAL}")
        return write_to(ctx, ctx.site.receiver, sink.evaluated_value, "insert_into()", streaming, wait=not together)
    text = model.sql(head.original.args[0].value if head.original.args else None)
    if text is None:
        return ctx.todo(M.TB_SQL, "sql_update() of SQL text not known when converting")
    try:
        insert = _sql.statement_kind(text.text) == "insert"
    except _sql.Untranslatable as exc:
        return ctx.todo(M.TB_SQL, f"sql_update(): {exc}")
    if insert and not model.executed_after(head.original):
        return ctx.todo(M.TB_UNSUPPORTED, f"sql_update(INSERT ...): {_NOT_RUN}")
    together, elsewhere = _together(model, head.original)
    if insert and _sql.streaming(text.text, model.sql_tables()) and elsewhere:
        return ctx.todo(M.TB_UNSUPPORTED, f"sql_update(INSERT ...): {_SEVERAL}")
    # t_env.execute() runs the job and waits for it: a streaming insert's query is awaited
    # (several of one job: started here, awaited together at the execute())
    return _statement(ctx, ctx.site.receiver, text, "sql_update()", waited=insert and not together)
