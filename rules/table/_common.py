"""Helpers shared by the Table API rules (not a rule: it defines no ``rule``)."""

from __future__ import annotations

from typing import Optional, Sequence

import libcst as cst

from flink2spark.rules.table import _expressions as E
from flink2spark.rules.table import _types as TY
from flink2spark.rules.table._program import dotted_names, tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.imports import need

IMPORT = "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
HEAD = "\nt_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n"
SPARK_IMPORT = "from pyspark.sql import SparkSession\n"
SPARK_IMPORTS = "from pyspark.sql import SparkSession, functions as F\n"
SPARK_TYPES_IMPORTS = "from pyspark.sql import SparkSession, functions as F, types as T\n"
SPARK_HEAD = "\nt_env = SparkSession.builder.getOrCreate()\n"

# DataFrame.show() of every row, values not cut: Flink's print() shows them all (an int, which
# Spark's show takes as a Java int)
SHOW_ALL = "{df}.show(2147483647, truncate=False)"

# the examples of the rules of streaming queries: a Kafka table of clicks (u STRING) in a program
# in streaming mode, its conversion, and a for loop over a query's rows as a foreachBatch function
CLICKS_KAFKA = ("t_env.execute_sql(\"CREATE TABLE clicks (u STRING) WITH ('connector' = 'kafka', 'topic' = 'clicks', "
                "'properties.bootstrap.servers' = 'k:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')\")\n")
CLICKS_KAFKA_SPARK = (
    "# NOTE(flink2spark): F2S307 Kafka table: Spark's Kafka source is the spark-sql-kafka-0-10 package (spark-submit "
    "--packages org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>); Flink's json format fails the job on a "
    "malformed record ('json.ignore-parse-errors' false), Spark's from_json gives NULL fields there\n"
    't_env.readStream.format("kafka").option("kafka.bootstrap.servers", "k:9092").option(\n'
    '    "subscribe", "clicks"\n'
    ').option("startingOffsets", "earliest").load().selectExpr(\n'
    '    "from_json(CAST(value AS STRING), \'u STRING\') AS value"\n'
    ').selectExpr("value.u").createOrReplaceTempView("clicks")\n')
# the NOTE of a streaming query's conversion (execute._stream), in rule examples
STREAMING_NOTE_SPARK = (
    "# NOTE(flink2spark): F2S308 streaming query: rows come out per micro-batch (a window's in the micro-batch after "
    "the watermark passes its end); the checkpoint is a fresh folder per run, so the query starts from its starting "
    "offsets as a newly submitted Flink job: give a durable folder to resume across runs\n")
STREAM_ROWS_SPARK = (
    "\n\n" + STREAMING_NOTE_SPARK
    + "# NOTE(flink2spark): F2S337 the loop over the streaming query's rows runs in for_each_batch for each micro-batch's "
    "rows, in no set order within one (Flink's arrive one by one); it never ends in either; a Row printed whole reads "
    "Row(name=value, ...) in Spark, <Row(value, ...)> in Flink\n"
    "def for_each_batch(batch, batch_id):\n    for row in batch.collect():\n        print(row[0])\n\n\n")


def streaming_program(body: str) -> str:
    """``program`` in streaming mode, with the Kafka table ``clicks`` declared first."""
    return program(CLICKS_KAFKA + body).replace("in_batch_mode", "in_streaming_mode")


UNTRANSLATABLE = (E.Untranslatable, TY.Untranslatable)


def program(body: str, imports: str = "") -> str:
    """A small Table API program for rule examples."""
    return IMPORT + imports + HEAD + body


def spark_program(body: str, imports: str = "", functions: bool = False, types: bool = False) -> str:
    """The expected conversion of ``program`` (``types``: it imports pyspark.sql.types as T too)."""
    return imports + (SPARK_TYPES_IMPORTS if types else SPARK_IMPORTS if functions else SPARK_IMPORT) + SPARK_HEAD + body


def row_columns(ctx, receiver: cst.BaseExpression, outer: bool = False) -> Optional[str]:
    """The Columns of a whole row of the table ``receiver`` (for ``F.struct(...)``), from its
    schema in the program model or, for a name, its ``columns`` when the program runs; None when
    neither is known. ``outer``: the lateral join form, ``.outer()`` references."""
    schema = tables(ctx.resolver).schema(receiver)
    suffix = ".outer()" if outer else ""
    if schema is not None:
        return ", ".join(f"F.col({n!r}){suffix}" for n in schema)
    if isinstance(receiver, cst.Name):
        return f"*[F.col(c){suffix} for c in {receiver.value}.columns]"
    return None


def qualified(ctx):
    """The translators' view of qualified names (``_program.dotted_names``)."""
    return dotted_names(ctx.resolver)


_DEFAULT = object()


