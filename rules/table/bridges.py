"""The bridges between a DataStream and a Table: ``t_env.from_data_stream(ds[, fields or
Schema])``, ``to_data_stream(table)``, ``to_changelog_stream(table)`` and the 1.x
``to_append_stream(table, type_info)`` / ``to_retract_stream(table, type_info)``.

A bounded DataStream is an RDD of the objects PyFlink hands Python (``f2s.Row``s, tuples,
basic values: rules/pyflink); a Table is a DataFrame. What each side is, is the program models':
the stream's element type and boundedness (``rules/pyflink/_streams.py``), the table's columns
and whether it gives only inserts (``rules/table/_program.py``: ``from_stream``,
``stream_columns``, ``stream_of``).

* ``from_data_stream(ds)`` -> ``spark.createDataFrame(ds.map(tuple), "<columns>")``: the
  columns Flink derives from the stream's type (``Types.ROW_NAMED``'s names, f0, f1... for
  ``Types.ROW``/``TUPLE``, one f0 for a basic type; Flink's table types for PyFlink's basic
  types). ``col("a")``/``col("a").alias("b")`` arguments pick, reorder and rename fields;
  a ``Schema`` of the same physical columns changes nothing. ``Types.INSTANT()`` fields are
  TIMESTAMP columns (Flink's TIMESTAMP_LTZ: both show them in the session time zone), the
  Instants datetimes in UTC (``f2s.table_values``). A Schema's computed columns
  (``column_by_expression``, Flink SQL as in CREATE TABLE; ``CAST(f AS TIMESTAMP(3))`` /
  ``TIMESTAMP_LTZ(3)`` of an INSTANT field of a collection, whose values are whole
  milliseconds) -> ``selectExpr`` of the table's columns in Flink's order (the declared
  ones; all the stream's fields first when none is declared); its ``watermark`` changes no
  row of a bounded table: the windows over the rowtime column say when Flink may drop late
  records (NOTE F2S317, ``rules/table/windows.py``). Metadata columns (the stream's rowtime),
  proctime attributes: TODO F2S300.
* When the program model lowers ``ds`` to a DataFrame (``StreamFacts.frame``: the table is one of
  its consumers with a native form, ``_frames.table_view_problem``: a bounded stream of elements
  whose fields have the table's column types; INSTANT fields of literal ``Instant.of_epoch_milli(n)``
  values read by no Python function first: TIMESTAMP columns of their UTC datetimes), ``from_data_stream(ds)`` /
  ``create_temporary_view(name, ds)`` is that DataFrame, its columns renamed by position as
  Flink names the table's (``toDF``), then the fields picked and the Schema's computed columns
  as above: no RDD.
* ``from_data_stream(ds)`` / ``create_temporary_view(name, ds)`` of an unbounded stream (a
  Kafka or monitored-files source: ``f2s_stream.micro_batches``, ``StreamFacts.micro_batches``)
  -> ``f2s_stream.table(<the same tuples>, "<columns>")``: a streaming DataFrame of the
  stream's elements after its Python operators (NOTE F2S343), so the table model's streaming
  forms follow (``execute().print()``, collect loops, inserts as streaming queries). A
  Schema's watermark and INSTANT fields there: TODO F2S300.
* ``to_data_stream(table)`` / ``to_changelog_stream(table)`` of a bounded table that gives only
  inserts -> ``df.rdd.map(f2s.decoded(Types.ROW_NAMED([...], [...])))``: Rows with the table's
  columns as names, as Flink hands them to Python (every record an insert, +I), so the
  DataStream rules convert the operators that follow. ``to_append_stream(table, type_info)``
  the same with the given Row/Tuple type (fields by position); ``to_retract_stream(table,
  type_info)`` then ``(True, row)`` pairs (every record an add message). An updating table
  (streaming mode: aggregations without a window, joins, DISTINCT...), a target schema or
  changelog mode: TODO F2S300 saying why, and the stream's operators TODO F2S210; but
  ``to_changelog_stream(table)`` (``to_retract_stream(table, type_info)``) of a bounded updating
  table whose stream is only printed (``TablesModel.printed_changelog``) is the table's
  DataFrame, its print() ``show()``: Flink prints every change (+I/-U/+U/-D; (true, row) and
  (false, row) pairs), Spark the final rows they leave (NOTE F2S303, as for a printed updating
  table).
* ``to_data_stream(table)`` (``to_changelog_stream``, ``to_append_stream``, ``to_retract_stream``)
  of an unbounded table that gives only inserts (a Kafka table through projections and filters:
  ``TablesModel.unbounded_stream``) -> ``f2s_stream.micro_batches(df, Types.ROW_NAMED([...],
  [...]))``: the table's streaming DataFrame, its rows decoded per micro-batch as Flink hands
  them to Python, so the DataStream rules run the operators that follow per micro-batch
  (``StreamFacts.micro_batches``) and ``env.execute()`` waits for the streaming queries. In a
  program that declares a watermark (Flink hands a rowtime's timestamps to the stream): TODO.
* When the program model lowers that stream to a DataFrame (``StreamFacts.frame``: the bridge
  is a frame source whose shape is the table's columns, ``_frames.table_shape``, and every
  operator reading it has a native form), the bridge is the table's DataFrame itself
  (``toDF(<the type's field names>)`` for ``to_append_stream(table, type_info)``): the
  ``filter``/``map``/``key_by``/``print`` that follow become DataFrame code. Every column may
  hold None (the table model knows no NOT NULL): the Column forms raise where Flink's function
  would. A retract stream's pairs, and rolling (STREAMING) aggregations, whose running values
  need the table's row order, stay RDDs.
"""

