"""The csv tables Flink 1.9-1.13 registered by object, which the program model's catalog reads
(``_connect.read_csv_sink``, ``_connect.read_csv_source``):

- ``t_env.register_table_sink(name, CsvTableSink(field_names, field_types, path[, delimiter]))``:
  declared as the ``connect(FileSystem().path(path)).with_format(OldCsv())`` table of the same
  fields is (rule ``connect``): Flink's legacy csv sink under both, no quote character, a NOTE
  where Flink writes one file and Spark a folder of part files.
- ``t_env.register_table_source(name, CsvTableSource(path, field_names, field_types, ...))``:
  declared as the CREATE TABLE of Flink 1.10's legacy properties (``'connector.type' =
  'filesystem', 'format.type' = 'csv'``) is: the same Java CsvTableSource under both (no quote
  character unless one is given, the field delimiter, a first line skipped, '#' comment lines
  skipped, lenient parsing), read by Spark's csv reader with the table's schema into a temporary
  view (an empty STRING field is '', as the legacy source reads it).
"""

from flink2spark.rules.table._common import program, spark_program
from flink2spark.rules.table.connect import register
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["TableEnvironment.register_table_sink", "TableEnvironment.register_table_source"],
    summary="register_table_sink(name, CsvTableSink(...)) -> CREATE TABLE ... USING csv; "
            "register_table_source(name, CsvTableSource(...)) -> a temporary view of spark.read.csv",
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
        Example(
            program(
                "t_env.register_table_source('orders', CsvTableSource('/tmp/orders.csv', ['k', 'n'], [DataTypes.STRING(), DataTypes.INT()], '|'))\n"
                "t_env.scan('orders').execute().print()\n",
                imports="from pyflink.table import CsvTableSource, DataTypes\n",
            ),
            spark_program(
                't_env.read.format("csv").options(quote="", mode="FAILFAST", sep="|").schema(\n'
                '    "k STRING, n INT"\n'
                ').load("/tmp/orders.csv").fillna("", subset=["k"]).createOrReplaceTempView("orders")\n'
                't_env.table("orders").show(2147483647, truncate=False)\n'
            ),
        ),
    ],
    noop=["sinks = {}\nsinks.register_table_sink = None\nsinks.register_table_source = None\n"],
)


@rule.converter
def convert(ctx):
    method = ctx.site.head.method
    kind = "CsvTableSink(field names, field types, path[, field delimiter])" if method == "register_table_sink" \
        else "CsvTableSource(path, field names, field types[, options])"
    return register(ctx, ctx.site.head.original, f"{method}()", f"a table {method[15:]} other than {kind}")
