"""Flink SQL through ``t_env.execute_sql(sql)`` / ``t_env.sql_query(sql)`` -> ``spark.sql(...)``
with the statement translated to Spark SQL (``_sql``, sqlglot with a Flink dialect):

- ``sql_query(query)`` -> ``spark.sql(query)``; ``execute_sql(query).print()`` -> a ``show`` of
  every row; ``result = execute_sql(query)`` used once by ``result.print()``/``collect()``
  (``_program.kept_query``) -> ``result = spark.sql(query)`` (``result_use`` converts the use).
- ``CREATE TABLE`` of ``datagen`` whose fields are all sequences -> a temporary view over
  ``range`` (``_connectors``).
- ``CREATE TABLE`` of the ``filesystem`` connector -> Spark's ``CREATE TABLE ... USING <format>
  OPTIONS (path ...)``; of ``print``/``blackhole`` -> removed (Spark needs no table: an
  ``INSERT INTO`` one becomes a ``show`` or a ``noop`` write; the catalog of the program model
  knows the connector).
- ``CREATE TABLE`` of the ``kafka`` connector -> a temporary view over ``readStream.format("kafka")``
  (``_kafka``), or removed for a table the program only writes.
- ``CREATE TABLE`` of the ``jdbc`` connector -> a temporary view over ``read.format("jdbc")`` of a
  table the program reads, or removed for a table it only writes (appended to by each insert:
  ``_jdbc``).
- ``INSERT INTO t SELECT ...`` -> ``spark.sql("INSERT INTO t ...")``, or the sink's form; a query
  over an unbounded (Kafka) table becomes a streaming query (``execute.write_to``), started and,
  with ``.wait()``, awaited. The streaming inserts of a statement set (one Flink job) start a
  query each where they are added; ``statements.execute().wait()`` awaits them together
  (``execute.await_all``, as Flink 1.x's ``t_env.execute()`` of buffered inserts).
- ``CREATE VIEW v AS ...`` -> ``spark.sql("CREATE TEMPORARY VIEW v AS ...")``.
- ``SET 'key' = 'value'`` -> removed, with a NOTE (Flink settings).
- ``DROP [TEMPORARY] TABLE|VIEW [IF EXISTS] t`` -> the same in Spark (its DROP TABLE drops the
  temporary views datagen and read-only file tables become too); of a print/blackhole table ->
  removed.
- ``.wait()`` on the result: dropped (Spark's statements run at once).
- ``create_temporary_view(name, table)`` -> ``table.createOrReplaceTempView(name)``; of a name a
  statement before it in the same block registered (``_program.registered_before``): a TODO,
  Flink 2.3 fails there ("Temporary table ... already exists"), Spark would replace the view.

SQL text is read when it is known when converting (``_program.sql``: literals, a name bound
once, f-strings whose placeholders stand in SQL string literals such as paths). What sqlglot
cannot translate with the same meaning keeps its statement, with a TODO naming the construct.
"""

import re

import libcst as cst

from flink2spark.rules.table import _jdbc, _kafka, _sql
from flink2spark.rules.table.bridges import _HEAD as STREAM_HEAD, stream_frame
from flink2spark.rules.table._connectors import declare_datagen
from flink2spark.rules.table._files import create
from flink2spark.rules.table.catalogs import CATALOG_WHY
from flink2spark.rules.table._common import (CLICKS_KAFKA_SPARK, STREAM_ROWS_SPARK, STREAMING_NOTE_SPARK, after_methods,
                                                drop_target, program, spark_program, streaming_program, waited_result)
from flink2spark.rules.table._program import _MARK_RE, SqlText, sql_arguments, tables
from flink2spark.rules.table._types import extreme_nan_note
from flink2spark.rules.table.execute import await_all, collected, print_noted, show, stream_collect, write_to
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler import table_model as T
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import REMOVE