from __future__ import annotations

import libcst as cst

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import IMPORT as STREAM_IMPORT, SHIM_IMPORT, rdd_note, RetractPairs, as_stream, decoding, type_code, type_expression
from flink2spark.rules.pyflink._streams import facts
from flink2spark.rules.table._program import StreamTable, tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

_HEAD = (
    STREAM_IMPORT + "from pyflink.common import Types\n"
    "from pyflink.table import StreamTableEnvironment\n\n"
    "env = StreamExecutionEnvironment.get_execution_environment()\n"
    "t_env = StreamTableEnvironment.create(env)\n"
)


def _spark_head(rdd: str) -> str:
    """The converted ``_HEAD``, its NOTE F2S205 naming ``rdd`` (what keeps the program on RDDs)."""
    return (SHIM_IMPORT + "from pyspark.sql import SparkSession\n\n" + rdd_note(rdd) + "env = SparkSession.builder.getOrCreate()\n"
            "t_env = SparkSession.builder.getOrCreate()\n")

rule = Rule(
    __name__,
    matches=["StreamTableEnvironment.to_data_stream", "StreamTableEnvironment.to_changelog_stream",
             "StreamTableEnvironment.to_append_stream", "StreamTableEnvironment.to_retract_stream",
             "StreamTableEnvironment.from_data_stream", "StreamTableEnvironment.from_changelog_stream"],
    summary="from_data_stream(ds) -> the stream's DataFrame renamed as the table's columns when the program model"
            " lowers the stream to one, else createDataFrame(rdd.map(tuple), columns) (an unbounded stream:"
            " f2s_stream.table(...), a streaming DataFrame); to_data_stream(table) of an insert-only"
            " table -> the table's DataFrame when its stream's operators have DataFrame forms, else"
            " df.rdd.map(f2s.decoded(Types.ROW_NAMED(...))) (an unbounded table: f2s_stream.micro_batches(df, ...));"
            " an updating table's changelog only printed -> its final rows shown (NOTE F2S303);"
            " other updating tables, rowtime attributes: TODO",
    codes=(M.TB_UNSUPPORTED, M.TB_STREAM_TABLE, M.TB_CHANGELOG),
    examples=[
        Example(
            _HEAD
            + "orders = env.from_collection([('a', 2)], type_info=Types.ROW_NAMED(['item', 'qty'], [Types.STRING(), Types.INT()]))\n"
            "table = t_env.from_data_stream(orders)\n"
            "t_env.to_data_stream(table).map(lambda row: row.qty, output_type=Types.INT()).print()\n",
            # the stream is a DataFrame (the program model's plan): the table is that DataFrame, no RDD (no NOTE F2S205)
            "from flink2spark.runtime import frame_process as f2s_process\nfrom pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\nt_env = SparkSession.builder.getOrCreate()\n"
            'orders = env.createDataFrame([("a", 2)], "item STRING, qty INT")\n'
            "table = orders\n"
            # the table's stream is a DataFrame; qty may be NULL: no Column (Flink fails on a None INT), a Python UDTF
            'f2s_process.python_udtf(table, "map", lambda row: row.qty, "row", "value INT").show(\n'
            "    2147483647, truncate=False\n"
            ")\n",
        ),
        Example(  # a function's named Row crosses the stream type's serializer (fields by name); an updating table printed
            "from pyflink.common import Row\nfrom pyflink.table.expressions import col\n" + _HEAD
            + "words = env.from_collection(['a'], type_info=Types.STRING()).map(\n"
            "    lambda w: Row(n=len(w), w=w), output_type=Types.ROW_NAMED(['w', 'n'], [Types.STRING(), Types.INT()]))\n"
            "table = t_env.from_data_stream(words, col('n'), col('w').alias('word'))\n"
            "t_env.to_changelog_stream(table.group_by(col('word')).select(col('word'), col('n').sum.alias('n'))).print()\n",
            "from flink2spark.runtime import datastream as f2s\nfrom pyspark.sql import SparkSession, functions as F\n\n"
            + rdd_note('`.map()` at line 9 has no DataFrame form (as a Python UDTF: a Row with named fields (Flink\'s serializer reads them by name))') + "env = SparkSession.builder.getOrCreate()\nt_env = SparkSession.builder.getOrCreate()\n"
            'words = env.sparkContext.parallelize(["a"]).map(lambda w: f2s.Row(n=len(w), w=w))\n'
            "table = (\n"
            "    t_env.createDataFrame(\n"
            "        words.map(\n"
            "            f2s.decoded(\n"
            '                f2s.Types.ROW_NAMED(["w", "n"], [f2s.Types.STRING(), f2s.Types.INT()])\n'
            "            )\n"
            "        ).map(tuple),\n"
            '        "w STRING, n INT",\n'
            "    )\n"
            '    .select("n", "w")\n'
            '    .toDF("n", "word")\n'
            ")\n"
            "# NOTE(flink2spark): F2S303 streaming mode: Flink prints every change (+I/-U/+U/-D) of an updating table,"
            " Spark shows its final rows\n"
            'table.groupBy(F.col("word")).agg(F.sum(F.col("n")).cast("INT").alias("n")).show(\n'
            "    2147483647, truncate=False\n"
            ")\n",
        ),
        Example(  # Instants and a Schema's rowtime column with a watermark (Flink's CAST in the session time zone, as Spark's)
            "from pyflink.common.time import Instant\nfrom pyflink.table import DataTypes, Schema\n" + _HEAD
            + "taps = env.from_collection([(Instant.of_epoch_milli(2000), 'b')], type_info=Types.ROW([Types.INSTANT(), Types.STRING()]))\n"
            "table = t_env.from_data_stream(taps, Schema.new_builder().column('f1', DataTypes.STRING())\n"
            "    .column_by_expression('ts', 'CAST(f0 AS TIMESTAMP(3))').watermark('ts', \"ts - INTERVAL '5' SECOND\").build())\n",
            # literal Instant.of_epoch_milli(n) data read by no Python function: a DataFrame of their UTC datetimes
            "from flink2spark.runtime import datastream as f2s\nfrom pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\nt_env = SparkSession.builder.getOrCreate()\n"
            "taps = env.createDataFrame(\n"
            '    [f2s.table_values(r) for r in [(f2s.Instant.of_epoch_milli(2000), "b")]],\n'
            '    "f0 TIMESTAMP, f1 STRING",\n'
            ")\n"
            'table = taps.selectExpr("f1", "CAST(f0 AS TIMESTAMP_NTZ) AS ts")\n',
        ),
        Example(  # the same with the type a module constant: the constant is the DDL, the data still the UTC datetimes
            "from pyflink.common.time import Instant\n" + _HEAD
            + "TAPS = Types.ROW_NAMED(['at', 'name'], [Types.INSTANT(), Types.STRING()])\n"
            "taps = env.from_collection([(Instant.of_epoch_milli(2000), 'b')], type_info=TAPS)\n"
            "t_env.create_temporary_view('taps', taps)\n",
            "from flink2spark.runtime import datastream as f2s\nfrom pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\nt_env = SparkSession.builder.getOrCreate()\n"
            'TAPS = "at TIMESTAMP, name STRING"\n'
            "taps = env.createDataFrame(\n"
            '    [f2s.table_values(r) for r in [(f2s.Instant.of_epoch_milli(2000), "b")]], TAPS\n'
            ")\n"
            'taps.createOrReplaceTempView("taps")\n',
        ),
        Example(  # a map reads the Instants first (Flink hands it Instant objects): the stream stays an RDD
            "from pyflink.common import Row\nfrom pyflink.common.time import Instant\n" + _HEAD
            + "taps = env.from_collection([(Instant.of_epoch_milli(2000), 'b')], type_info=Types.ROW([Types.INSTANT(), Types.STRING()]))\n"
            "later = taps.map(lambda r: Row(r[0], r[1].upper()), output_type=Types.ROW([Types.INSTANT(), Types.STRING()]))\n"
            "table = t_env.from_data_stream(later)\n",
            _spark_head("`.map()` at line 10 has no DataFrame form over a frame of Instants (Flink hands Python Instant"
                        " objects, to functions and print, Spark datetimes: only the Table of the stream,"
                        " from_data_stream/create_temporary_view, takes one)")
            + "taps = env.sparkContext.parallelize(\n"
            "    f2s.typed(\n"
            '        [(f2s.Instant.of_epoch_milli(2000), "b")],\n'
            "        f2s.Types.ROW([f2s.Types.INSTANT(), f2s.Types.STRING()]),\n"
            "    )\n"
            ")\n"
            "later = taps.map(lambda r: f2s.Row(r[0], r[1].upper()))\n"
            "table = t_env.createDataFrame(\n"
            "    later.map(\n"
            "        f2s.decoded(f2s.Types.ROW([f2s.Types.INSTANT(), f2s.Types.STRING()]))\n"
            "    ).map(f2s.table_values),\n"
            '    "f0 TIMESTAMP, f1 STRING",\n'
            ")\n",
        ),
        Example(  # a bounded table's stream lowered to a DataFrame: the table itself, its Rows' fields as columns
            _HEAD + "orders = t_env.from_elements([('a', 2), ('b', 7)], ['item', 'qty'])\n"
            "t_env.to_data_stream(orders).filter(lambda row: row[1] > 5).print()\n",
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\nt_env = SparkSession.builder.getOrCreate()\n"
            'orders = t_env.createDataFrame([("a", 2), ("b", 7)], ["item", "qty"])\n'
            "orders.where(\n"
            '    F.coalesce(F.col("qty"), F.raise_error(F.lit("TypeError: > of None"))) > 5\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # a table of an unbounded (Kafka) stream: a streaming DataFrame of its elements, one column f0 of strings
            "from pyflink.common.serialization import SimpleStringSchema\n"
            "from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer\n" + _HEAD
            + 'lines = env.add_source(FlinkKafkaConsumer("lines", SimpleStringSchema(), {"bootstrap.servers": "kafka:9092"}))\n'
            "words = t_env.from_data_stream(lines.map(lambda line: line.upper(), output_type=Types.STRING()))\n",
            "from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\n"
            "from pyspark.sql import SparkSession, functions as F\n\n"
            + rdd_note("`t_env.from_data_stream()` at line 10 has no DataFrame form over the stream's frame: a table of an"
                       " unbounded stream is made of its elements after its Python operators")
            + "env = SparkSession.builder.getOrCreate()\nt_env = SparkSession.builder.getOrCreate()\n"
            "# NOTE(flink2spark): F2S256 FlinkKafkaConsumer starts from the group's committed offsets; Spark does not read"
            " them and starts from latest (auto.offset.reset)\n"
            "# NOTE(flink2spark): F2S250 the Kafka connector is not part of PySpark: run with spark-submit --packages"
            " org.apache.spark:spark-sql-kafka-0-10_2.13:<your Spark version>\n"
            "lines = f2s_stream.micro_batches(\n"
            '    env.readStream.format("kafka")\n'
            '    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("subscribe", "lines")\n'
            '    .option("startingOffsets", "latest")\n'
            "    .load()\n"
            '    .select(F.col("value").cast("string").alias("value")),\n'
            "    f2s.Types.STRING(),\n"
            ")\n"
            f"# NOTE(flink2spark): F2S343 {M.CODES[M.TB_STREAM_TABLE].title}\n"
            "words = f2s_stream.table(\n"
            '    lines.map(lambda line: line.upper()).map(lambda value: (value,)), "f0 STRING"\n'
            ")\n",
        ),
        Example(  # the stream of an unbounded (Kafka) table: its streaming DataFrame read per micro-batch, Rows of its columns
            _HEAD
            + "t_env.execute_sql(\"CREATE TABLE taps (card STRING) WITH ('connector' = 'kafka', 'topic' = 'taps', \"\n"
            "    \"'properties.bootstrap.servers' = 'kafka:9092', 'scan.startup.mode' = 'latest-offset', 'format' = 'json')\")\n"
            't_env.to_data_stream(t_env.from_path("taps")).map(lambda row: row.card, output_type=Types.STRING()).print()\n'
            "env.execute()\n",
            "from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\nfrom pyspark.sql import SparkSession\n\n"
            + rdd_note("the table's stream `.to_data_stream()` at line 9 has no DataFrame form (a bounded table that gives only"
                       " inserts, of columns of basic types other than FLOAT, has one; a retract stream's pairs have none)")
            + "env = SparkSession.builder.getOrCreate()\nt_env = SparkSession.builder.getOrCreate()\n"
            "# NOTE(flink2spark): F2S307 Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package (spark-submit"
            " --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>); Flink's json format fails the job on a"
            " malformed record ('json.ignore-parse-errors' false), Spark's from_json gives NULL fields there\n"
            't_env.readStream.format("kafka").option("kafka.bootstrap.servers", "kafka:9092").option(\n'
            '    "subscribe", "taps"\n'
            ').option("startingOffsets", "latest").load().selectExpr(\n'
            "    \"from_json(CAST(value AS STRING), 'card STRING') AS value\"\n"
            ').selectExpr("value.card").createOrReplaceTempView("taps")\n\n\n'
            "def print_batch(batch):\n    for record in batch.collect():\n        print(record)\n\n\n"
            f"# NOTE(flink2spark): F2S253 {K.MICRO_BATCH_NOTE}\n# NOTE(flink2spark): F2S251 {K.CHECKPOINT_NOTE}\n"
            "f2s_stream.foreach_batch(\n"
            "    f2s_stream.micro_batches(\n"
            '        t_env.table("taps"), f2s.Types.ROW_NAMED(["card"], [f2s.Types.STRING()])\n'
            "    ).map(lambda row: row.card),\n"
            "    print_batch,\n"
            ').option("checkpointLocation", f2s_stream.checkpoint("print")).start()\n'
            "f2s_stream.await_termination(env)\n",
        ),
    ],
    noop=['streams = {"a": 1}\nfirst = streams.get("a")\n'],
)


