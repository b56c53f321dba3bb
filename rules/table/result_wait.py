"""``result.wait()`` of a TableResult kept in a name (``result = t.execute_insert("sink")``,
``t_env.execute_sql("INSERT ...")``): removed. Spark runs a write or a query to its end where
it is called, so there is nothing left to wait for; the rule converting the call drops the name
when waiting is all it is used for (``_common.waited_result``). A result kept for more than
waiting, of an insert over an unbounded table, holds the started streaming query: its
``wait()`` -> ``awaitTermination()`` (the program model's ``streaming_insert``).
"""

import libcst as cst

from flink2spark.rules.table._common import program, spark_program, waited_line
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import REMOVE

rule = Rule(
    __name__,
    matches=["TableResult.wait"],
    summary="result.wait() of a kept TableResult -> removed (Spark's writes and queries run to their end where called); "
            "of a kept streaming insert -> awaitTermination()",
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
    ],
    noop=["import threading\n\ndone = threading.Event()\ndone.wait(0.1)\n"],
)


@rule.converter
def convert(ctx):
    receiver = ctx.site.head.original.func.value
    if ctx.is_statement and isinstance(receiver, cst.Name):
        value = ctx.resolver.single_value(receiver)
        if isinstance(value, cst.Call) and tables(ctx.resolver).streaming_insert(value) and waited_line(ctx.resolver, value) is None:
            # the name keeps the started streaming query (its insert is not awaited where it
            # starts, the result being used for more than waiting): Flink's program waits here
            return ctx.expr("{query}.awaitTermination()", query=ctx.site.receiver)
        return REMOVE
    return ctx.todo(M.TB_UNSUPPORTED, "TableResult.wait() used as a value (Spark's writes and queries end where they are called)")