rule = Rule(
    __name__,
    matches=["TableEnvironment.execute_sql", "TableEnvironment.sql_query", "TableEnvironment.create_temporary_view",
             "TableEnvironment.create_statement_set", "StatementSet.add_insert_sql", "StatementSet.add_insert",
             "StatementSet.execute"],
    summary="execute_sql/sql_query (DDL, INSERT, SELECT, views) -> spark.sql with Spark SQL (sqlglot)",
    codes=(M.TB_SQL, M.TB_CONNECTOR, M.TB_CONFIG, M.TB_UNSUPPORTED, M.TB_CHANGELOG, M.TB_GENERATED, M.TB_JSON,
           M.TB_PARSE, M.TB_LISTAGG, M.TB_FILE_FORMAT, M.TB_JDBC, M.TB_UPDATING, M.TB_OVER_LATE, M.TB_HELPER_SQL,
           M.TB_TABLE_NAME, M.TB_FIRST_VALUE, M.TB_INSERT_PRINT, M.TB_ROWTIME_ZONE, M.TB_CATALOG_TABLE,
           M.TB_CATALOG_STREAM, M.TB_STREAM_TABLE, M.TB_NAN_EXTREME, M.TB_DATE_BEFORE_1970),
    examples=[
        Example(  # JSON_OBJECT: keys in name order as Flink 2.3 writes them, ABSENT ON NULL; JSON_ARRAY leaves NULLs out
            program(
                "items = t_env.from_elements([('lamp', 2490, 'Lumo')], ['sku', 'cents', 'brand'])\n"
                "t_env.create_temporary_view('items', items)\n"
                "t_env.execute_sql(\"SELECT JSON_OBJECT('sku' VALUE sku, 'cents' VALUE cents, 'tags' VALUE JSON_ARRAY(brand) "
                "ABSENT ON NULL) AS doc FROM items\").print()\n"
            ),
            spark_program(
                'items = t_env.createDataFrame([("lamp", 2490, "Lumo")], ["sku", "cents", "brand"])\n'
                'items.createOrReplaceTempView("items")\n'
                "t_env.sql(\n"
                "    \"SELECT TO_JSON(NAMED_STRUCT('cents', cents, 'sku', sku, 'tags', FILTER(ARRAY(brand), f2s_v -> NOT f2s_v IS NULL)), "
                "MAP('ignoreNullFields', 'true')) AS doc FROM items\"\n"
                ").show(2147483647, truncate=False)\n"
            ),
        ),
        Example(  # CAST(ts AS DATE) of a TIMESTAMP column: NOTE (Flink 2.3's day before 1970); CEIL TO QUARTER by Flink's rule
            program(
                "t_env.execute_sql(\"CREATE TABLE visits (id INT, ts TIMESTAMP(3)) WITH ('connector' = 'filesystem', "
                "'path' = '/data/visits', 'format' = 'csv')\")\n"
                "t_env.execute_sql('SELECT id, CAST(ts AS DATE) AS day_of, CEIL(ts TO QUARTER) AS review FROM visits').print()\n"
            ),
            spark_program(
                't_env.read.format("csv").options(\n'
                "    quote='\"',\n"
                "    escape='\"',\n"
                '    mode="FAILFAST",\n'
                '    timestampNTZFormat="yyyy-MM-dd HH:mm:ss[.SSSSSSSSS]",\n'
                ').schema("id INT, ts TIMESTAMP_NTZ").load("/data/visits").createOrReplaceTempView(\n'
                '    "visits"\n'
                ")\n"
                "# NOTE(flink2spark): F2S348 CAST(ts AS DATE), CEIL(ts TO QUARTER) of a TIMESTAMP: the same values as Flink's for "
                "times from 1970 on and for midnights; Flink 2.3 takes the next day for a time before 1970 that is not midnight "
                "(CAST of 1969-12-31 23:59:59.5 AS DATE is 1970-01-01), Spark the calendar day (1969-12-31)\n"
                "t_env.sql(\n"
                "    \"SELECT id, CAST(ts AS DATE) AS day_of, CAST(CASE WHEN MONTH(CAST(ts AS DATE)) = 1 AND DAYOFMONTH(CAST(ts AS DATE)) = 1 "
                "THEN CAST(ts AS DATE) ELSE ADD_MONTHS(TRUNC(CAST(ts AS DATE), 'QUARTER'), 3) END AS TIMESTAMP_NTZ) AS review FROM visits\"\n"
                ").show(2147483647, truncate=False)\n"
            ),
        ),
        Example(
            program(
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\n"
                "t_env.create_temporary_view('words', words)\n"
                "t_env.execute_sql('SELECT word FROM words').print()\n"
            ),
            spark_program(
                'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
                'words.createOrReplaceTempView("words")\n'
                't_env.sql("SELECT word FROM words").show(2147483647, truncate=False)\n'
            ),
        ),
        Example(  # a view of a name registered before in the same block: Flink 2.3 fails there
            program(
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\n"
                "t_env.create_temporary_view('words', words)\n"
                "t_env.create_temporary_view('words', words.select(words.word))\n"
            ),
            spark_program(
                'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
                'words.createOrReplaceTempView("words")\n'
                "# TODO(flink2spark): F2S300 create_temporary_view() of 'words', which create_temporary_view() registered "
                "before: Flink 2.3 fails here (Temporary table ... already exists); Spark's createOrReplaceTempView would replace it\n"
                't_env.create_temporary_view("words", words.select(F.col("word")))\n',
                functions=True,
            ),
        ),
        Example(  # MIN/MAX of a DOUBLE: the same unless a NaN comes (Flink's result then depends on the order)
            program(
                "prices = t_env.from_elements([('a', 2.5)], ['sku', 'price'])\n"
                "t_env.create_temporary_view('prices', prices)\n"
                "t_env.execute_sql('SELECT sku, MAX(price) AS top FROM prices GROUP BY sku').print()\n"
            ),
            spark_program(
                'prices = t_env.createDataFrame([("a", 2.5)], ["sku", "price"])\n'
                'prices.createOrReplaceTempView("prices")\n'
                "# NOTE(flink2spark): F2S329 MAX(price) of a DOUBLE: the same result as Flink's unless a value is NaN; with NaN Flink's result depends on the order rows come (a group whose first value is NaN gives NaN, a later NaN is skipped), Spark's MAX is NaN and its MIN skips NaN\n"
                't_env.sql("SELECT sku, MAX(price) AS top FROM prices GROUP BY sku").show(\n'
                "    2147483647, truncate=False\n"
                ")\n"
            ),
        ),
        Example(  # a view of a stream whose field is named (f0 -> word)
            "from pyflink.table.expressions import col\n" + STREAM_HEAD
            + "words = env.from_collection(['a', 'bb'], type_info=Types.STRING())\n"
            "t_env.create_temporary_view('words', words, col('word'))\n"
            "t_env.sql_query('SELECT word FROM words WHERE CHAR_LENGTH(word) > 1').execute().print()\n",
            "from pyspark.sql import SparkSession\n\n"  # the stream is a DataFrame: the view is that DataFrame, its column named
            "env = SparkSession.builder.getOrCreate()\n"
            "t_env = SparkSession.builder.getOrCreate()\n"
            'words = env.createDataFrame(["a", "bb"], "string")\n'
            'words.toDF("word").createOrReplaceTempView("words")\n'
            't_env.sql("SELECT word FROM words WHERE LENGTH(word) > 1").show(\n'
            "    2147483647, truncate=False\n"
            ")\n",
        ),
        Example(
            program(
                "t_env.execute_sql('DROP TEMPORARY TABLE IF EXISTS daily')\n"
                "t_env.execute_sql(\"CREATE TABLE totals (a INT) WITH ('connector' = 'print')\")\n"
                "t_env.execute_sql('DROP TABLE totals')\n"
            ),
            spark_program('t_env.sql("DROP TABLE IF EXISTS `daily`")\n'),
        ),
        Example(  # print() of an INSERT's result: Flink waits for the job, then prints -1 (job metadata)
            program(
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\n"
                "t_env.create_temporary_view('words', words)\n"
                "t_env.execute_sql(\"CREATE TABLE word_sink (word STRING) WITH ('connector' = 'blackhole')\")\n"
                "t_env.execute_sql('INSERT INTO word_sink SELECT word FROM words').print()\n"
            ),
            spark_program(
                'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
                'words.createOrReplaceTempView("words")\n'
                "# NOTE(flink2spark): F2S328 print() of the INSERT INTO word_sink result: Flink waits for the job to end, then "
                "prints -1 (the affected-row count, not known: job metadata, not a row of the table); the converted write "
                "has ended here and prints nothing of its own\n"
                't_env.sql("SELECT word FROM words").write.format("noop").mode("overwrite").save()\n'
            ),
        ),
        Example(  # a JDBC table read (a view over Spark's JDBC source) and one only written (rows appended)
            program(
                "t_env.execute_sql(\"CREATE TABLE src (k STRING, n INT) WITH ('connector' = 'jdbc', "
                "'url' = 'jdbc:postgresql://db/shop', 'table-name' = 'src')\")\n"
                "t_env.execute_sql(\"CREATE TABLE dst (k STRING, n INT) WITH ('connector' = 'jdbc', "
                "'url' = 'jdbc:postgresql://db/shop', 'table-name' = 'dst', 'sink.max-retries' = '5')\")\n"
                "t_env.execute_sql('INSERT INTO dst SELECT k, n FROM src WHERE n > 1').wait()\n"
            ),
            spark_program(
                "# NOTE(flink2spark): F2S322 JDBC table: the database's JDBC driver must be on Spark's classpath"
                " (spark-submit --jars or --packages), as on Flink's\n"
                't_env.read.format("jdbc").option("url", "jdbc:postgresql://db/shop").option(\n'
                '    "dbtable", "src"\n'
                ').load().selectExpr(\n'
                '    "CAST(`k` AS STRING) AS `k`", "CAST(`n` AS INT) AS `n`"\n'
                ').createOrReplaceTempView("src")\n'
                "# NOTE(flink2spark): F2S322 JDBC table: the database's JDBC driver must be on Spark's classpath"
                " (spark-submit --jars or --packages), as on Flink's\n"
                't_env.sql("SELECT k, n FROM src WHERE n > 1").toDF("k", "n").write.format(\n'
                '    "jdbc"\n'
                ').option("url", "jdbc:postgresql://db/shop").option("dbtable", "dst").mode(\n'
                '    "append"\n'
                ').save()\n'
            ),
        ),
        Example(  # an aggregation without a window over a Kafka table into a print table: update mode
            streaming_program(
                "t_env.execute_sql(\"CREATE TABLE totals (u STRING, n BIGINT) WITH ('connector' = 'print')\")\n"
                "t_env.execute_sql('INSERT INTO totals SELECT u, COUNT(*) FROM clicks GROUP BY u').wait()\n"
            ),
            spark_program(
                "# NOTE(flink2spark): F2S307 Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package "
                "(spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>); Flink's json format "
                "fails the job on a malformed record ('json.ignore-parse-errors' false), Spark's from_json gives NULL fields there\n"
                't_env.readStream.format("kafka").option("kafka.bootstrap.servers", "k:9092").option(\n'
                '    "subscribe", "clicks"\n'
                ').option("startingOffsets", "earliest").load().selectExpr(\n'
                '    "from_json(CAST(value AS STRING), \'u STRING\') AS value"\n'
                ').selectExpr("value.u").createOrReplaceTempView("clicks")\n'
                "# NOTE(flink2spark): F2S308 streaming query: rows come out per micro-batch (a window's in the micro-batch "
                "after the watermark passes its end); the checkpoint is a fresh folder per run, so the query starts from its "
                "starting offsets as a newly submitted Flink job: give a durable folder to resume across runs\n"
                "# NOTE(flink2spark): F2S319 an aggregation without a window over a stream, in update mode: each micro-batch "
                "gives the new rows of the groups it changed, Flink every change as each record arrives (-U old row, +U new "
                "row); the latest row of each group is the same (the groups' state is kept for ever in both: no state TTL)\n"
                't_env.sql("SELECT u, COUNT(*) FROM clicks GROUP BY u").writeStream.foreachBatch(\n'
                "    lambda batch, _: batch.show(2147483647, truncate=False)\n"
                ').option("checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")).outputMode(\n'
                '    "update"\n'
                ").start().awaitTermination()\n",
                imports="import tempfile\n",
            ),
        ),
        Example(  # a window TVF over a Kafka table's PROCTIME() column: the micro-batch's time, watermarked
            program(
                "t_env.execute_sql(\"CREATE TABLE taps (k STRING, pt AS PROCTIME()) WITH ('connector' = 'kafka', 'topic' = 'taps', "
                "'properties.bootstrap.servers' = 'k:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')\")\n"
                "t_env.execute_sql(\"CREATE TABLE counts (k STRING, window_end TIMESTAMP(3), n BIGINT) WITH ('connector' = 'print')\")\n"
                "t_env.execute_sql(\"INSERT INTO counts SELECT k, window_end, COUNT(*) FROM TABLE(TUMBLE(TABLE taps, DESCRIPTOR(pt), "
                "INTERVAL '10' SECOND)) GROUP BY k, window_start, window_end\").wait()\n"
            ).replace("in_batch_mode", "in_streaming_mode"),
            spark_program(
                "# NOTE(flink2spark): F2S307 Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package "
                "(spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>); Flink's json format "
                "fails the job on a malformed record ('json.ignore-parse-errors' false), Spark's from_json gives NULL fields there\n"
                "# NOTE(flink2spark): F2S332 pt AS PROCTIME(): Spark's column is current_timestamp(), the time its micro-batch "
                "starts (all rows of a micro-batch share it, so they fall in one window), watermarked with no delay; a window "
                "over it is emitted by the first micro-batch after its end, which runs when new records arrive (Flink emits it "
                "when the wall clock passes its end); which rows share a window depends on arrival in both, and neither emits "
                "a window still open when the job stops\n"
                't_env.readStream.format("kafka").option("kafka.bootstrap.servers", "k:9092").option(\n'
                '    "subscribe", "taps"\n'
                ').option("startingOffsets", "earliest").load().selectExpr(\n'
                '    "from_json(CAST(value AS STRING), \'k STRING\') AS value"\n'
                ').selectExpr("value.k").selectExpr("k", "current_timestamp() AS pt").withWatermark(\n'
                '    "pt", "0 seconds"\n'
                ').createOrReplaceTempView("taps")\n'
                "# NOTE(flink2spark): F2S308 streaming query: rows come out per micro-batch (a window's in the micro-batch "
                "after the watermark passes its end); the checkpoint is a fresh folder per run, so the query starts from its "
                "starting offsets as a newly submitted Flink job: give a durable folder to resume across runs\n"
                "t_env.sql(\n"
                '    "SELECT k, __f2s_window.end AS window_end, COUNT(*) FROM (SELECT taps.*, WINDOW(pt, \'10 seconds\') AS '
                '__f2s_window FROM taps) AS taps GROUP BY k, __f2s_window"\n'
                ").writeStream.foreachBatch(\n"
                "    lambda batch, _: batch.show(2147483647, truncate=False)\n"
                ').option("checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")).outputMode(\n'
                '    "append"\n'
                ").start().awaitTermination()\n",
                imports="import tempfile\n",
            ),
        ),
        Example(  # a streaming query's rows iterated: the loop body per micro-batch in a foreachBatch function
            streaming_program(
                "for row in t_env.execute_sql('SELECT u FROM clicks WHERE u <> \\'x\\'').collect():\n    print(row[0])\n"
            ),
            spark_program(
                CLICKS_KAFKA_SPARK
                + STREAM_ROWS_SPARK
                + 't_env.sql("SELECT u FROM clicks WHERE u <> \'x\'").writeStream.foreachBatch(\n'
                '    for_each_batch\n'
                ').option("checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")).outputMode(\n'
                '    "append"\n'
                ').start().awaitTermination()\n',
                imports="import tempfile\n",
            ),
        ),
        Example(  # the streaming inserts of a statement set: one Flink job; a Spark query each, awaited together
            streaming_program(
                "t_env.execute_sql(\"CREATE TABLE seen (u STRING) WITH ('connector' = 'blackhole')\")\n"
                "statements = t_env.create_statement_set()\n"
                "statements.add_insert_sql(\"INSERT INTO seen SELECT u FROM clicks WHERE u <> ''\")\n"
                "statements.add_insert('seen', t_env.from_path('clicks'))\n"
                "statements.execute().wait()\n"
            ),
            spark_program(
                CLICKS_KAFKA_SPARK
                + STREAMING_NOTE_SPARK
                + 't_env.sql("SELECT u FROM clicks WHERE u <> \'\'").writeStream.format("noop").option(\n'
                '    "checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")\n'
                ').outputMode("append").start()\n'
                + STREAMING_NOTE_SPARK
                + 't_env.table("clicks").writeStream.format("noop").option(\n'
                '    "checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")\n'
                ').outputMode("append").start()\n'
                "t_env.streams.awaitAnyTermination()\n",
                imports="import tempfile\n",
            ),
        ),
    ],
    noop=['import sqlite3\n\ndb = sqlite3.connect(":memory:")\ndb.execute("SELECT 1")\n'],
)


