"""Running a Table:

- ``table.execute().print()`` -> ``df.show(2147483647, truncate=False)``: every row, values
  not cut (Spark's row format; in streaming mode Flink prints the changes of an updating
  table, Spark its final rows: NOTE F2S303).
- ``table.execute().collect()`` -> ``df.collect()`` (a list of Rows where Flink gives an
  iterator of Rows); in a ``with`` statement, ``contextlib.nullcontext(df.collect())``.
  Of an unbounded table, iterated by a for loop whose body can run per row (``stream_loop``):
  a function of the loop over each micro-batch's rows given to ``writeStream.foreachBatch``,
  started and awaited (``stream_rows``, NOTE F2S337); a TODO otherwise.
- ``table.execute().wait()`` -> ``df.collect()``.
- ``result = table.execute()`` whose ``result`` is used once, by ``print()`` or ``collect()``
  (the program model's ``kept_query``) -> ``result = df``; the use converts by
  ``rules/table/result_use.py``.
- ``table.to_pandas()`` -> ``df.toPandas()``.
- ``table.execute_insert("sink")`` -> by the sink's connector (the program model's catalog):
  ``print`` -> a ``show`` of every row, ``blackhole`` -> Spark's ``noop`` write, a filesystem
  table -> ``df.write.insertInto("sink")``, a Kafka table -> ``to_json`` values written with
  ``format("kafka")`` (an upsert-kafka table: with its primary key's json as the record key).
- Over an unbounded table (it reads a Kafka table: the program model's ``bounded``), a
  Structured Streaming query: ``writeStream`` (``foreachBatch`` show for print, ``noop``,
  ``kafka``) with a checkpoint folder, append mode, ``start()``, and ``awaitTermination()``
  where Flink's program waits (``.wait()``, ``execute().print()``); an updating query (an
  aggregation without a window, the program model's ``sql_updating``) into a table that takes
  updates (print, blackhole, upsert-kafka: ``updates_refused``) in update mode (NOTE F2S319).
"""

import json

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg
from flink2spark.rules.table._common import (CLICKS_KAFKA_SPARK, SHOW_ALL, STREAM_ROWS_SPARK, after_methods, drop_target, mode, on_stream, program,
                                                spark_program, streaming_program, waited_result)
from flink2spark.rules.table import _jdbc, _kafka, _sql
from flink2spark.rules.table._files import canal_json_rows, canal_json_sink
from flink2spark.rules.table._program import STREAMING_RESULT, python_string, python_value, stream_loop, tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import source as S
from flink2spark.transpiler.imports import need
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import Todo

rule = Rule(
    __name__,
    matches=["Table.execute", "Table.to_pandas", "Table.execute_insert"],
    summary="execute().print()/collect(), to_pandas(), execute_insert(sink) -> show/collect/toPandas/write",
    codes=(M.TB_CHANGELOG, M.TB_UNSUPPORTED, M.TB_CONNECTOR, M.TB_JDBC, M.TB_UPDATING, M.TB_INSERT_PRINT,
           M.TB_CATALOG_TABLE, M.TB_CATALOG_STREAM),
    examples=[
        Example(
            program("words = t_env.from_elements([('a', 1)], ['word', 'n'])\nwords.execute().print()\n"),
            spark_program('words = t_env.createDataFrame([("a", 1)], ["word", "n"])\nwords.show(2147483647, truncate=False)\n'),
        ),
        Example(  # streaming mode, a print table: Flink prints the changes of the updating table only
            program(
                "t_env.execute_sql(\"CREATE TABLE totals (word STRING, n INT) WITH ('connector' = 'print')\")\n"
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\n"
                "words.filter(col('n') > 0).execute_insert('totals').wait()\n"
                "words.group_by(col('word')).select(col('word'), col('n').sum).execute_insert('totals').wait()\n",
                imports="from pyflink.table.expressions import col\n",
            ).replace("in_batch_mode", "in_streaming_mode"),
            spark_program(
                'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
                'words.filter(F.col("n") > F.lit(0)).show(2147483647, truncate=False)\n'
                "# NOTE(flink2spark): F2S303 streaming mode: Flink prints every change (+I/-U/+U/-D) of an updating"
                " table, Spark shows its final rows\n"
                'words.groupBy(F.col("word")).agg(F.sum(F.col("n"))).show(2147483647, truncate=False)\n',
                functions=True,
            ),
        ),
        Example(  # a streaming query's rows iterated: the loop body per micro-batch in a foreachBatch function (result_use: a kept result)
            streaming_program(
                "for row in t_env.from_path('clicks').execute().collect():\n    print(row[0])\n"
            ),
            spark_program(
                CLICKS_KAFKA_SPARK
                + STREAM_ROWS_SPARK
                + 't_env.table("clicks").writeStream.foreachBatch(for_each_batch).option(\n'
                '    "checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")\n'
                ').outputMode("append").start().awaitTermination()\n',
                imports="import tempfile\n",
            ),
        ),
    ],
    noop=['import pandas as pd\n\nframe = pd.DataFrame({"a": [1]})\nprint(frame.to_string())\n'],
)


