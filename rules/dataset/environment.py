"""``get_environment()`` -> a SparkSession.

The converted program keeps the user's variable name (usually ``env``); it now holds a
SparkSession, and sources use ``env.sparkContext`` for RDDs.
"""

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["flink.get_environment"],
    summary="get_environment() -> SparkSession.builder.getOrCreate()",
    examples=[
        Example(program("env.from_elements(1).output()\n"), spark_program("f2s.output(env.sparkContext.parallelize([1]))\n", shim=True)),
        Example(
            "import flink.plan.Environment as flink_env\n\nenv = flink_env.get_environment()\n",
            "from pyspark.sql import SparkSession\n\nenv = SparkSession.builder.getOrCreate()\n",
        ),
    ],
    noop=[
        "from myproject.env import get_environment\n\nenv = get_environment()\n",
        "def get_environment():\n    return {}\n\n\nenv = get_environment()\n",
    ],
)


@rule.converter
def convert(ctx):
    session = ctx.import_name("pyspark.sql", "SparkSession")
    return ctx.expr("{s}.builder.getOrCreate()", s=session)