def sql_notes(ctx, text: str) -> None:
    """The NOTEs of the Spark SQL ``text`` (or of a computed column's expression) translated from
    Flink SQL: by the functions only these translations write."""
    if "GET_JSON_OBJECT(" in text:  # only JSON_VALUE becomes it (_sql.json_value)
        ctx.note(M.TB_JSON, "JSON_VALUE: a number with a fraction or an exponent reads as its double text in Spark (1.5, "
                 "1.0E10), as its decimal text in Flink (1.50, 1E+10); other scalars, objects and arrays (NULL), missing "
                 "paths and text that is not JSON give the same values")
    if "TO_JSON(TRY_VARIANT_GET(" in text:  # only JSON_QUERY becomes it (_sql.json_query)
        ctx.note(M.TB_JSON, "JSON_QUERY: a number with a fraction or an exponent in the object or array reads as its "
                 "double text in Spark (1.5, 100.0), as its decimal text in Flink (1.50, 1E+2); otherwise the same JSON "
                 "text (keys in name order in both), NULL alike")
    if "UNIX_SECONDS(" in text:  # only UNIX_TIMESTAMP(s[, format]) becomes it (_sql._unix_timestamp)
        ctx.note(M.TB_PARSE, "UNIX_TIMESTAMP: text in the pattern (by default yyyy-MM-dd HH:mm:ss, one-digit fields too) "
                 "gives the same seconds in both, other text -9223372036854775808; Flink's lenient parser also reads a day "
                 "past the month's end (2024-02-30) and text after the pattern, where Spark gives -9223372036854775808")
    if text.count("TRY_TO_TIMESTAMP(") > text.count("UNIX_SECONDS(TRY_TO_TIMESTAMP("):  # only TO_TIMESTAMP becomes the others (_sql._to_timestamp)
        ctx.note(M.TB_PARSE, "TO_TIMESTAMP: text in the pattern, or else in Flink's yyyy-M-d[ H:m:s[.fraction]], gives the "
                 "same TIMESTAMP(3) in both; Flink's lenient parser also reads a day past the month's end (2024-02-30) and "
                 "text after the pattern, where Spark gives NULL")
    if re.search(r"TRY_TO_DATE\((?:[^()]|\([^()]*\))*\)", text) and any(  # only TO_DATE becomes it (_sql._to_date)
            "," not in re.sub(r"\([^()]*\)|'[^']*'", "", m.group(1)) for m in re.finditer(r"TRY_TO_DATE\(((?:[^()]|\([^()]*\))*)\)", text)):
        ctx.note(M.TB_PARSE, "TO_DATE(s): text yyyy-M-d (also with a time after a space, or yyyy, yyyy-M) gives the same "
                 "DATE in both, other text and a day past the month's end NULL; they differ on a 'T' before the time "
                 "(Flink NULL, Spark the date) and on years of other than 4 digits or with a sign")
    if re.search(r"TRY_TO_DATE\((?:[^()]|\([^()]*\))*, '", text):
        ctx.note(M.TB_PARSE, "TO_DATE(s, format): text in the format gives the same DATE in both; Flink's lenient parser "
                 "also reads one-digit fields, a day past the month's end (31/02/2024 is 2024-03-02) and text after the "
                 "pattern, and Flink 2.3 gives a wrong date (5471-09-27) for text the format does not read, where Spark "
                 "gives NULL")
    if re.search(r"DATE_TRUNC\('(MONTH|QUARTER|YEAR)'", text):  # FLOOR(ts TO MONTH/QUARTER/YEAR) (_sql._floor_ceil_to)
        ctx.note(M.TB_PARSE, "FLOOR(ts TO MONTH/QUARTER/YEAR): the same values from 1970 on; Flink 2.3 rounds a time "
                 "before 1970 from the next day (1969-12-31 23:59:59.5 TO MONTH is 1970-01-01), Spark from its own day")
    if re.search(r"\b(FIRST|LAST)_VALUE\([^()]*(\([^()]*\)[^()]*)*, TRUE\)", text):  # only the aggregates become them
        ctx.note(M.TB_FIRST_VALUE, "FIRST_VALUE/LAST_VALUE: the first/last value (NULLs skipped, as in Flink) of a group in "
                 "the order its rows reach Spark's aggregate, which may differ from Flink's arrival order")
    if "LISTAGG(" in text:  # only Flink's LISTAGG becomes it
        ctx.note(M.TB_LISTAGG, "LISTAGG: each group's values are joined in the order they reach the aggregate in Spark, "
                 "which may differ from Flink's (the same values, separator and NULLs skipped)")


