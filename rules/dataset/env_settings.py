"""Environment settings with no Spark counterpart in the program: parallelism, retries, types.

* ``set_parallelism(1)`` is dropped exactly (Spark does not need it); another value is dropped
  with a NOTE: Flink's parallelism also fixed how many files a sink wrote.
* ``set_number_of_execution_retries(n)`` is dropped with a NOTE (Spark retries failed tasks,
  ``spark.task.maxFailures``).
* ``register_type(cls, serializer, deserializer)`` is dropped: PySpark pickles any Python object.
"""

import libcst as cst

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.convert import REMOVE
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=[
        "Environment.set_parallelism",
        "Environment.set_number_of_execution_retries",
        "Environment.register_type",
        "Environment.get_parallelism",
        "Environment.get_number_of_execution_retries",
        "Environment.set_degree_of_parallelism",
        "Environment.get_degree_of_parallelism",
    ],
    summary="environment settings: dropped (parallelism, retries, custom type serializers)",
    exact=False,
    codes=(M.DS_PARALLELISM, M.DS_RETRIES),
    examples=[
        Example(program("env.register_type(Point, s, d)\n"), spark_program("")),
        Example(
            program("env.set_parallelism(4)\n"),
            "from pyspark.sql import SparkSession\n\n"
            'env = SparkSession.builder.config("spark.default.parallelism", "4").getOrCreate()\n'
            "# NOTE(flink2spark): F2S105 parallelism moved to spark.default.parallelism in the SparkSession builder;"
            " Flink's parallelism also decided how many files each sink wrote (the shim writes one)\n",
        ),
        Example(
            "from flink.plan.Environment import get_environment\n\n\n"
            "def configure(env):\n    env.set_degree_of_parallelism(1)\n\n\nconfigure(get_environment())\n",
            "from pyspark.sql import SparkSession\n\n\n"
            "def configure(env):\n"
            "    # NOTE(flink2spark): F2S105 parallelism setting dropped; Spark sizes partitions from the cluster"
            " (Flink's parallelism also decided how many files each sink wrote)\n"
            "    pass\n\n\nconfigure(SparkSession.builder.getOrCreate())\n",
        ),
    ],
    noop=["class Pool:\n    def set_parallelism(self, n):\n        pass\n\n\nPool().set_parallelism(4)\n"],
)


def _folded_into_builder(ctx) -> bool:
    """Whether the environment rule moved this setting into ``SparkSession.builder.config``."""
    env = ctx.site.receiver
    if not isinstance(ctx.site.head.original.func.value, cst.Name):
        return False
    value = ctx.resolver.single_value(ctx.site.head.original.func.value)
    if not isinstance(value, cst.Call):
        return False
    return ctx.resolver.qualified_name(value.func) in ("flink.plan.Environment.get_environment",)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    env = ctx.site.receiver
    if seg.method in ("get_parallelism", "get_degree_of_parallelism"):
        ctx.note(M.DS_PARALLELISM, "Spark's default parallelism stands for Flink's")
        return ctx.expr("{env}.sparkContext.defaultParallelism", env=env)
    if seg.method == "get_number_of_execution_retries":
        ctx.note(M.DS_RETRIES, "reads spark.task.maxFailures")
        return ctx.expr('int({env}.sparkContext.getConf().get("spark.task.maxFailures", "4"))', env=env)
    if not ctx.is_statement:
        return ctx.todo(M.DS_UNSUPPORTED, f"the result of {seg.method}() is used")
    if seg.method in ("set_parallelism", "set_degree_of_parallelism"):
        found = ctx.arg(seg, 0)
        folded = _folded_into_builder(ctx)
        if not folded:
            ctx.note(
                M.DS_PARALLELISM,
                "parallelism setting dropped; Spark sizes partitions from the cluster"
                " (Flink's parallelism also decided how many files each sink wrote)",
            )
        elif found is None or ctx.int_literal(found[0]) != 1:
            ctx.note(
                M.DS_PARALLELISM,
                "parallelism moved to spark.default.parallelism in the SparkSession builder;"
                " Flink's parallelism also decided how many files each sink wrote (the shim writes one)",
            )
    elif seg.method == "set_number_of_execution_retries":
        ctx.note(M.DS_RETRIES, "execution retries dropped; Spark retries failed tasks (spark.task.maxFailures)")
    return REMOVE
