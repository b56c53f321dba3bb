"""``env.execute(local=...)`` is dropped: Spark runs each sink's action where the sink is.

Flink builds a plan and runs all sinks at ``execute()``; the converted sinks are Spark actions
that run in program order, so the sinks of each plan run before the point where Flink's
``execute()`` stood, in the same order relative to the program's other output.
"""

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.convert import REMOVE
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Environment.execute"],
    summary="env.execute(local=...) -> removed (sinks are Spark actions)",
    codes=(M.DS_EXEC_RESULT,),
    examples=[
        Example(
            program("numbers = env.from_elements(1)\n# run it\nenv.execute(local=True)\n"),
            spark_program("numbers = env.sparkContext.parallelize([1])\n# run it\n"),
        ),
        Example(
            program("if True:\n    env.execute()\n"),
            spark_program("if True:\n    pass\n"),
        ),
    ],
    noop=["class Job:\n    def execute(self, local=False):\n        pass\n\n\nJob().execute(local=True)\n"],
)


@rule.converter
def convert(ctx):
    if not ctx.is_statement:
        return ctx.todo(M.DS_EXEC_RESULT, "execute() result used: Spark has no JobExecutionResult; time the actions instead")
    return REMOVE