def extreme_notes(ctx, notes: list) -> None:
    """The NOTEs a translated SQL statement's translation gave (``_sql.query(..., notes=)``): F2S329
    of its MIN/MAX subjects (``_types.extreme_nan`` decides, for the Table API too), F2S348 of its
    CASTs of a TIMESTAMP to DATE ((``_sql.DATE_BEFORE_1970``, the cast))."""
    subjects = [n for n in notes if isinstance(n, str)]
    if subjects:
        ctx.note(M.TB_NAN_EXTREME, extreme_nan_note(subjects))
    casts = [subject for kind, subject in (n for n in notes if not isinstance(n, str)) if kind == _sql.DATE_BEFORE_1970]
    if casts:
        ctx.note(M.TB_DATE_BEFORE_1970, f"{', '.join(dict.fromkeys(casts))} of a TIMESTAMP: the same values as Flink's "
                 "for times from 1970 on and for midnights; Flink 2.3 takes the next day for a time before 1970 that is "
                 "not midnight (CAST of 1969-12-31 23:59:59.5 AS DATE is 1970-01-01), Spark the calendar day (1969-12-31)")


def catalog_reads(ctx, source: SqlText) -> None:
    """The NOTE (batch mode) or TODO (streaming mode) of each table the Flink SQL ``source`` reads
    that the program does not declare (a Flink catalog's; the program model's ``undeclared``)."""
    model = tables(ctx.resolver)
    for name in sorted(_sql.tables_read(source.text) or ()):
        if not model.undeclared(name):
            continue
        refused = model.catalog_refused(name)
        if refused is not None:
            ctx.todo(M.TB_CATALOG_STREAM, f"SQL reading {name!r}: {refused}")
        else:
            ctx.note(M.TB_CATALOG_TABLE, model.catalog_note(name, "SQL reads"))