def show(ctx, df, streaming: bool = False, wait: bool = True, inserts: bool = False, update: bool = False):
    """Every row of ``df`` printed (a NOTE in streaming mode, where Flink prints the changes of
    an updating table, unless the table gives only ``inserts``); a streaming DataFrame (an
    unbounded table) shows each micro-batch's rows (``update``: an updating query's, in update
    mode)."""
    if streaming:
        return _stream(ctx, ctx.expr("{df}.writeStream.foreachBatch(lambda batch, _: %s)" % SHOW_ALL.format(df="batch"), df=df),
                       wait, update)
    if mode(ctx) == "streaming" and not inserts:
        ctx.note(M.TB_CHANGELOG, "streaming mode: Flink prints every change (+I/-U/+U/-D) of an updating table, Spark shows its final rows")
    return ctx.expr(SHOW_ALL, df=df)


def _stream(ctx, writer, wait: bool, update: bool = False, start: str = ".start()"):
    """A streaming query of ``writer`` (a DataStreamWriter) started, with a checkpoint folder
    and the append mode (what _sql lets through on streams are appending queries: projections,
    filters, windows finalised by the watermark), or the update mode for an ``update``-ing query
    (an aggregation without a window: each micro-batch writes the new rows of the groups it
    changed); awaited where Flink's program waits."""
    need(ctx.conv.codemod, "tempfile")
    ctx.note(M.TB_STREAMING, "streaming query: rows come out per micro-batch (a window's in the micro-batch after the watermark "
             "passes its end); the checkpoint is a fresh folder per run, so the query starts from its starting offsets as a "
             "newly submitted Flink job: give a durable folder to resume across runs")
    if update:
        ctx.note(M.TB_UPDATING, "an aggregation without a window over a stream, in update mode: each micro-batch gives the new "
                 "rows of the groups it changed, Flink every change as each record arrives (-U old row, +U new row); the "
                 "latest row of each group is the same (the groups' state is kept for ever in both: no state TTL)")
    return ctx.expr(
        '{w}.option("checkpointLocation", tempfile.mkdtemp(prefix="f2s-checkpoint-")).outputMode(%s)%s'
        % ('"update"' if update else '"append"', start) + (".awaitTermination()" if wait else ""), w=writer)


def print_noted(ctx, written, target: str, streaming: bool):
    """``written`` (the insert of ``execute_sql("INSERT ...").print()`` or
    ``execute_insert(sink).print()``) with the NOTE of the line Flink prints and Spark does not
    (seen on Flink 2.3, batch and streaming mode)."""
    if isinstance(written, cst.BaseExpression):
        ctx.note(M.TB_INSERT_PRINT, f"print() of the INSERT INTO {target} result: Flink waits for the job to end, then prints "
                 "-1 (the affected-row count, not known: job metadata, not a row of the table); "
                 + ("the converted streaming query is awaited here and prints nothing of its own" if streaming
                    else "the converted write has ended here and prints nothing of its own"))
    return written


