"""``t_env.from_data_stream(ds)``, ``to_data_stream(table)`` and the other bridges between a
Table and a DataStream: not converted yet. The stream graph (rules/pyflink/_streams.py) follows
a stream that comes from the Table API, and its operators carry TODO F2S210; a table from a
stream carries TODO F2S300.
"""

from flink2spark.rules.table._common import program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["StreamTableEnvironment.to_data_stream", "StreamTableEnvironment.to_changelog_stream",
             "StreamTableEnvironment.to_append_stream", "StreamTableEnvironment.to_retract_stream",
             "StreamTableEnvironment.from_data_stream", "StreamTableEnvironment.from_changelog_stream"],
    summary="Table <-> DataStream bridges: not converted yet (TODO F2S210 on the stream's operators, F2S300 on from_*)",
    exact=False,
    codes=(M.TB_UNSUPPORTED,),
    examples=[
        Example(
            "from pyflink.datastream import StreamExecutionEnvironment\n"
            "from pyflink.table import StreamTableEnvironment\n\n"
            "env = StreamExecutionEnvironment.get_execution_environment()\n"
            "t_env = StreamTableEnvironment.create(env)\n"
            "table = t_env.from_data_stream(env.from_collection([1]))\n",
            "from pyspark.sql import SparkSession\n\n"
            "# NOTE(flink2spark): F2S205 PyFlink streams become RDDs: Python functions over records run on the"
            " RDD API (SparkContext), which Spark Connect does not offer\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "t_env = SparkSession.builder.getOrCreate()\n"
            "# TODO(flink2spark): F2S300 from_data_stream(): a Table from a DataStream is not converted yet\n"
            "table = t_env.from_data_stream(env.sparkContext.parallelize([1]))\n",
        ),
    ],
    noop=['streams = {"a": 1}\nfirst = streams.get("a")\n'],
)


@rule.converter
def convert(ctx):
    method = ctx.site.head.method
    if method.startswith("to_"):  # the stream's operators carry TODO F2S210 (the program model follows it)
        return ctx.todo(M.TB_UNSUPPORTED, f"{method}(): a DataStream from a Table is not converted yet")
    return ctx.todo(M.TB_UNSUPPORTED, f"{method}(): a Table from a DataStream is not converted yet")