def _sql_call(ctx, env, text: str, source: SqlText) -> cst.BaseExpression:
    """``env.sql(text)`` with the placeholders of ``source`` (f-string values, formatted tables)."""
    sql_notes(ctx, text)
    catalog_reads(ctx, source)
    literal, kwargs = sql_arguments(text, source.parts, source.tables)
    args = [cst.Arg(cst.parse_expression(literal))]
    args += [cst.Arg(cst.parse_expression(value), keyword=cst.Name(name), equal=cst.AssignEqual(
        whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(""))) for name, value in kwargs]
    return cst.Call(func=cst.Attribute(value=env, attr=cst.Name("sql")), args=args)


def _statements_kept(ctx, assign, model) -> bool:
    """Whether a statement of the set ``assign`` binds stays as it is (SQL text not known when
    converting): then the set stays too, for it."""
    target = assign.targets[0].target if len(assign.targets) == 1 else None
    if not isinstance(target, cst.Name):
        return True
    for binding in ctx.resolver.scope_bindings(target) or []:
        for ref in binding.references:
            attr = ctx.resolver.parent(ref.node)
            call = ctx.resolver.parent(attr) if isinstance(attr, cst.Attribute) else None
            if not isinstance(call, cst.Call):
                return True
            if attr.attr.value == "add_insert_sql" and model.sql(call.args[0].value if call.args else None) is None:
                return True
    return False