def await_all(ctx, env):
    """The wait for the streaming queries of several inserts that Flink runs as one job (a
    statement set's ``execute().wait()``, Flink 1.x's ``t_env.execute(job)`` of buffered
    inserts): each insert started its own query (``write_to(..., wait=False)``), and the job's
    wait is Spark's for any of them to end: none ends but by failing (an unbounded source),
    which fails Flink's whole job too."""
    return ctx.expr("{env}.streams.awaitAnyTermination()", env=env)


def write_to(ctx, df, sink: str, what: str, streaming: bool = False, wait: bool = True, inserts: bool = False,
             update: bool = False):
    """``df`` written to the catalog's table ``sink`` (or a TODO); a streaming query when
    ``df`` reads an unbounded table, awaited when ``wait`` (Flink's program waits for it);
    ``inserts``: the table gives only inserts (a print sink shows its rows as Flink prints them);
    ``update``: an updating streaming query, into a table that takes one (``updates_refused``)."""
    model = tables(ctx.resolver)
    if sink in model.conditional:
        return _write_either(ctx, df, sink, what, streaming, wait, inserts, update)
    table = model.catalog.get(sink)
    if table is None and model.undeclared(sink):  # a Flink catalog's table: Spark's session catalog's, in batch mode
        refused = model.catalog_refused(sink)
        if refused is not None or streaming:
            return ctx.todo(M.TB_CATALOG_STREAM, f"{what}: " + (refused or f"a streaming query into table {sink!r}, "
                            "which this program does not declare (a Flink catalog's)"))
        ctx.note(M.TB_CATALOG_TABLE, model.catalog_note(sink, f"{what} writes"))
        # insertInto: by position, as Flink's INSERT INTO matches the sink's columns; appends
        return ctx.expr("{df}.write.insertInto(%s)" % json.dumps(sink), df=df)
    if table is None or sink in model.problems:
        why = model.problems.get(sink)
        return ctx.todo(M.TB_CONNECTOR, f"{what}: table {sink!r} " + (f"not converted ({why})" if why else "is not declared by this program's SQL"))
    return _write(ctx, df, table, sink, what, streaming, wait, inserts, update)


def _legacy_csv_stream(ctx, df, table, sink: str, wait: bool):
    """A stream into Flink 1.x's legacy csv sink (``_sql.LEGACY_CSV_SINK``): Spark's file sink of
    the csv table the declaration created, its columns by position and cast to the table's types
    (as ``insertInto`` writes a batch)."""
    names = ", ".join(python_string(n) for n, _ in table.columns)
    casts = ", ".join(python_string(f"CAST(`{n}` AS {t}) AS `{n}`") for n, t in table.columns)
    try:  # the table's options, which Spark's streaming write into it does not take from the catalog
        _, options, _ = _sql.file_source(table, write_only=not tables(ctx.resolver).reads(sink))
    except _sql.Untranslatable as exc:
        return ctx.todo(M.TB_CONNECTOR, f"insert_into(): legacy csv sink {sink!r}: {exc}")
    settings = ", ".join(f"{k}={python_string(v)}" for k, v in options if k != "path")
    ctx.note(M.TB_LEGACY, "a stream into Flink 1.x's legacy csv sink: Flink appends each record to its file as it comes, "
             "Spark's file sink writes the records of each micro-batch as part files under the path, with the "
             "_spark_metadata folder listing them (read it as the table, or read every part file)")
    writer = ctx.expr('{df}.toDF(%s).selectExpr(%s).writeStream.format("csv").options(%s)' % (names, casts, settings), df=df)
    return _stream(ctx, writer, wait, start=f".toTable({python_string(sink)})")