def _name(n: str) -> str:
    return n if n.isidentifier() else "`" + n.replace("`", "``") + "`"


def _ddl(columns) -> str:
    return ", ".join(f"{_name(n)} {t}" for n, t in columns)


def stream_frame(ctx, session: cst.BaseExpression, table: StreamTable, stream: cst.BaseExpression) -> cst.BaseExpression:
    """``session.createDataFrame(<stream's values as tuples>, "<columns>")`` of the (converted)
    ``stream`` the (original) ``table.stream`` became, with the fields ``table`` picks."""
    found = facts(ctx.resolver, table.stream)
    picked = table.picked
    if picked is not None and [src for src, _ in picked] == [n for n, _ in table.columns]:  # renamed in place
        columns, picked = [(dst, t) for (dst, (_, t)) in zip((d for _, d in picked), table.columns)], None
    else:
        columns = list(table.columns)
    shape = found.frame
    if shape is not None:  # a DataFrame (the program model's plan: _frames.table_view_problem): the table is that frame
        frame = stream
        if shape.kind == "value" or [f.name for f in shape.fields] != [n for n, _ in columns]:  # Flink's names, by position
            frame = ctx.expr("{f}.toDF(%s)" % ", ".join(_string(n) for n, _ in columns), f=frame)
    else:
        frame = _rows_frame(ctx, session, table, stream, found, columns)
    if table.projection is not None:  # a Schema's computed columns (and the watermark's rowtime column)
        items = [_name(name) if sql is None else f"{sql} AS {_name(name)}" for name, sql, _ in table.projection]
        return ctx.expr("{f}.selectExpr(%s)" % ", ".join(_string(i) for i in items), f=frame)
    if picked is None:
        return frame
    frame = ctx.expr("{f}.select(%s)" % ", ".join(_string(src) for src, _ in picked), f=frame)
    if any(src != dst for src, dst in picked):
        frame = ctx.expr("{f}.toDF(%s)" % ", ".join(_string(dst) for _, dst in picked), f=frame)
    return frame


