"""``result.wait()`` of a TableResult kept in a name (``result = t.execute_insert("sink")``,
``t_env.execute_sql("INSERT ...")``): removed. Spark runs a write or a query to its end where
it is called, so there is nothing left to wait for; the rule converting the call drops the name
when waiting is all it is used for (``_common.waited_result``). A result kept for more than
waiting, of an insert over an unbounded table, holds the started streaming query: its
``wait()`` -> ``awaitTermination()`` (the program model's ``streaming_insert``).

``result.get_job_client().get_job_execution_result().result()`` as a statement waits for the
job's end as ``wait()`` does: the same conversion. Other uses of the job client (its status, id,
``cancel()``) are left with a TODO: Spark's converted job has ended where it was called.
"""

import libcst as cst

from flink2spark.rules.table._common import JOB_WAIT, program, spark_program, waited_line
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import REMOVE

rule = Rule(
    __name__,
    matches=["TableResult.wait", "TableResult.get_job_client"],
    summary="result.wait() (or result.get_job_client().get_job_execution_result().result()) of a kept TableResult -> "
            "removed (Spark's writes and queries run to their end where called); of a kept streaming insert -> awaitTermination()",
    codes=(M.TB_UNSUPPORTED,),
    examples=[
        Example(
            program(
                "t_env.execute_sql(\"CREATE TABLE totals (w STRING) WITH ('connector' = 'blackhole')\")\n"
                "result = t_env.from_elements([('a',)], ['w']).execute_insert('totals')\n"
                "result.wait()\n"
            ),
            spark_program('t_env.createDataFrame([("a",)], ["w"]).write.format("noop").mode("overwrite").save()\n'),
        ),
        Example(
            program(
                "t_env.execute_sql(\"CREATE TABLE totals (w STRING) WITH ('connector' = 'blackhole')\")\n"
                "result = t_env.execute_sql(\"INSERT INTO totals VALUES ('a')\")\n"
                "result.get_job_client().get_job_execution_result().result()\n"
            ),
            spark_program('t_env.sql("VALUES (\'a\')").write.format("noop").mode("overwrite").save()\n'),
        ),
    ],
    noop=["import threading\n\ndone = threading.Event()\ndone.wait(0.1)\n"],
)


# what a program does with the status (PyFlink 2.3's pyflink/common/job_client.py,
# completable_future.py; Spark 4's pyspark/sql/streaming/query.py)
_STATUS = ("; nor does StreamingQuery.status behave as it: get_job_status() is a CompletableFuture, printed as the Java"
           " future's text (java.util.concurrent.CompletableFuture@...[Completed normally]), its result() a JobStatus"
           " (RUNNING...), and a job submitted to a cluster runs on after the client's program returns, where Spark's"
           " status is a dict ({'message': ..., 'isDataAvailable': ..., 'isTriggerActive': ...}) and a streaming query"
           " stops when the driver's program returns without awaitTermination()")


@rule.converter
def convert(ctx):
    if ctx.site.head.method == "get_job_client" and not (ctx.is_statement and tuple(s.method for s in ctx.site.segments) == JOB_WAIT):
        used = "".join(f".{s.method}()" for s in ctx.site.segments)
        return ctx.todo(M.TB_UNSUPPORTED, f"TableResult{used}: Spark has no job client (only the job's wait,"
                        " get_job_client().get_job_execution_result().result() as a statement, converts); a converted"
                        " query or write has run to its end where it is called, so there is no job status, id or cancel()"
                        " to ask for (a streaming query's StreamingQuery has id, status and stop())"
                        + (_STATUS if used.endswith(".get_job_status()") else ""))
    receiver = ctx.site.head.original.func.value
    if ctx.is_statement and isinstance(receiver, cst.Name):
        value = ctx.resolver.single_value(receiver)
        if isinstance(value, cst.Call) and tables(ctx.resolver).streaming_insert(value) and waited_line(ctx.resolver, value) is None:
            # the name keeps the started streaming query (its insert is not awaited where it
            # starts, the result being used for more than waiting): Flink's program waits here
            return ctx.expr("{query}.awaitTermination()", query=ctx.site.receiver)
        return REMOVE
    return ctx.todo(M.TB_UNSUPPORTED, "TableResult.wait() used as a value (Spark's writes and queries end where they are called)")