def _write(ctx, df, table, sink: str, what: str, streaming: bool, wait: bool, inserts: bool = False, update: bool = False):
    """``df`` written to ``table`` (the declaration of ``sink`` that the write sees)."""
    model = tables(ctx.resolver)
    if table.connector == "print":
        return show(ctx, df, streaming, wait, inserts, update)
    if table.connector == "blackhole":
        if streaming:
            return _stream(ctx, ctx.expr('{df}.writeStream.format("noop")', df=df), wait, update)
        return ctx.expr('{df}.write.format("noop").mode("overwrite").save()', df=df)
    if table.connector in ("kafka", "upsert-kafka"):
        parts = model.options_at(sink, ctx.outer, table)
        if parts is None:
            return ctx.todo(M.TB_CONNECTOR, f"{what}: Kafka table {sink!r}: its options name variables this statement does not see")
        try:
            options, value, notes = _kafka.sink(table, parts)
        except _sql.Untranslatable as exc:
            return ctx.todo(M.TB_CONNECTOR, f"{what}: Kafka table {sink!r}: {exc}")
        for note in notes:
            ctx.note(M.TB_KAFKA, note)
        ctx.note(M.TB_KAFKA, "Kafka sink: Spark's Kafka sink is the spark-sql-kafka-0-10 package (spark-submit --packages "
                 "org.apache.spark:spark-sql-kafka-0-10_2.13:<Spark version>)")
        names = ", ".join(python_string(n) for n, _ in table.columns)
        settings = "".join(f".option({python_string(k)}, {{o{i}}})" for i, (k, _) in enumerate(options))
        values = {f"o{i}": python_string(v, parts) for i, (_, v) in enumerate(options)}
        key = _kafka.record_key(table)  # upsert-kafka: the primary key's columns, each row's changes under its key
        record = "{df}.toDF(%s).selectExpr(%s)" % (names, ", ".join(python_string(e) for e in ([key] if key else []) + [value]))
        if streaming:
            return _stream(ctx, ctx.expr(record + '.writeStream.format("kafka")' + settings, df=df, **values), wait, update)
        return ctx.expr(record + '.write.format("kafka")' + settings + ".save()", df=df, **values)
    if streaming and table.options.get(_sql.LEGACY_CSV_SINK) == "true":
        return _legacy_csv_stream(ctx, df, table, sink, wait)
    if streaming and table.connector != "jdbc":
        return ctx.todo(M.TB_CONNECTOR, f"{what}: a streaming query into a {table.connector!r} table (only print, "
                        "blackhole, kafka, upsert-kafka and jdbc sinks are converted for unbounded tables)")
    if table.connector == "jdbc":
        parts = model.options_at(sink, ctx.outer, table)
        if parts is None:
            return ctx.todo(M.TB_CONNECTOR, f"{what}: JDBC table {sink!r}: its options name variables this statement does not see")
        try:
            template, values = _jdbc.sink(table, parts)
        except _sql.Untranslatable as exc:
            return ctx.todo(M.TB_CONNECTOR, f"{what}: JDBC table {sink!r}: {exc}")
        if model.mode == "streaming" and not inserts:
            return ctx.todo(M.TB_CONNECTOR, f"{what}: JDBC table {sink!r}: a table that may be updating (Flink refuses it "
                            "in a JDBC sink without a PRIMARY KEY)")
        ctx.note(M.TB_JDBC, _jdbc.DRIVER_NOTE)
        if streaming:  # an insert-only stream into a table without a key: Flink's JDBC sink inserts each row
            return _stream(ctx, ctx.expr("{df}.writeStream.foreachBatch(lambda batch, _: %s)" % template.replace("{df}", "batch"),
                                         df=df, **values), wait)
        return ctx.expr(template, df=df, **values)
    if table.connector == "filesystem" and table.options.get("format") == "canal-json":
        parts = model.options_at(sink, ctx.outer, table)
        try:
            canal_json_sink(model, table)
        except _sql.Untranslatable as exc:
            return ctx.todo(M.TB_CONNECTOR, f"{what}: table {sink!r}: {exc}")
        if parts is None:
            return ctx.todo(M.TB_CONNECTOR, f"{what}: canal-json table {sink!r}: its path names variables this statement does not see")
        names = ", ".join(python_string(n) for n, _ in table.columns)
        return ctx.expr('{df}.toDF(%s).selectExpr(%s).write.mode("append").text(%s)' % (
            names, python_string(canal_json_rows(table)), python_value(table.options["path"], parts)), df=df)
    if table.connector == "filesystem":
        return ctx.expr("{df}.write.insertInto(%r)" % sink, df=df)
    return ctx.todo(M.TB_CONNECTOR, f"{what}: connector {table.connector!r} of table {sink!r} is not converted yet")


