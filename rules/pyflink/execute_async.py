"""``env.execute_async([job_name])`` is dropped with a NOTE: the converted sinks are Spark
actions that ran where they stand, so the job has finished (synchronously) when the program
reaches this point. Using the ``JobClient`` it returns (job id, status, cancel, waiting for the
result) has no counterpart: TODO.
"""

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.convert import REMOVE
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["StreamExecutionEnvironment.execute_async"],
    summary="env.execute_async(name) -> removed (NOTE: the Spark actions ran synchronously); JobClient used: TODO",
    exact=False,
    codes=(M.PF_ASYNC, M.PF_EXEC_RESULT),
    examples=[
        Example(
            program("env.from_collection([1]).print()\nenv.execute_async('job')\n"),
            spark_program(
                "f2s.print(env.sparkContext.parallelize([1]))\n"
                "# NOTE(flink2spark): F2S245 execute_async(): the converted job's actions already ran, synchronously,"
                " where its sinks stand\n",
                shim=True,
            ),
        ),
        Example(
            program("client = env.execute_async('job')\n"),
            spark_program(
                "# TODO(flink2spark): F2S206 execute_async() result used: Spark has no JobClient; the actions run synchronously\n"
                "client = env.execute_async(\"job\")\n"
            ),
        ),
    ],
    noop=["class Job:\n    def execute_async(self, name=None):\n        pass\n\n\nJob().execute_async('job')\n"],
)


@rule.converter
def convert(ctx):
    if not ctx.is_statement:
        ctx.todo(M.PF_EXEC_RESULT, "execute_async() result used: Spark has no JobClient; the actions run synchronously")
        return None
    ctx.note(M.PF_ASYNC, "execute_async(): the converted job's actions already ran, synchronously, where its sinks stand")
    return REMOVE
