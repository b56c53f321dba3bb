"""File and sequence sources.

* ``generate_sequence(a, b)`` -> ``sparkContext.range(a, b + 1)``: Flink's end is inclusive.
* ``read_text(path)`` -> ``read.text(path, lineSep="\\n")`` without a trailing ``\\r``: Flink splits
  on ``\\n`` only and strips the ``\\r`` of ``\\r\\n`` (Spark's default also splits on a lone ``\\r``).
* ``read_csv(path, (INT, STRING, FLOAT), line_delimiter, field_delimiter)`` ->
  ``read.csv(path, schema="f0 BIGINT, f1 STRING, f2 DOUBLE", sep=..., quote="").fillna("").rdd.map(tuple)``:
  Spark's CSV reader with the schema of the field types (``INT`` is a Java Long in Flink, ``FLOAT``
  a Double; the constants become those DDL names wherever they stand, so types given by a
  variable or a helper's parameter build the schema at run time). Checked against Flink's reader
  (``CsvInputFormat`` at parallelism 1): extra trailing fields are dropped (TPC-H rows end in
  ``|``; Spark's default PERMISSIVE mode, not FAILFAST, which fails on them), no quoting
  (``quote=""``), an empty string field is ``""`` (``fillna("")``: Spark reads it as null),
  blank lines skipped, ``\r\n`` read as ``\n``. NOTE F2S116 where they differ: a row with too
  few fields or a number that does not parse fails Flink's job and is read with nulls by Spark;
  Flink reads BOOL fields ``1``/``0`` as true/false, refuses ``+5`` as an INT and `` 1.5`` as a
  FLOAT (tests/test_runtime_dataset.py: Flink 2.3's field parsers' results on each text).

Where the program model lowers the data set to a DataFrame (``rules/dataset/_frames.py``):
``spark.range(a, b + 1)`` (a BIGINT ``id``) and ``read.text(path, lineSep="\\n")`` with the
``\\r`` of a ``\\r\\n`` line end removed (``regexp_replace`` of ``\\r\\z``), the lines the RDD form reads;
not removed where every use splits the lines on whitespace (``_frames.keeps_cr``: the same words).
"""

import json

import libcst as cst

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import frame_program, program, spark_program
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

CSV_NOTE = (
    "read_csv by Spark's CSV reader: a row with too few fields or a number that does not parse fails"
    " Flink's job and is read with nulls here; Flink also reads BOOL fields 1/0 and refuses + on INT and spaces around FLOAT"
)


rule = Rule(
    __name__,
    matches=["Environment.generate_sequence", "Environment.read_text", "Environment.read_csv"],
    summary="generate_sequence/read_text/read_csv -> range(a, b + 1)/read.text/read.csv(schema=...).fillna('').rdd.map(tuple) (native; NOTE F2S116 on input Flink rejects); DataFrames where the program model lowers the data set",
    exact=False,  # read_csv: NOTE F2S116
    codes=(M.DS_UNKNOWN_TYPE, M.DS_CSV_READER),
    examples=[
        Example(
            program(
                "numbers = env.generate_sequence(1, 10)\n"
                "lines = env.read_text('in.txt')\n"
                "rows = env.read_csv('in.csv', (INT, STRING, FLOAT), field_delimiter='|')\n",
                imports="from flink.plan.Constants import FLOAT, INT, STRING\n",
            ),
            spark_program(
                "numbers = env.sparkContext.range(1, 10 + 1)\n"
                'lines = env.read.text("in.txt", lineSep="\\n").rdd.map(\n    lambda row: row.value.removesuffix("\\r")\n)\n'
                f"# NOTE(flink2spark): F2S116 {CSV_NOTE}\n"
                "rows = (\n"
                '    env.read.csv("in.csv", schema="f0 BIGINT, f1 STRING, f2 DOUBLE", sep="|", quote="")\n'
                '    .fillna("")\n'
                "    .rdd.map(tuple)\n"
                ")\n",
            ),
        ),
        Example(
            program(
                "def table(env, name, types):\n"
                "    return env.read_csv(name, types, '\\n', ';')\n\n\n"
                "rows = table(env, 'in.csv', (INT, BOOL))\n",
                imports="from flink.plan.Constants import BOOL, INT\n",
            ),
            spark_program(
                "def table(env, name, types):\n"
                f"    # NOTE(flink2spark): F2S116 {CSV_NOTE}\n"
                "    return (\n"
                "        env.read.csv(\n"
                "            name,\n"
                '            schema=", ".join(f"f{i} {t}" for i, t in enumerate(types)),\n'
                '            sep=";",\n'
                '            quote="",\n'
                "        )\n"
                '        .fillna("")\n'
                "        .rdd.map(tuple)\n"
                "    )\n\n\n"
                'rows = table(env, "in.csv", ("BIGINT", "BOOLEAN"))\n',
            ),
        ),
        Example(  # DataFrames where every use has a frame form (rules/dataset/_frames.py); NOTE F2S280: a BIGINT sum
            program(
                "lines = env.read_text('in.txt')\n"
                "lines.write_text('out')\n"
                'env.generate_sequence(1, 10).map(lambda n: (n % 3, n)).group_by(0).sum(1).output()\n',
            ),
            frame_program(
                'lines = env.read.text("in.txt", lineSep="\\n").select(\n'
                '    F.regexp_replace("value", r"\\r\\z", "").alias("value")\n'
                ')\n'
                "# NOTE(flink2spark): F2S117 Flink wrote one file named by the path (parallelism 1), Spark writes a folder of part-* files there; the records are the same, each line Python's str() of a record or, for write_csv, of its fields (Flink's Stringify wrote (a, 1) for ('a', 1))\n"
                'lines.write.text("out")\n'
                "# NOTE(flink2spark): F2S280 sum of the 64-bit field f1 as Spark's sum: past 64 bits the Spark job fails (ANSI overflow) where Python's int goes on\n"
                'env.range(1, 10 + 1).select(\n'
                '    F.pmod(F.col("id"), F.lit(3)).alias("f0"), F.col("id").alias("f1")\n'
                ').groupBy("f0").agg(F.sum("f1").alias("f1")).show(2147483647, truncate=False)\n'
            ),
        ),
    ],
    noop=["import pandas as pd\n\ndf = pd.read_csv('x.csv')\ntext = open('x.txt').read()\n"],
)