def _passed_on(ctx) -> bool:
    """Whether the statement set ``name = t_env.create_statement_set()`` makes is passed to a
    call (a helper adding statements to it)."""
    assign = ctx.resolver.parent(ctx.outer)
    target = assign.targets[0].target if isinstance(assign, cst.Assign) and len(assign.targets) == 1 else None
    if not isinstance(target, cst.Name):
        return False
    return any(isinstance(ctx.resolver.parent(ref.node), cst.Arg)
               for binding in ctx.resolver.scope_bindings(target) or [] for ref in binding.references)


_STREAMING_IN_SET = ("a streaming INSERT in a statement set this rule cannot follow (each is a query of its own, started "
                     "where it is added and awaited together at the set's execute().wait())")


def _set_created(ctx):
    """The ``t_env.create_statement_set()`` call the statement set of the call is (a name bound
    once to it), None for another receiver (a helper's parameter)."""
    receiver = ctx.site.head.original.func.value
    value = ctx.resolver.single_value(receiver) if isinstance(receiver, cst.Name) else None
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "create_statement_set":
        return value
    return None


def _env_of_statement_set(ctx):
    """The (converted) environment that created the statement set the call is on; for a helper's
    parameter given such sets (converted to their sessions), the parameter itself."""
    receiver = ctx.site.head.original.func.value
    resolver = ctx.resolver
    value = resolver.single_value(receiver) if isinstance(receiver, cst.Name) else receiver
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value == "create_statement_set":
        return value.func.value
    if value is None and isinstance(receiver, cst.Name):
        args = resolver.arguments_of(receiver)
        sets = [resolver.single_value(a) if isinstance(a, cst.Name) else None for a in args]
        if args and all(isinstance(v, cst.Call) and isinstance(v.func, cst.Attribute) and v.func.attr.value == "create_statement_set"
                        and isinstance(resolver.parent(v), cst.Assign) for v in sets):
            return ctx.site.head.updated.func.value  # the set is its session (create_statement_set passed on)
    return None


