"""``t_env.register_table_sink(name, CsvTableSink(field_names, field_types, path[, delimiter]))``
of Flink 1.9-1.13: the table ``_connect.read_csv_sink`` reads into the program model's catalog,
declared as the ``connect(FileSystem().path(path)).with_format(OldCsv())`` table of the same
fields is (rule ``connect``): Flink's legacy csv sink under both, no quote character, a NOTE
where Flink writes one file and Spark a folder of part files.
"""

from flink2spark.rules.table._common import program, spark_program
from flink2spark.rules.table.connect import register
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["TableEnvironment.register_table_sink"],
    summary="register_table_sink(name, CsvTableSink(names, types, path)) -> CREATE TABLE ... USING csv",
    codes=(M.TB_CONNECTOR, M.TB_LEGACY),
    examples=[
        Example(
            program(
                "t_env.register_table_sink('totals', CsvTableSink(['k', 'n'], [DataTypes.STRING(), DataTypes.BIGINT()], '/tmp/out', '|'))\n"
                "t_env.from_elements([('a', 1)], ['k', 'n']).execute_insert('totals').wait()\n",
                imports="from pyflink.table import CsvTableSink, DataTypes\n",
            ),
            spark_program(
                "# NOTE(flink2spark): F2S309 Flink's legacy csv sink writes a single file at the path when it runs with"
                " parallelism 1 (a folder of files otherwise), Spark a folder of part files\n"
                "t_env.sql(\n"
                '    "CREATE TABLE totals (k STRING, n BIGINT) USING csv OPTIONS (path \'/tmp/out\', quote \'\', mode \'FAILFAST\', sep \'|\', emptyValue \'\', ignoreLeadingWhiteSpace \'false\', ignoreTrailingWhiteSpace \'false\')"\n'
                ")\n"
                't_env.createDataFrame([("a", 1)], ["k", "n"]).write.insertInto("totals")\n'
            ),
        ),
    ],
    noop=["sinks = {}\nsinks.register_table_sink = None\n"],
)


@rule.converter
def convert(ctx):
    return register(ctx, ctx.site.head.original, "register_table_sink()",
                    "a table sink other than CsvTableSink(field names, field types, path[, field delimiter])")