def _literal_types(ctx, types: cst.BaseExpression):
    """The Spark DDL types of a literal tuple/list of Constants (None: not one)."""
    if not isinstance(types, (cst.Tuple, cst.List)):
        return None
    names = [ctx.resolver.qualified_name(e.value) if isinstance(e.value, (cst.Name, cst.Attribute)) else None for e in types.elements]
    if not names or any(n not in A.CSV_TYPES for n in names):
        return None
    return [A.CSV_TYPES[n] for n in names]


def _csv(ctx):
    """``env.read_csv(path, types, line_delimiter, field_delimiter)`` -> Spark's CSV reader (see above)."""
    seg = ctx.site.head
    path, types = ctx.arg(seg, 0, "path"), ctx.arg(seg, 1, "types")
    if path is None or types is None:
        return ctx.todo(M.DS_UNSUPPORTED, "read_csv() needs a path and field types")
    literal = _literal_types(ctx, types[0])
    if literal is not None:
        schema: cst.BaseExpression = cst.SimpleString(json.dumps(", ".join(f"f{i} {t}" for i, t in enumerate(literal))))
    elif isinstance(types[0], (cst.Tuple, cst.List)):
        return ctx.todo(M.DS_UNKNOWN_TYPE, "read_csv() field types other than flink.plan.Constants INT, LONG, FLOAT, STRING, BOOL")
    else:  # a variable or a parameter: its Constants became the DDL names
        schema = cst.parse_expression('", ".join(f"f{i} {t}" for i, t in enumerate(types))')  # (no template: f-string braces)
        fields = schema.args[0].value  # type: ignore[attr-defined]
        numbered = fields.for_in.iter.with_changes(args=[cst.Arg(types[1])])
        schema = schema.with_changes(args=[cst.Arg(fields.with_changes(for_in=fields.for_in.with_changes(iter=numbered)))])  # type: ignore[attr-defined]
    options = [cst.Arg(path[1]), cst.Arg(schema, keyword=cst.Name("schema"))]
    for index, keyword, spark in ((2, "line_delimiter", "lineSep"), (3, "field_delimiter", "sep")):
        given = ctx.arg(seg, index, keyword)
        if given is None or (spark == "lineSep" and isinstance(given[0], cst.SimpleString) and given[0].evaluated_value == "\n"):
            continue  # Flink's default "\n" drops the \r of \r\n: Spark's default line ends
        if isinstance(given[0], cst.SimpleString) and len(given[0].evaluated_value) != 1:
            return ctx.todo(M.DS_UNSUPPORTED, f"read_csv() with a {keyword} of other than one character (Spark's CSV reader takes one)")
        options.append(cst.Arg(given[1], keyword=cst.Name(spark)))
    options.append(cst.Arg(cst.SimpleString('""'), keyword=cst.Name("quote")))  # Flink's reader knows no quotes
    ctx.note(M.DS_CSV_READER, CSV_NOTE)
    reader = cst.Call(func=ctx.expr("{env}.read.csv", env=ctx.site.receiver), args=options)
    if literal is not None and "STRING" not in literal:
        return ctx.expr("{r}.rdd.map(tuple)", r=reader)
    return ctx.expr('{r}.fillna("").rdd.map(tuple)', r=reader)


def _frame_source(ctx):
    """A source the program model makes a DataFrame (``rules/dataset/_frames.py``)."""
    seg = ctx.site.head
    _frames.use_functions(ctx)
    if seg.method == "generate_sequence":
        return ctx.expr("{env}.range({a}, {b} + 1)", env=ctx.site.receiver, a=seg.args[0].value, b=seg.args[1].value)
    lines = ctx.expr('{env}.read.text({p}, lineSep="\\n")', env=ctx.site.receiver, p=seg.args[0].value)
    if not _frames.keeps_cr(ctx.resolver, seg.original):
        return lines  # every use splits the lines on whitespace, \r included
    return ctx.expr('{lines}.select(F.regexp_replace("value", r"\\r\\z", "").alias("value"))', lines=lines)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    env = ctx.site.receiver
    if seg.method != "read_csv" and _frames.frame(ctx.resolver, seg.original) is not None:
        return _frame_source(ctx)
    if seg.method == "generate_sequence":
        start, end = ctx.arg(seg, 0, "frm"), ctx.arg(seg, 1, "to")
        if start is None or end is None:
            return ctx.todo(M.DS_UNSUPPORTED, "generate_sequence() needs a start and an end")
        return ctx.expr("{env}.sparkContext.range({a}, {b} + 1)", env=env, a=start[1], b=end[1])
    if seg.method == "read_text":
        path = ctx.arg(seg, 0, "path")
        if path is None:
            return ctx.todo(M.DS_UNSUPPORTED, "read_text() without a path")
        return ctx.expr('{env}.read.text({p}, lineSep="\\n").rdd.map(lambda row: row.value.removesuffix("\\r"))', env=env, p=path[1])
    return _csv(ctx)
