"""``t_env.connect(FileSystem().path(p)).with_format(OldCsv()...).with_schema(Schema().field(...))
.create_temporary_table("name")`` of Flink 1.9-1.13 (also ``register_table_source``,
``register_table_sink``): the table ``_connect`` reads into the program model's catalog, declared
as a ``CREATE TABLE``/``TableDescriptor`` of the same connector is (rule ``descriptors``): a
filesystem table -> Spark's ``CREATE TABLE ... USING csv OPTIONS (...)``.

Flink's legacy csv sink writes one file at the path (with parallelism 1), Spark a folder of part
files there: a NOTE says so where the table is written.
"""

from flink2spark.rules.table._common import program, spark_program
from flink2spark.rules.table._connect import REGISTER
from flink2spark.rules.table._program import tables
from flink2spark.rules.table.descriptors import declare
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

# a Kafka table of Flink 1.x's connect() descriptors with a JSON schema and a rowtime, and its
# Spark form (the rule examples of connect and windows)
VIEWS = (
    'from pyflink.table import DataTypes, EnvironmentSettings, TableEnvironment\n'
    'from pyflink.table.descriptors import Json, Kafka, Rowtime, Schema\n'
    't_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n'
    "t_env.connect(Kafka().topic('views').property('bootstrap.servers', 'k:9092').start_from_earliest()) \\\n"
    '    .with_format(Json().json_schema("{type: \'object\', properties: {page: {type: \'string\'}, ts: {type: \'string\', format: \'date-time\'}}}")) \\\n'
    "    .with_schema(Schema().field('page', DataTypes.STRING()).field('rowtime', DataTypes.TIMESTAMP(3))\n"
    "                 .rowtime(Rowtime().timestamps_from_field('ts').watermarks_periodic_bounded(5000))) \\\n"
    "    .create_temporary_table('views')\n"
)
SPARK_VIEWS = (
    't_env = SparkSession.builder.getOrCreate()\n'
    "# NOTE(flink2spark): F2S307 Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package (spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>); Flink's json format fails the job on a malformed record ('json.ignore-parse-errors' false), Spark's from_json gives NULL fields there\n"
    "# NOTE(flink2spark): F2S307 WATERMARK on rowtime: Spark moves its watermark (the largest rowtime so far minus 5 seconds) between micro-batches, Flink record by record and across Kafka partitions by the smallest; a window is emitted in the micro-batch after its end passes the watermark, and records behind the watermark are dropped by both; rowtime becomes a TIMESTAMP in the session time zone (Spark's watermark needs one)\n"
    "# NOTE(flink2spark): F2S324 the legacy Rowtime() column rowtime is a wall-clock time in Flink, a TIMESTAMP in the session time zone in Spark (its watermark needs one): the same values and windows while that zone keeps one offset over the data (UTC, a fixed offset); across a daylight-saving change a time in the skipped hour moves an hour on and a window ending in it or in the repeated hour ends an hour off: set spark.sql.session.timeZone to UTC for Flink's results\n"
    "# NOTE(flink2spark): F2S309 Flink 1.x's json format (gone from Flink 2.3) reads a TIMESTAMP from RFC 3339 text in UTC ('2024-03-01T10:00:05Z' is 2024-03-01 10:00:05), and so does this view; Flink 2.x's json format reads '2024-03-01 10:00:05' instead\n"
    't_env.readStream.format("kafka").option("kafka.bootstrap.servers", "k:9092").option(\n'
    '    "subscribe", "views"\n'
    ').option("startingOffsets", "earliest").load().selectExpr(\n'
    '    "from_json(CAST(value AS STRING), \'page STRING, ts TIMESTAMP_NTZ\', map(\'timestampNTZFormat\', \'yyyy-MM-dd\\\\\'T\\\\\'HH:mm:ss[.SSSSSSSSS]\\\\\'Z\\\\\'\')) AS value"\n'
    ').selectExpr("value.page", "CAST(value.ts AS TIMESTAMP) AS rowtime").withWatermark(\n'
    '    "rowtime", "5 seconds"\n'
    ').createOrReplaceTempView("views")\n'
)

rule = Rule(
    __name__,
    matches=["TableEnvironment.connect"],
    summary="connect(FileSystem()/Kafka()).with_format(OldCsv()/Csv()/Json()).with_schema(...).create_temporary_table(name) -> as CREATE TABLE",
    codes=(M.TB_CONNECTOR, M.TB_UNSUPPORTED, M.TB_LEGACY),
    examples=[
        Example(
            program(
                "t_env.connect(FileSystem().path('/tmp/in.csv')) \\\n"
                "    .with_format(OldCsv().field_delimiter(',')) \\\n"
                "    .with_schema(Schema().field('n', DataTypes.BIGINT())) \\\n"
                "    .create_temporary_table('numbers')\n"
                "t_env.from_path('numbers').execute().print()\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.descriptors import FileSystem, OldCsv, Schema\n",
            ),
            spark_program(
                "t_env.sql(\n"
                '    "CREATE TABLE numbers (n BIGINT) USING csv OPTIONS (path \'/tmp/in.csv\', quote \'\', mode \'FAILFAST\', sep \',\')"\n'
                ")\n"
                't_env.table("numbers").show(2147483647, truncate=False)\n'
            ),
        ),
        # Flink 1.x's JSON schema text and a rowtime read from the record's ts field: the view
        # reads ts into rowtime (RFC 3339 text, as Flink 1.x's json format reads a date-time)
        Example(VIEWS, "from pyspark.sql import SparkSession\n\n" + SPARK_VIEWS),
    ],
    noop=['import socket\n\ns = socket.socket()\ns.connect(("localhost", 80))\n'],
)


@rule.converter
def convert(ctx):
    last = ctx.site.segments[-1]
    if last.method not in REGISTER:
        return ctx.todo(M.TB_UNSUPPORTED, "a connect() descriptor kept or passed on: end its chain with create_temporary_table(name)")
    return register(ctx, last.original, f"connect()...{last.method}()", "a descriptor this rule cannot read")


def register(ctx, call, what: str, unread: str):
    """The Spark form of the legacy table declaration ``call`` (a connect() chain's last call,
    ``register_table_sink(name, CsvTableSink(...))``) the program model read, or a TODO."""
    model = tables(ctx.resolver)
    found = model.descriptors.get(id(call))
    if found is None:
        name = call.args[0].value if call.args else None
        why = model.problems.get(getattr(name, "evaluated_value", None))
        return ctx.todo(M.TB_CONNECTOR, f"{what}: " + (why or unread))
    table, parts = found
    if table.name in model.problems:
        return ctx.todo(M.TB_CONNECTOR, f"{what}: table {table.name!r} {model.problems[table.name]}")
    if table.connector == "filesystem" and table.name in model.sinks and table.options.get("format") == "csv":
        ctx.note(M.TB_LEGACY, "Flink's legacy csv sink writes a single file at the path when it runs with parallelism 1 (a folder of files otherwise), Spark a folder of part files")
    return declare(ctx, ctx.site.receiver, table, parts, what)
