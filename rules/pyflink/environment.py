"""``StreamExecutionEnvironment.get_execution_environment()`` -> a SparkSession.

The converted program keeps the user's variable name (usually ``env``); it now holds a
SparkSession and sources use ``env.sparkContext`` or ``env.read``. PyFlink streams become
RDDs when the program model finds no DataFrame form for them: their operators are then arbitrary
Python functions over Python objects (tuples, Rows, anything picklable), which the RDD API runs as
they are. The environment line carries one NOTE saying so, and what keeps a stream on RDDs, since
RDDs are not available on Spark Connect; a program whose streams are all DataFrames, or that makes
none (the environment only creates a table environment), has no NOTE.

A configuration argument (``get_execution_environment(config)``) built as
``config = Configuration()`` plus ``config.set_...("key", value)`` statements is dropped (see
``configuration``) with a NOTE naming its keys; any other configuration is left with a TODO.
"""

from flink2spark.rules.pyflink._common import call_arg, program, spark_program
from flink2spark.rules.pyflink._configuration import RUNTIME_MODE, settings
from flink2spark.rules.pyflink._streams import graph
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.session import SESSION

rule = Rule(
    __name__,
    matches=["flink.get_execution_environment"],
    summary="get_execution_environment() -> SparkSession.builder.getOrCreate() (streams become RDDs)",
    codes=(M.PF_RDD, M.PF_CONFIG, M.PF_UNSUPPORTED),
    examples=[
        Example(program(""), spark_program("", frames=True)),  # no stream, no RDD: no NOTE
        Example(
            "from pyflink.datastream.stream_execution_environment import StreamExecutionEnvironment as SEE\n\n"
            "flink = SEE.get_execution_environment()\n"
            "flink.from_collection([[1], [2]]).print()\n",
            "from pyspark.sql import SparkSession\n\n"
            "# NOTE(flink2spark): F2S205 PyFlink streams become RDDs: Python functions over records run on the"
            " RDD API (SparkContext), which Spark Connect does not offer; here because the source"
            " `.from_collection()` at line 4 has no type_info (no DataFrame schema)\n"
            "flink = SparkSession.builder.getOrCreate()\n"
            "for record in flink.sparkContext.parallelize([[1], [2]]).collect():\n"
            "    print(record)\n",
        ),
    ],
    noop=[
        "class StreamExecutionEnvironment:\n    @staticmethod\n    def get_execution_environment():\n        return None\n\n\n"
        "env = StreamExecutionEnvironment.get_execution_environment()\n",
        "from myproject.flink import StreamExecutionEnvironment\n\nenv = StreamExecutionEnvironment.get_execution_environment()\n",
    ],
)


@rule.converter
def convert(ctx):
    if ctx.site.head.args:
        found = settings(ctx, call_arg(ctx.site.head.original, 0, "configuration"))
        if found is None:
            return ctx.todo(M.PF_UNSUPPORTED, "get_execution_environment(configuration): set the configuration on the SparkSession by hand")
        dropped = sorted({key for key, _, _ in found if key != RUNTIME_MODE})
        if dropped:
            read = " (execution.runtime-mode is read by keyed aggregations)" if len(dropped) < len({k for k, _, _ in found}) else ""
            ctx.note(M.PF_CONFIG, f"get_execution_environment(configuration): Flink settings dropped: {', '.join(dropped)}{read}")
    if not graph(ctx.resolver).rdd_free:  # some stream stays an RDD (the program model's plan)
        reason = graph(ctx.resolver).rdd_reason
        ctx.note(
            M.PF_RDD,
            "PyFlink streams become RDDs: Python functions over records run on the RDD API (SparkContext),"
            " which Spark Connect does not offer" + (f"; here because {reason}" if reason else ""),
        )
    session = ctx.import_name("pyspark.sql", "SparkSession")
    return ctx.expr(SESSION.get().builder() + ".getOrCreate()", s=session)