def columns(ctx, args: Sequence[cst.Arg], what: str, schema=_DEFAULT) -> Optional[list[E.Column]]:
    """The Spark Columns of a table operation's expression arguments (original nodes), or None
    after a TODO naming the expression that has none. ``schema``: the column types the
    expressions see; by default those of the table the chain's first call is on (the program
    model's ``schema``)."""
    model = tables(ctx.resolver)
    if schema is _DEFAULT:
        schema = model.schema(ctx.site.head.original.func.value)
    functions, registered = model.user_functions(), model.registered()

    def is_table(node) -> bool:
        return ctx.resolver.type_of(node) == "Table"
    out = []
    for arg in args:
        if arg.star or arg.keyword is not None:
            ctx.todo(M.TB_EXPRESSION, f"{what}: arguments given with * or keywords")
            return None
        try:
            if isinstance(arg.value, (cst.SimpleString, cst.ConcatenatedString)) and isinstance(arg.value.evaluated_value, str):
                out.extend(E.columns_from_string(arg.value.evaluated_value, schema, functions, registered))
            else:
                out.append(E.column(arg.value, qualified(ctx), schema, functions, registered, is_table))
        except UNTRANSLATABLE as exc:
            ctx.todo(M.TB_EXPRESSION, f"{what}: {exc}")
            return None
    extremes = []  # MIN/MAX subjects of NOTE F2S329: one NOTE for them all
    for col in out:
        use(ctx, col.uses)
        for code, message in col.notes:
            if code == M.TB_NAN_EXTREME:
                extremes.append(message)
            else:
                ctx.note(code, message)
    if extremes:
        ctx.note(M.TB_NAN_EXTREME, TY.extreme_nan_note(extremes))
    return out


def use(ctx, names) -> None:
    """Ask for the imports of the pyspark names a translated Column uses."""
    if "F" in names:
        need(ctx.conv.codemod, "pyspark.sql", "functions", "F")
    if "Window" in names:
        need(ctx.conv.codemod, "pyspark.sql", "Window")
    if "types" in names:
        need(ctx.conv.codemod, "pyspark.sql", "types")
    if "T" in names:
        need(ctx.conv.codemod, "pyspark.sql", "types", "T")


def code(ctx, node: cst.CSTNode) -> str:
    return ctx.resolver.module.code_for_node(node)


def on_stream(ctx, what: str, why: str):
    """A TODO when the table the chain starts from is unbounded (it reads a Kafka table: a
    streaming DataFrame in Spark) and ``what`` has no same-result Structured Streaming form
    (Spark would refuse it at run time, or give other rows); None otherwise."""
    if tables(ctx.resolver).bounded(ctx.site.head.original.func.value):
        return None
    return ctx.todo(M.TB_UNSUPPORTED, f"{what} on an unbounded table (it reads a Kafka topic or an unbounded datagen table): {why}")


def mode(ctx) -> str:
    return tables(ctx.resolver).mode


def uses_of_single_name(resolver, value: cst.CSTNode) -> Optional[list[cst.Name]]:
    """The reads of ``name`` where ``value`` is bound by ``name = value`` and by nothing else in
    its scope (None otherwise, or when it is never read)."""
    assign = resolver.parent(value)
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)):
        return None
    bindings = resolver.scope_bindings(assign.targets[0].target) or []
    if len(bindings) != 1 or not bindings[0].references:
        return None
    return [ref.node for ref in bindings[0].references]


# result.get_job_client().get_job_execution_result().result(): waits for the job's end, as
# result.wait() does (its value, the JobExecutionResult, unused: an expression statement)
JOB_WAIT = ("get_job_client", "get_job_execution_result", "result")


def after_methods(ctx) -> list[str]:
    """The methods of the chain of the site being converted after its first call, the job
    client's wait (``JOB_WAIT``) of an expression statement as ``"wait"``."""
    methods = [s.method for s in ctx.site.segments[1:]]
    if tuple(methods[-len(JOB_WAIT):]) == JOB_WAIT and ctx.is_statement:
        methods = methods[:-len(JOB_WAIT)] + ["wait"]
    return methods


def _waited_at(resolver, use: cst.BaseExpression) -> Optional[cst.SimpleStatementLine]:
    """The statement waiting for ``use`` (a name of a TableResult): ``use.wait()`` or
    ``use.get_job_client().get_job_execution_result().result()`` as an expression statement; else None."""
    node, methods = use, []
    while True:
        attr = resolver.parent(node)
        call = resolver.parent(attr) if isinstance(attr, cst.Attribute) and attr.value is node else None
        if not (isinstance(call, cst.Call) and call.func is attr):
            break
        methods.append(attr.attr.value)
        node = call
    statement = resolver.parent(node)
    if tuple(methods) in (("wait",), JOB_WAIT) and isinstance(statement, cst.Expr):
        return resolver.parent(statement)
    return None


def waited_result(ctx) -> Optional[cst.SimpleStatementLine]:
    """The statement ``result = <the call being converted>`` when ``result`` is only ever waited
    for (``result.wait()`` statements: the TableResult rule removes them), else None."""
    return waited_line(ctx.resolver, ctx.outer)


def waited_line(resolver, call: cst.BaseExpression) -> Optional[cst.SimpleStatementLine]:
    """``waited_result`` of ``call``. For an insert over an unbounded table (an endless query),
    only when its one wait is the next statement: else the name keeps the started query and its
    ``wait()`` awaits it there, so what the program runs in between (a print) runs before the
    endless wait, as on Flink."""
    uses = uses_of_single_name(resolver, call)
    line = resolver.parent(resolver.parent(call))
    if uses is None or not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    statements = [_waited_at(resolver, use) for use in uses]
    if None in statements:
        return None
    if isinstance(call, cst.Call) and tables(resolver).streaming_insert(call):
        block = resolver.parent(line)
        body = list(getattr(block, "body", ()))
        after = body[body.index(line) + 1] if line in body and body.index(line) + 1 < len(body) else None
        if len(uses) != 1 or after is None or statements[0] is not after:
            return None
    return line


def drop_target(ctx, line: cst.SimpleStatementLine) -> None:
    """``result = df.write...`` -> ``df.write...`` (the call's result is only waited for)."""
    ctx.rewrite_statement(line, lambda new: new.with_changes(body=[cst.Expr(new.body[0].value)]) if isinstance(new.body[0], cst.Assign) else new)