def _write_either(ctx, df, sink: str, what: str, streaming: bool, wait: bool, inserts: bool = False, update: bool = False):
    """``df`` written to a table declared in both branches of an ``if`` (``if output_path: <a
    file table> else: <print>``): the write statement becomes that ``if`` again, each branch
    writing to its own table (the test reads names bound once: the same answer here)."""
    model = tables(ctx.resolver)
    branch, then, other = model.conditional[sink]
    line = ctx.resolver.parent(ctx.resolver.parent(ctx.outer))
    if not (ctx.is_statement and isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1):
        return ctx.todo(M.TB_CONNECTOR, f"{what}: table {sink!r} is declared in each branch of an if: its write must be a statement of its own")
    writes = []
    for table in (then, other):
        writes.append(_write(ctx, df, table, sink, what, streaming, wait, inserts, update))
        if isinstance(writes[-1], Todo):
            return writes[-1]
    test = branch.test

    def rewrite(new):
        body = [cst.SimpleStatementLine([cst.Expr(w)]) for w in writes]
        return cst.If(test=test, body=cst.IndentedBlock([body[0]]),
                      orelse=cst.Else(body=cst.IndentedBlock([body[1]])), leading_lines=new.leading_lines)

    ctx.rewrite_statement(line, rewrite)
    return writes[0]


@rule.converter
def convert(ctx):
    segs = ctx.site.segments
    head = segs[0]
    df = ctx.site.receiver
    if head.method == "to_pandas":
        refused = on_stream(ctx, "to_pandas()", "Flink's to_pandas() of a streaming query collects rows until the "
                            "query ends, which it never does; Spark's toPandas() refuses a streaming DataFrame")
        return refused or ctx.expr("{df}.toPandas()", df=df)
    if head.method == "execute_insert":
        sink = call_arg(head.original, 0, "table_path_or_descriptor")
        name = tables(ctx.resolver).name(sink)  # a literal, or a name bound once to one
        if name is None:
            return ctx.todo(M.TB_UNSUPPORTED, "execute_insert() of a table named by an expression")
        # .print(): Flink waits for the job, then prints -1 (job metadata; see print_noted)
        after = after_methods(ctx)
        printed = after == ["print"] and ctx.is_statement
        if any(m != "wait" for m in after) and not printed:
            return ctx.todo(M.TB_UNSUPPORTED, "the result of execute_insert() is used")
        streaming = not tables(ctx.resolver).bounded(head.original.func.value)
        line = waited_result(ctx) if len(segs) == 1 else None  # result = t.execute_insert(...); result.wait()
        inserts = tables(ctx.resolver).insert_only(head.original.func.value)
        update = _update_mode(ctx, head.original.func.value, name)
        if isinstance(update, Todo):
            return update
        written = write_to(ctx, df, name, "execute_insert()", streaming, len(segs) > 1 or line is not None, inserts, update=update)
        if line is not None and not isinstance(written, Todo):
            drop_target(ctx, line)
        return print_noted(ctx, written, name, streaming) if printed else written
    if len(segs) == 1:  # result = table.execute(); result.print(): the name keeps the DataFrame
        kept = tables(ctx.resolver).kept_query(head.original)
        if kept.problem is None:
            return df
        return ctx.todo(M.TB_UNSUPPORTED, f"Table.execute() whose result is kept: {kept.problem}")
    last = segs[1].method
    streaming = not tables(ctx.resolver).bounded(head.original.func.value)
    if streaming and last == "collect" and len(segs) == 2:
        return stream_collect(ctx, df, tables(ctx.resolver).insert_only(head.original.func.value), "execute().collect()")
    if streaming and last != "print":
        return ctx.todo(M.TB_UNSUPPORTED, f"execute().{last}() of an unbounded table (a streaming query)")
    if last == "print":
        update = _update_mode(ctx, head.original.func.value)
        if isinstance(update, Todo):
            return update
        return show(ctx, df, streaming, inserts=tables(ctx.resolver).insert_only(head.original.func.value), update=update)
    if last == "wait":
        return ctx.expr("{df}.collect()", df=df)
    if last == "collect":
        return collected(ctx, df)
    return ctx.todo(M.TB_UNSUPPORTED, f"execute().{last}()")


