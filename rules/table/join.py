"""Joins and set operations of Tables -> the DataFrame's:

- ``join(right[, cond])``, ``left_outer_join``, ``right_outer_join``, ``full_outer_join`` ->
  ``join(right, cond, "inner"/"left"/"right"/"full")``; a ``join(right)`` with no condition
  followed by ``where(cond)`` is an inner join on ``cond`` in both engines (the ``where`` rule
  filters).
- A join of a stream (a Kafka table, streaming mode) where the program model's ``stream_join``
  finds a Spark form with Flink's rows: a stream-static join (inner, left outer with the stream
  on the left, right outer with it on the right: NOTE F2S327) or the stream-stream inner join on
  an equality; any other: TODO F2S300 with the model's reason.
- ``union_all`` -> ``unionAll``... Flink's ``union``/``intersect``/``minus`` drop duplicates
  (SQL's UNION, INTERSECT, EXCEPT) -> ``union().distinct()``, ``intersect``, ``subtract``;
  ``intersect_all``/``minus_all`` -> ``intersectAll``/``exceptAll``. Both match columns by
  position.
"""

import libcst as cst

from flink2spark.rules.table._common import columns, program, spark_program, on_stream
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

_HOW = {"join": "inner", "left_outer_join": "left", "right_outer_join": "right", "full_outer_join": "full"}
_SET = {"union_all": "unionAll({o})", "union": "union({o}).distinct()", "intersect": "intersect({o})",
        "intersect_all": "intersectAll({o})", "minus": "subtract({o})", "minus_all": "exceptAll({o})"}

_STREAM = (
    "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"
    "t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n"
    't_env.execute_sql("CREATE TABLE scans (id STRING, depot STRING) WITH (\'connector\' = \'kafka\', \'topic\' = \'scans\', "\n'
    '                  "\'properties.bootstrap.servers\' = \'localhost:9092\', \'scan.startup.mode\' = \'earliest-offset\', "\n'
    '                  "\'format\' = \'json\')")\n'
    'scans = t_env.from_path("scans")\n'
    'depots = t_env.from_elements([("AMS", "Amsterdam")], ["code", "city"])\n'
)
_SPARK_STREAM = (
    "import tempfile\n"
    "from pyspark.sql import SparkSession, functions as F\n\n"
    "t_env = SparkSession.builder.getOrCreate()\n"
    "# NOTE(flink2spark): F2S307 Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package (spark-submit "
    "--packages org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>); Flink's json format fails the job on a malformed "
    "record ('json.ignore-parse-errors' false), Spark's from_json gives NULL fields there\n"
    't_env.readStream.format("kafka").option(\n'
    '    "kafka.bootstrap.servers", "localhost:9092"\n'
    ').option("subscribe", "scans").option("startingOffsets", "earliest").load().selectExpr(\n'
    '    "from_json(CAST(value AS STRING), \'id STRING, depot STRING\') AS value"\n'
    ').selectExpr("value.id", "value.depot").createOrReplaceTempView("scans")\n'
    'scans = t_env.table("scans")\n'
    'depots = t_env.createDataFrame([("AMS", "Amsterdam")], ["code", "city"])\n'
)

