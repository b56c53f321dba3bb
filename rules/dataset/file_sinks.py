"""``write_text(path, write_mode)`` and ``write_csv(path, line_delimiter, field_delimiter, write_mode)``.

* ``write_text(path)`` -> ``rdd.saveAsTextFile(path)``: one line per record, Python's ``str()``
  of it (Flink wrote its ``Stringify``: the same records, in Spark's format).
* ``write_csv(path, field_delimiter="|")`` -> ``rdd.map(lambda r: "|".join(map(str, r)))`` then the
  same: the top-level fields joined by the delimiter, no quoting, as Flink's ``CsvStringify``.
* ``WriteMode.OVERWRITE`` (or a ``line_delimiter`` other than ``"\n"``) needs the DataFrame
  writer: ``.map(lambda line: (line,)).toDF("value STRING").write.mode("overwrite").text(path)``
  (``lineSep=...``); ``NO_OVERWRITE`` (the default) fails when ``path`` exists, as Flink's.

NOTE F2S117 on each: Flink (parallelism 1) wrote ONE file named ``path``; Spark writes a folder
``path`` of ``part-*`` files (read it back with ``read.text(path)`` or ``textFile(path)``).
A write mode not known when converting keeps a TODO.

A data set the program model lowers to a DataFrame (``rules/dataset/_frames.py``) is written by
``DataFrameWriter.text`` as one string column: Python's ``str()`` of each field (strings as
they are, integers ``cast("string")``, booleans ``True``/``False``; doubles have no frame form),
joined by the field delimiter with ``F.concat_ws`` for ``write_csv`` (no quoting, as Flink's).
"""

import json

import libcst as cst

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import frame_program, program, spark_program
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

FOLDER_NOTE = (
    "Flink wrote one file named by the path (parallelism 1), Spark writes a folder of part-* files there;"
    " the records are the same, each line Python's str() of a record or, for write_csv, of its fields (Flink's Stringify wrote (a, 1) for ('a', 1))"
)

rule = Rule(
    __name__,
    matches=["DataSet.write_text", "DataSet.write_csv"],
    summary="write_text/write_csv -> saveAsTextFile (DataFrame text writer for OVERWRITE); NOTE F2S117: a folder of part files; a DataFrame: one text column of F.concat_ws of the fields (native)",
    exact=False,
    codes=(M.DS_UNSUPPORTED, M.DS_FILE_FOLDER),
    examples=[
        Example(
            program(
                "rows = env.from_elements((1, 'a'))\n"
                "rows.write_text('/tmp/out.txt')\n"
                "rows.write_csv('/tmp/out.csv', field_delimiter='|', write_mode=WriteMode.OVERWRITE)\n",
                imports="from flink.plan.Constants import WriteMode\n",
            ),
            spark_program(
                'rows = env.sparkContext.parallelize([(1, "a")])\n'
                f"# NOTE(flink2spark): F2S117 {FOLDER_NOTE}\n"
                'rows.saveAsTextFile("/tmp/out.txt")\n'
                f"# NOTE(flink2spark): F2S117 {FOLDER_NOTE}\n"
                'rows.map(lambda record: ("|".join(map(str, record)),)).toDF("value STRING").write.mode(\n'
                '    "overwrite"\n'
                ').text("/tmp/out.csv")\n',
            ),
        ),
        Example(  # on a DataFrame (rules/dataset/_frames.py): Python's str() of each field, joined: one text column
            program(
                "env.from_elements(('a', True), ('b', False)).write_csv('/tmp/out.csv', field_delimiter='|')\n",
            ),
            frame_program(
                "# NOTE(flink2spark): F2S117 Flink wrote one file named by the path (parallelism 1), Spark writes a folder of part-* files there; the records are the same, each line Python's str() of a record or, for write_csv, of its fields (Flink's Stringify wrote (a, 1) for ('a', 1))\n"
                'env.createDataFrame([("a", True), ("b", False)], "f0 STRING, f1 BOOLEAN").select(\n'
                '    F.concat_ws("|", "f0", F.when(F.col("f1"), "True").otherwise("False"))\n'
                ').write.text("/tmp/out.csv")\n'
            ),
        ),
    ],
    noop=["import pathlib\n\npathlib.Path('x.txt').write_text('hi')\n"],
)

_MODES = {0: "errorifexists", 1: "overwrite"}


def _mode(ctx, given):
    """The Spark save mode of a Flink write mode (None: not known when converting)."""
    if given is None:
        return "errorifexists"
    node = given[0]
    if isinstance(node, cst.Integer):
        return _MODES.get(int(node.value))
    if isinstance(node, (cst.Name, cst.Attribute)):
        return _MODES.get(A.WRITE_MODES.get(ctx.resolver.qualified_name(node) or "", -1))
    return None


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    csv = seg.method == "write_csv"
    path = ctx.arg(seg, 0, "path")
    mode = _mode(ctx, ctx.arg(seg, 3 if csv else 1, "write_mode"))
    if path is None:
        return ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}() without a path")
    if mode is None:
        return ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}() with a write mode not known when converting: write with .mode('overwrite') or saveAsTextFile")
    line_sep, line = None, ctx.expr("str(record)")
    if csv:
        field = ctx.arg(seg, 2, "field_delimiter")
        line = ctx.expr("{sep}.join(map(str, record))", sep=field[1] if field is not None else cst.SimpleString('","'))
        given = ctx.arg(seg, 1, "line_delimiter")
        if given is not None and isinstance(given[0], cst.SimpleString) and given[0].evaluated_value == "":
            return ctx.todo(M.DS_UNSUPPORTED, "write_csv() with an empty line delimiter (Spark's text writer needs one)")
        if given is not None and not (isinstance(given[0], cst.SimpleString) and given[0].evaluated_value == "\n"):
            line_sep = given[1]
    ctx.note(M.DS_FILE_FOLDER, FOLDER_NOTE)
    rows = ctx.site.receiver
    shape = _frames.receiver_frame(ctx)
    if shape is not None:  # a DataFrame: the lines as one string column (rules/dataset/_frames.py)
        field = ctx.arg(seg, 2, "field_delimiter") if csv else None
        sep = cst.Module([]).code_for_node(field[1]) if field is not None else '","'
        if shape.kind != "value" or shape.fields[0].type != "string":
            _frames.use_functions(ctx)
            rows = ctx.expr("{rows}.select(%s)" % _frames.lines(shape, sep if csv else None), rows=rows)
        writer = ctx.expr("{rows}.write", rows=rows)
        if mode != "errorifexists":
            writer = ctx.expr("{w}.mode({mode})", w=writer, mode=cst.SimpleString(json.dumps(mode)))
        return ctx.expr("{w}.text({path})", w=writer, path=path[1])
    if mode == "errorifexists" and line_sep is None:
        if csv:
            rows = ctx.expr("{rows}.map(lambda record: {line})", rows=rows, line=line)
        return ctx.expr("{rows}.saveAsTextFile({path})", rows=rows, path=path[1])
    writer = ctx.expr('{rows}.map(lambda record: ({line},)).toDF("value STRING").write.mode({mode})', rows=rows, line=line, mode=cst.SimpleString(json.dumps(mode)))
    args = [cst.Arg(path[1])] + ([cst.Arg(line_sep, keyword=cst.Name("lineSep"))] if line_sep is not None else [])
    return cst.Call(func=cst.Attribute(value=writer, attr=cst.Name("text")), args=args)