def _statement(ctx, env, text, what, waited: bool = False):
    """The conversion of one SQL statement run by execute_sql/add_insert_sql (``waited``: its
    result is kept in a name only to be waited for, as ``.wait()`` on it would)."""
    segs = ctx.site.segments
    after = after_methods(ctx) + (["wait"] if waited else [])
    notes: list[str] = []
    try:
        kind = _sql.statement_kind(text.text)
        model = tables(ctx.resolver)
        if model.mode == "streaming" and kind in ("query", "insert", "create_view") and _sql.following_frame(text.text):
            return ctx.todo(M.TB_SQL, f"{what}: OVER window ending FOLLOWING in streaming mode (Flink 2.3 refuses it: \"OVER "
                            "RANGE FOLLOWING windows are not supported yet\"; batch mode runs it)")
        if kind in ("query", "insert", "create_view") and (late := model.sql_over_late(text.text)) is not None:
            ctx.note(M.TB_OVER_LATE, late)
        if kind == "query":
            updating = after == ["print"] and model.sql_updating(text.text)  # print() shows an updating table's changes
            spark = _sql.query(text.text, model.sql_tables(), model.sql_functions(), updates=updating, notes=notes)
            extreme_notes(ctx, notes)
            streaming = _sql.streaming(text.text, model.sql_tables())
            if after == ["print"]:
                return show(ctx, _sql_call(ctx, env, spark, text), streaming, inserts=model.sql_insert_only(text.text),
                            update=updating)
            if streaming and after == ["collect"] and len(segs) == 2:
                return stream_collect(ctx, _sql_call(ctx, env, spark, text), model.sql_insert_only(text.text), what)
            if streaming and (after or what != "execute_sql()"):
                return ctx.todo(M.TB_UNSUPPORTED, f"{what}: the result of a streaming query used another way than print()")
            if after == ["collect"]:
                return collected(ctx, _sql_call(ctx, env, spark, text))
            if not after and what == "execute_sql()":  # result = t_env.execute_sql("SELECT ..."); result.print()
                kept = model.kept_query(ctx.site.head.original)
                if kept.problem is None:
                    return _sql_call(ctx, env, spark, text)
                return ctx.todo(M.TB_UNSUPPORTED, f"{what}: the TableResult of a query is kept: {kept.problem}")
            return ctx.todo(M.TB_UNSUPPORTED, f"{what}: the result of a query is used another way than print()/collect()")
        # execute_sql("INSERT ...").print(): Flink waits for the job, then prints its affected-row
        # count, -1 (not known): job metadata, which Spark's write does not print
        printed = kind == "insert" and after == ["print"] and ctx.is_statement
        if any(m != "wait" for m in after) and not printed:
            return ctx.todo(M.TB_UNSUPPORTED, f"{what}: its TableResult is used")
        if kind == "create_table":
            table = _sql.create_table(text.text, model.catalog)
            if _MARK_RE.search(table.name):
                # the name a caller gives: the table's reads and writes, which choose its form
                # (a view of a csv read, a table written, a Kafka stream...), are not followed
                return ctx.todo(M.TB_TABLE_NAME, f"{what}: CREATE TABLE of a table whose name is given by "
                                f"{text.parts[int(_MARK_RE.search(table.name).group(1))]}: which statements read or "
                                "write it, and so its Spark form, is not followed: port it by hand for the tables its callers name")
            if table.connector == "filesystem":
                declared = create(ctx, env, table, text.parts)
                sql_notes(ctx, " ".join(expression for _, expression in table.computed))
                extreme_notes(ctx, list(table.notes))
                return declared
            if table.connector == "datagen" and table.name not in model.problems:
                return declare_datagen(ctx, env, table, text.parts)
            if table.connector in ("print", "blackhole") and ctx.is_statement:
                return REMOVE
            if table.connector in ("kafka", "upsert-kafka") and table.name not in model.problems:
                try:
                    declared = _kafka.create(ctx, env, table, text.parts, model)
                    sql_notes(ctx, " ".join(expression for _, expression in table.computed))
                    extreme_notes(ctx, list(table.notes))
                    return declared
                except _sql.Untranslatable as exc:
                    return ctx.todo(M.TB_CONNECTOR, f"{what}: Kafka table {table.name!r}: {exc}")
            if table.connector == "jdbc" and table.name not in model.problems:
                try:
                    return _jdbc.create(ctx, env, table, text.parts, model)
                except _sql.Untranslatable as exc:
                    return ctx.todo(M.TB_CONNECTOR, f"{what}: JDBC table {table.name!r}: {exc}")
            if table.name in model.problems:  # the program model's reason (a table declared twice, an f-string name...)
                return ctx.todo(M.TB_CONNECTOR, f"{what}: {table.connector!r} table {table.name!r} not converted: "
                                f"{model.problems[table.name]}")
            return ctx.todo(M.TB_CONNECTOR, f"{what}: connector {table.connector!r} is not converted yet")
        if kind == "insert":
            updating = model.sql_updating(text.text)
            target, spark = _sql.insert(text.text, model.sql_tables(), model.sql_functions(), updates=updating, notes=notes)
            if updating and model.updates_refused(target) is not None:
                return ctx.todo(M.TB_SQL, f"{what}: aggregation without a window on a streaming query (an updating table) "
                                f"into {target!r}: {model.updates_refused(target)}")
            extreme_notes(ctx, notes)
            table = model.catalog.get(target)
            streaming = _sql.streaming(text.text, model.sql_tables())
            written_as_data = table is not None and table.options.get("format") == "canal-json"  # text lines, not a Spark table
            if target in model.conditional or written_as_data or (
                    table is not None and (table.connector in ("print", "blackhole", "kafka", "upsert-kafka", "jdbc") or streaming)):
                if streaming and what == "add_insert_sql()" and _set_created(ctx) is None:
                    return ctx.todo(M.TB_UNSUPPORTED, f"{what}: {_STREAMING_IN_SET}")
                written = write_to(ctx, _sql_call(ctx, env, spark, text), target, what, streaming,
                                   "wait" in after or printed, model.sql_insert_only(text.text), update=updating)
                return print_noted(ctx, written, target, streaming) if printed else written
            if table is None and model.undeclared(target):  # a Flink catalog's table: Spark's session catalog's
                refused = model.catalog_refused(target)
                if refused is not None or streaming:
                    return ctx.todo(M.TB_CATALOG_STREAM, f"{what}: " + (refused or f"a streaming query into table "
                                    f"{target!r}, which this program does not declare (a Flink catalog's)"))
                ctx.note(M.TB_CATALOG_TABLE, model.catalog_note(target, f"{what} INSERT INTO"))
            elif table is None:
                return ctx.todo(M.TB_CONNECTOR, f"{what}: table {target!r} is not declared by this program's SQL")
            written = _sql_call(ctx, env, f"INSERT INTO {target} {spark}", text)
            return print_noted(ctx, written, target, streaming) if printed else written
        if kind == "create_view":
            name, spark = _sql.create_view(text.text, model.sql_tables(), model.sql_functions(), notes=notes)
            extreme_notes(ctx, notes)
            return _sql_call(ctx, env, f"CREATE TEMPORARY VIEW {name} AS {spark}", text)
        if kind == "drop":
            what_kind, name, exists = _sql.drop(text.text)
            table = model.catalog.get(name)
            if table is not None and table.connector in ("print", "blackhole") and ctx.is_statement:
                return REMOVE  # Spark has no table for it
            # Spark's DROP TABLE drops a temporary view too (the form of datagen and read-only file tables)
            return _sql_call(ctx, env, f"DROP {what_kind}{' IF EXISTS' if exists else ''} `{name}`", text)
        if kind == "set" and ctx.is_statement:
            ctx.note(M.TB_CONFIG, f"Flink setting dropped: {text.text.strip()}")
            return REMOVE
        catalog = re.match(r"CREATE\s+CATALOG\s+(?:IF\s+NOT\s+EXISTS\s+)?`?(\w+)", text.text, re.I)
        if catalog:
            return ctx.todo(M.TB_SQL, f"{what}: CREATE CATALOG {catalog.group(1)}: {CATALOG_WHY}")
        if re.match(r"CREATE\s+DATABASE\b", text.text, re.I):
            return ctx.todo(M.TB_SQL, f"{what}: CREATE DATABASE is not converted yet (a database of Flink's catalog "
                            "lives as long as the job, Spark's persists in its warehouse)")
        return ctx.todo(M.TB_SQL, f"{what}: {kind} statements are not converted yet")
    except _sql.Untranslatable as exc:
        return ctx.todo(M.TB_SQL, f"{what}: {exc}")