def _update_mode(ctx, table, sink=None):
    """Whether the Table ``table`` is written (into ``sink``) in update mode (the program model's
    ``aggregated``: Table API's aggregation without a window over a stream), or a TODO for a
    table derived from one (a filter of its rows retracts some in Flink: update mode would keep
    them) or a sink that takes no updates (Flink refuses the job)."""
    model = tables(ctx.resolver)
    if model.aggregated(table):
        refused = model.updates_refused(sink) if sink is not None else None
        if refused is not None:
            return ctx.todo(M.TB_UNSUPPORTED, f"execute_insert() of an aggregation without a window over a stream: {refused}")
        return True
    if model.updating(table):
        return ctx.todo(M.TB_UNSUPPORTED, "a projection or filter of an aggregation without a window over a stream (Flink "
                        "retracts the rows a filter drops; Spark's update mode writes nothing for them)")
    return False


def collected(ctx, df):
    """``df.collect()``: the rows of a TableResult's ``collect()`` (a list where Flink gives an
    iterator of the same Rows); in a ``with`` statement ``contextlib.nullcontext(...)`` of it:
    Flink's iterator closes at the end of the block, a list needs nothing."""
    if isinstance(ctx.resolver.parent(ctx.outer), cst.WithItem):
        need(ctx.conv.codemod, "contextlib")
        return ctx.expr("contextlib.nullcontext({df}.collect())", df=df)
    return ctx.expr("{df}.collect()", df=df)


def stream_collect(ctx, df, inserts: bool, what: str):
    """``collect()`` of a streaming query (``df``) called where a for loop iterates its rows
    (``for row in table.execute().collect(): ...``): ``stream_rows`` when the loop is a
    ``stream_loop`` and the query gives only inserts (Flink's rows carry no changes), else a TODO."""
    loop = stream_loop(ctx.resolver, ctx.outer)
    if not inserts:
        loop = "collect() of an updating table in streaming mode (Flink's rows carry their changes)"
    if isinstance(loop, str):
        return ctx.todo(M.TB_UNSUPPORTED, f"{what}: {STREAMING_RESULT}; {loop}")
    return stream_rows(ctx, df, loop)


def stream_rows(ctx, df, loop: cst.For):
    """The rows of a streaming query's ``collect()`` iterated by ``loop`` (``_program.stream_loop``,
    the ``with`` around it included): a function running the loop over each micro-batch's rows,
    given to ``foreachBatch`` of ``df``'s streaming query, started and awaited where Flink's loop
    waits for rows without end."""
    name = S.free_name("for_each_batch")
    writer = _stream(ctx, ctx.expr("{df}.writeStream.foreachBatch(%s)" % name, df=df), True)
    ctx.note(M.TB_STREAM_COLLECT, "the loop over the streaming query's rows runs in %s for each micro-batch's rows, in no "
             "set order within one (Flink's arrive one by one); it never ends in either; a Row printed whole reads "
             "Row(name=value, ...) in Spark, <Row(value, ...)> in Flink" % name)
    outer = ctx.resolver.parent(loop)  # the loop's block: a with's, when the rows come from its item
    block = ctx.resolver.parent(outer) if isinstance(loop.iter, cst.Name) else None

    def rewrite(new):
        converted = new.body.body[0] if isinstance(new, cst.With) else new
        started = new.items[0].item if isinstance(new, cst.With) else new.iter
        function = cst.FunctionDef(
            name=cst.Name(name), params=cst.parse_expression("lambda batch, batch_id: 0").params,
            body=cst.IndentedBlock([converted.with_changes(iter=cst.parse_expression("batch.collect()"), leading_lines=())]),
            leading_lines=new.leading_lines)
        return cst.FlattenSentinel([function, cst.SimpleStatementLine([cst.Expr(started)])])

    ctx.rewrite_statement(block if isinstance(block, cst.With) else loop, rewrite)
    return writer