rule = Rule(
    __name__,
    matches=[f"Table.{m}" for m in (*_HOW, *_SET)],
    summary="join/left_outer_join/right_outer_join/full_outer_join, union/union_all/intersect/minus -> the DataFrame's",
    codes=(M.TB_EXPRESSION, M.TB_UNSUPPORTED, M.TB_STREAM_JOIN),
    examples=[
        Example(
            program(
                "a = t_env.from_elements([(1, 'x')], ['id', 'name'])\n"
                "b = t_env.from_elements([(1, 2.5)], ['oid', 'price'])\n"
                "both = a.union_all(a)\n",
            ),
            spark_program(
                'a = t_env.createDataFrame([(1, "x")], ["id", "name"])\n'
                'b = t_env.createDataFrame([(1, 2.5)], ["oid", "price"])\n'
                "both = a.unionAll(a)\n",
            ),
        ),
        Example(
            _STREAM + 'scans.left_outer_join(depots, scans.depot == depots.code).execute().print()\n',
            _SPARK_STREAM
            + "# NOTE(flink2spark): F2S327 a stream joined with a bounded table: Spark reads the bounded table again for each "
            "micro-batch, Flink once when the job starts (the same rows while it does not change); Flink emits a stream row whose "
            "match it has not read yet with NULLs and retracts it (-D) when the match arrives, Spark looks each row up in the "
            "whole table: the same final rows\n"
            "# NOTE(flink2spark): F2S308 streaming query: rows come out per micro-batch (a window's in the micro-batch after the "
            "watermark passes its end); the checkpoint is a fresh folder per run, so the query starts from its starting offsets "
            "as a newly submitted Flink job: give a durable folder to resume across runs\n"
            'scans.join(depots, (F.col("depot") == F.col("code")), "left").writeStream.foreachBatch(\n'
            "    lambda batch, _: batch.show(2147483647, truncate=False)\n"
            ').option("checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")).outputMode(\n'
            '    "append"\n'
            ").start().awaitTermination()\n",
        ),
    ],
    noop=['a = {1, 2}\nb = a.union({3})\nc = a.intersection(b)\n'],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    method = seg.method
    args = [a for a in seg.updated.args]
    if not args or args[0].keyword is not None:
        return ctx.todo(M.TB_UNSUPPORTED, f"{method}() without the other table")
    other = args[0].value
    model = tables(ctx.resolver)
    joined = model.stream_join(seg.original) if method in _HOW else None
    if joined is not None:
        if joined.problem is not None:
            return ctx.todo(M.TB_UNSUPPORTED, joined.problem)
        if joined.static:
            ctx.note(M.TB_STREAM_JOIN, "a stream joined with a bounded table: Spark reads the bounded table again for each "
                     "micro-batch, Flink once when the job starts (the same rows while it does not change)" + (
                         "; Flink emits a stream row whose match it has not read yet with NULLs and retracts it (-D) when "
                         "the match arrives, Spark looks each row up in the whole table: the same final rows"
                         if joined.retracting else ""))
    elif method != "union_all" or model.bounded(seg.original.func.value) != model.bounded(seg.original.args[0].value):
        refused = on_stream(ctx, f"{method}()", "Flink keeps both inputs as state; Spark's stream joins need watermarks and "
                            "time bounds, its set operations on streams other than a union of two streams are refused")
        if refused is None and not model.bounded(seg.original.args[0].value):
            refused = ctx.todo(M.TB_UNSUPPORTED, f"{method}() of an unbounded table (it reads a Kafka topic or an unbounded datagen table)")
        if refused is not None:
            return refused
    if method in _SET:
        if len(args) != 1:
            return ctx.todo(M.TB_UNSUPPORTED, f"{method}() with more than one argument")
        return ctx.expr("{r}." + _SET[method], r=ctx.site.receiver, o=other)
    how = _HOW[method]
    if len(args) == 1:
        if how != "inner":
            return ctx.todo(M.TB_UNSUPPORTED, f"{method}() without a join condition")
        parent = ctx.resolver.parent(ctx.outer)
        grand = ctx.resolver.parent(parent) if isinstance(parent, cst.Attribute) else None
        if not (isinstance(grand, cst.Call) and parent.attr.value in ("where", "filter")):
            return ctx.todo(M.TB_UNSUPPORTED, "join() with no condition and no where() after it (a cross join)")
        return ctx.expr("{r}.crossJoin({o})", r=ctx.site.receiver, o=other)
    left, right = model.schema(seg.original.func.value), model.schema(seg.original.args[0].value)
    cond = columns(ctx, [seg.original.args[1]], f"{method}()", {**left, **right} if left and right else None)
    if cond is None:
        return ctx.todo_left()
    return ctx.expr("{r}.join({o}, {c}, %r)" % how, r=ctx.site.receiver, o=other, c=cst.parse_expression(cond[0].code))