@rule.converter
def convert(ctx):
    head = ctx.site.head
    method = head.method
    model = tables(ctx.resolver)
    if method == "create_temporary_view":
        args = head.original.args
        if len(args) < 2 or args[0].keyword is not None or any(a.star for a in args) \
                or (len(args) > 2 and not P.is_stream(ctx.resolver.type_of(args[1].value))):
            return ctx.todo(M.TB_UNSUPPORTED, "create_temporary_view() with other arguments than (name, table) or (name, stream, *fields)")
        earlier = model.registered_before(head.original)
        if earlier is not None:  # Flink fails here; Spark's createOrReplaceTempView would replace the view
            return ctx.todo(M.TB_UNSUPPORTED, f"create_temporary_view() of {model.name(args[0].value)!r}, which "
                            f"{earlier.func.attr.value}() registered before: Flink 2.3 fails here (Temporary table "
                            "... already exists); Spark's createOrReplaceTempView would replace it")
        name, table = head.updated.args[0].value, head.updated.args[1].value
        if P.is_stream(ctx.resolver.type_of(args[1].value)):  # a view of a DataStream (its fields picked or renamed)
            found, problem = model.from_stream(head.original) if len(args) > 2 else model.stream_columns(args[1].value)
            if found is None:
                return ctx.todo(M.TB_UNSUPPORTED, f"create_temporary_view() of a DataStream: {problem}")
            table = stream_frame(ctx, ctx.site.receiver, found, table)
        return ctx.expr("{t}.createOrReplaceTempView({n})", t=table, n=name)
    if method == "create_statement_set":
        if _passed_on(ctx):
            # given to a helper (write_all(t_env, statements)): the set becomes the session, on which
            # each statement added runs where it is added (as the set's statements run at execute())
            return ctx.site.receiver
        if ctx.is_statement or isinstance(ctx.resolver.parent(ctx.outer), cst.Assign):
            assign = ctx.resolver.parent(ctx.outer)
            if isinstance(assign, cst.Assign) and not _statements_kept(ctx, assign, model):
                ctx.remove_statement(assign)
                return ctx.keep("the statement set's statements run where they are added")
            return REMOVE
        return ctx.todo(M.TB_UNSUPPORTED, "a statement set used as a value")
    if method == "execute" and ctx.site.receiver_type == T.STATEMENT_SET:
        created = _set_created(ctx)
        if ctx.is_statement and created is not None and model.statement_set_streaming(created) \
                and [s.method for s in ctx.site.segments] == ["execute", "wait"]:
            # its streaming inserts started their queries where they were added: the job's wait
            return await_all(ctx, _env_of_statement_set(ctx))
        if ctx.is_statement:
            return REMOVE
        return ctx.todo(M.TB_UNSUPPORTED, "the result of StatementSet.execute() is used")
    if ctx.site.receiver_type == T.STATEMENT_SET:
        env = _env_of_statement_set(ctx)
        if env is None or not ctx.is_statement:
            return ctx.todo(M.TB_UNSUPPORTED, f"StatementSet.{method}() of a statement set this rule cannot follow")
        if method == "add_insert":
            sink = head.original.args[0].value if head.original.args else None
            if not isinstance(sink, cst.SimpleString) or len(head.updated.args) != 2:
                return ctx.todo(M.TB_UNSUPPORTED, "add_insert() of a table named by an expression")
            streaming = not model.bounded(head.original.args[1].value)
            if streaming and _set_created(ctx) is None:
                return ctx.todo(M.TB_UNSUPPORTED, f"add_insert(): {_STREAMING_IN_SET}")
            # a streaming insert starts its query here, awaited with the others at the set's execute().wait()
            return write_to(ctx, head.updated.args[1].value, sink.evaluated_value, "add_insert()", streaming, wait=False)
        text = model.sql(head.original.args[0].value if head.original.args else None)
        if text is None:
            return ctx.todo(M.TB_SQL, "add_insert_sql() of SQL text not known when converting")
        return _statement(ctx, env, text, "add_insert_sql()")
    text = model.sql(head.original.args[0].value if head.original.args else None)
    if text is None:
        why = model.unknown_reason(head.original.args[0].value if head.original.args else None)
        if why is not None:
            return ctx.todo(M.TB_HELPER_SQL, f"{method}() of SQL text not known when converting: {why}")
        return ctx.todo(M.TB_SQL, f"{method}() of SQL text not known when converting")
    if method == "sql_query":
        notes: list[str] = []
        try:
            spark = _sql.query(text.text, model.sql_tables(), model.sql_functions(), notes=notes)
            extreme_notes(ctx, notes)
            return _sql_call(ctx, ctx.site.receiver, spark, text)
        except _sql.Untranslatable as exc:
            return ctx.todo(M.TB_SQL, f"sql_query(): {exc}")
    line = waited_result(ctx) if len(ctx.site.segments) == 1 else None
    converted = _statement(ctx, ctx.site.receiver, text, "execute_sql()", waited=line is not None)
    if line is not None and isinstance(converted, cst.BaseExpression):
        drop_target(ctx, line)  # result = t_env.execute_sql("INSERT ..."); result.wait()
    return converted