def _rows_frame(ctx, session, table: StreamTable, stream, found, columns) -> cst.BaseExpression:
    """The DataFrame of the (converted) RDD ``stream``: its values as tuples of ``columns``."""
    stream = as_stream(ctx, stream, found.api_type)  # a keyed stream: its elements
    if found.timestamped:  # (timestamp, value) pairs: Flink drops the timestamps here
        stream = ctx.expr("{s}.values()", s=stream)
    decode = decoding(ctx, [table.stream], table.stream)  # a function's objects cross the stream type's serializer
    if decode is not None:
        stream = ctx.expr("{s}.map({d})", s=stream, d=decode)
    if table.instants:  # Instants -> datetimes
        rows = ctx.expr("{s}.map(lambda value: {v}((value,)))" if table.scalar else "{s}.map({v})", s=stream,
                        v=ctx.shim("table_values"))
    else:
        rows = ctx.expr("{s}.map(lambda value: (value,))" if table.scalar else "{s}.map(tuple)", s=stream)
    if table.unbounded:  # a MicroBatches stream: its elements as a streaming DataFrame
        ctx.note(M.TB_STREAM_TABLE, M.CODES[M.TB_STREAM_TABLE].title)
        return ctx.expr("{table}({r}, %s)" % _string(_ddl(columns)), table=K.shim(ctx, "table"), r=rows)
    return ctx.expr("{e}.createDataFrame({r}, %s)" % _string(_ddl(columns)), e=session, r=rows)


