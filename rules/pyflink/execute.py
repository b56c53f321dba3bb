"""``env.execute(job_name)`` is dropped: Spark runs each sink's action where the sink is.

Flink builds a dataflow and runs all sinks at ``execute()``; the converted sinks
(``for record in rdd.collect(): print(record)``, ``df.show()``) are Spark actions that run in program order, so their output appears before
the point where ``execute()`` stood, in the same order relative to the program's other output.

In a program reading an unbounded (Kafka) source, the sinks are streaming queries started where
they stand; ``execute()`` becomes ``f2s_stream.await_termination(env)``, which waits for every
active query to end (at once when none runs, e.g. in a bounded part of the program).
"""

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.rules.pyflink._streams import graph
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.convert import REMOVE
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["StreamExecutionEnvironment.execute"],
    summary="env.execute(name) -> removed (sinks are Spark actions)",
    codes=(M.PF_EXEC_RESULT,),
    examples=[
        Example(
            program('env.from_collection([1]).print()\n# run it\nenv.execute("job")\n'),
            spark_program('env.createDataFrame([1], "bigint").show(2147483647, truncate=False)\n# run it\n', frames=True),
        ),
        Example(
            program("result = env.execute()\n"),
            spark_program(
                "# TODO(flink2spark): F2S206 execute() result used: Spark has no JobExecutionResult; time the actions instead\n"
                "result = env.execute()\n",
                frames=True,
            ),
        ),
    ],
    noop=["class Job:\n    def execute(self, name=None):\n        pass\n\n\nJob().execute('job')\n"],
)


@rule.converter
def convert(ctx):
    if not ctx.is_statement:
        return ctx.todo(M.PF_EXEC_RESULT, "execute() result used: Spark has no JobExecutionResult; time the actions instead")
    if graph(ctx.resolver).reads_unbounded:
        return K.await_queries(ctx, ctx.site.receiver)
    return REMOVE
