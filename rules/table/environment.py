"""``TableEnvironment.create(settings)``, ``StreamTableEnvironment.create(env[, settings])`` and
the legacy ``BatchTableEnvironment.create(...)`` -> ``SparkSession.builder.getOrCreate()``.

The user's variable (usually ``t_env``) now holds the SparkSession: tables become DataFrames
and SQL runs through ``spark.sql``. The settings argument says batch or streaming mode, which
the Table API's program model keeps (``_program.mode``): a bounded job's results are the same
in both, but in streaming mode Flink prints the changes of an updating table (see ``execute``).
"""

from flink2spark.rules.table._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.session import SESSION

rule = Rule(
    __name__,
    matches=["flink.create"],
    summary="TableEnvironment/StreamTableEnvironment.create() -> SparkSession.builder.getOrCreate()",
    codes=(M.TB_UNSUPPORTED,),
    examples=[
        Example(program(""), spark_program("")),
        Example(
            "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"
            "settings = EnvironmentSettings.new_instance().in_streaming_mode().build()\n"
            "table_env = TableEnvironment.create(settings)\n",
            "from pyspark.sql import SparkSession\n\n"
            "table_env = SparkSession.builder.getOrCreate()\n",
        ),
    ],
    noop=['class Env:\n    @staticmethod\n    def create(x):\n        return x\n\n\ne = Env.create(1)\n'],
)


@rule.converter
def convert(ctx):
    session = ctx.import_name("pyspark.sql", "SparkSession")
    return ctx.expr(SESSION.get().builder() + ".getOrCreate()", s=session)