def _string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    method = seg.method
    model = tables(ctx.resolver)
    if method == "from_changelog_stream":
        return ctx.todo(M.TB_UNSUPPORTED, "from_changelog_stream(): a Table of a changelog stream is not converted yet")
    if method == "from_data_stream":
        table, problem = model.from_stream(seg.original)
        if table is None:
            return ctx.todo(M.TB_UNSUPPORTED, f"from_data_stream(): {problem}")
        return stream_frame(ctx, ctx.site.receiver, table, seg.updated.args[0].value)
    t, problem = model.stream_of(seg.original)
    if problem is not None:  # the stream's operators carry TODO F2S210 (the program model follows it)
        return ctx.todo(M.TB_UNSUPPORTED, problem)
    if not model.insert_only(seg.original.args[0].value):  # only printed (model.printed_changelog)
        ctx.note(M.TB_CHANGELOG, "streaming mode: Flink prints every change (+I/-U/+U/-D) of an updating table, Spark"
                 " shows its final rows")
    shape = facts(ctx.resolver, seg.original).frame
    if shape is not None:  # a DataFrame (the program model's plan): the table's own, its columns renamed as the type's fields
        frame = seg.updated.args[0].value
        names = [f.name for f in shape.fields]
        if names != list(model.schema(seg.original.args[0].value) or ()):
            frame = ctx.expr("{f}.toDF(%s)" % ", ".join(_string(n) for n in names), f=frame)
        return frame
    row = t.row if isinstance(t, RetractPairs) else t
    known, info = type_expression(ctx, row, seg.original)
    if not known or info is None:
        return ctx.todo(M.TB_UNSUPPORTED, f"{method}(): the type {type_code(ctx.resolver, row)} means something else here")
    if model.unbounded_stream(seg.original):  # a streaming DataFrame: its rows decoded per micro-batch
        stream = ctx.expr("{micro_batches}({df}, {t})", micro_batches=K.shim(ctx, "micro_batches"), df=seg.updated.args[0].value,
                          t=info)
    else:
        stream = ctx.expr("{df}.rdd.map({decoded}({t}))", df=seg.updated.args[0].value, decoded=ctx.shim("decoded"), t=info)
    if isinstance(t, RetractPairs):  # every record an add message (the table gives only inserts)
        stream = ctx.expr("{s}.map(lambda row: (True, row))", s=stream)
    return stream
