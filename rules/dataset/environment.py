"""``get_environment()`` -> a SparkSession.

The converted program keeps the user's variable name (usually ``env``); it now holds a
SparkSession, and sources use ``env.sparkContext`` for RDDs.

A parallelism the program sets on this environment (``env.set_parallelism(n)``) becomes the
session's ``spark.default.parallelism``: Spark fixes it when the SparkContext starts, so it goes
into the builder (the ``set_parallelism`` statement itself is dropped by ``env_settings``).
It applies when this program starts Spark; a session that already exists keeps its setting.
"""

import libcst as cst

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.session import SESSION

rule = Rule(
    __name__,
    matches=["flink.get_environment"],
    summary="get_environment() -> SparkSession.builder.getOrCreate()",
    examples=[
        Example(program("numbers = env.from_elements(1)\n"), spark_program("numbers = env.sparkContext.parallelize([1])\n")),
        Example(
            "import flink.plan.Environment as flink_env\n\nenv = flink_env.get_environment()\n",
            "from pyspark.sql import SparkSession\n\nenv = SparkSession.builder.getOrCreate()\n",
        ),
        Example(
            program("env.set_parallelism(1)\nnumbers = env.from_elements(1)\n"),
            "from pyspark.sql import SparkSession\n\n"
            'env = SparkSession.builder.config("spark.default.parallelism", "1").getOrCreate()\n'
            "numbers = env.sparkContext.parallelize([1])\n",
        ),
    ],
    noop=[
        "from myproject.env import get_environment\n\nenv = get_environment()\n",
        "def get_environment():\n    return {}\n\n\nenv = get_environment()\n",
    ],
)


PARALLELISM_METHODS = ("set_parallelism", "set_degree_of_parallelism")


def parallelism_of(ctx):
    """The argument of ``<env>.set_parallelism(n)`` when this call is assigned to ``<env>``."""
    parent = ctx.resolver.parent(ctx.outer)
    if not (isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name)):
        return None
    target = parent.targets[0].target
    found = []
    for call in ctx.resolver.calls_of(*PARALLELISM_METHODS):
        if not isinstance(call.func.value, cst.Name):  # type: ignore[attr-defined]
            continue
        refs = ctx.resolver.referents(call.func.value)
        if any(r.node is target for r in refs) and len(call.args) == 1 and call.args[0].keyword is None:
            found.append(call.args[0].value)
    return found[0] if len(found) == 1 else None


@rule.converter
def convert(ctx):
    session = ctx.import_name("pyspark.sql", "SparkSession")
    parallelism = parallelism_of(ctx)
    if parallelism is None:
        return ctx.expr(SESSION.get().builder() + ".getOrCreate()", s=session)
    if isinstance(parallelism, cst.Integer):
        value = cst.SimpleString('"%s"' % parallelism.value)
    else:
        value = ctx.expr("str({n})", n=parallelism)
    return ctx.expr(SESSION.get().builder() + '.config("spark.default.parallelism", {v}).getOrCreate()', s=session, v=value)
