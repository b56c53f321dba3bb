"""File and sequence sources.

* ``generate_sequence(a, b)`` -> ``sparkContext.range(a, b + 1)``: Flink's end is inclusive.
* ``read_text(path)`` -> ``read.text(path, lineSep="\\n")`` without a trailing ``\\r``: Flink splits
  on ``\\n`` only and strips the ``\\r`` of ``\\r\\n`` (Spark's default also splits on a lone ``\\r``).
* ``read_csv(path, (INT, STRING, FLOAT), line_delimiter, field_delimiter)`` ->
  ``read.csv(..., schema=..., quote="", mode="FAILFAST")`` as tuples: Flink's reader knows no
  quotes and fails on bad fields. ``FLOAT`` is a double in Flink, as in Spark's ``DOUBLE``.
"""

import libcst as cst

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Environment.generate_sequence", "Environment.read_text", "Environment.read_csv"],
    summary="generate_sequence/read_text/read_csv -> range(a, b + 1)/read.text/read.csv as tuples",
    codes=(M.DS_UNKNOWN_TYPE,),
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
                "rows = env.read.csv(\n"
                '    "in.csv",\n'
                '    schema="_c0 BIGINT, _c1 STRING, _c2 DOUBLE",\n'
                '    sep="|",\n'
                '    lineSep="\\n",\n'
                '    quote="",\n'
                '    mode="FAILFAST",\n'
                ").rdd.map(tuple)\n"
            ),
        ),
    ],
    noop=["import pandas as pd\n\ndf = pd.read_csv('x.csv')\ntext = open('x.txt').read()\n"],
)


def _csv(ctx):
    seg = ctx.site.head
    path = ctx.arg(seg, 0, "path")
    types = ctx.arg(seg, 1, "types")
    if path is None or types is None:
        ctx.todo(M.DS_UNSUPPORTED, "read_csv() needs a path and field types")
        return None
    value = types[0]
    if isinstance(value, cst.Name):
        value = ctx.resolver.single_value(value) or value
    if isinstance(value, (cst.Tuple, cst.List)):
        columns = []
        for i, el in enumerate(value.elements):
            spark_type = A.CSV_TYPES.get(ctx.qualified(el.value) or "")
            if spark_type is None:
                ctx.todo(M.DS_UNKNOWN_TYPE, f"read_csv() field type {i} is not INT, LONG, FLOAT, STRING or BOOL")
                return None
            columns.append(f"_c{i} {spark_type}")
        schema = cst.SimpleString('"%s"' % ", ".join(columns))
    else:
        # types computed elsewhere (e.g. a helper's parameter): the shim's INT/STRING/... constants
        # stand for Flink's, and csv_schema() builds the DDL schema at run time.
        schema = cst.Call(func=ctx.shim("csv_schema"), args=[cst.Arg(types[1])])
    line = ctx.arg(seg, 2, "line_delimiter")
    field = ctx.arg(seg, 3, "field_delimiter")
    kwargs = [cst.Arg(path[1]), cst.Arg(schema, keyword=cst.Name("schema"))]
    if field is not None:
        kwargs.append(cst.Arg(field[1], keyword=cst.Name("sep")))
    kwargs.append(cst.Arg(line[1] if line else cst.SimpleString('"\\n"'), keyword=cst.Name("lineSep")))
    kwargs.append(cst.Arg(cst.SimpleString('""'), keyword=cst.Name("quote")))
    kwargs.append(cst.Arg(cst.SimpleString('"FAILFAST"'), keyword=cst.Name("mode")))
    read = cst.Call(func=ctx.expr("{env}.read.csv", env=ctx.site.receiver), args=kwargs)
    return ctx.expr("{r}.rdd.map(tuple)", r=read)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    env = ctx.site.receiver
    if seg.method == "generate_sequence":
        start, end = ctx.arg(seg, 0, "frm"), ctx.arg(seg, 1, "to")
        if start is None or end is None:
            return None
        return ctx.expr("{env}.sparkContext.range({a}, {b} + 1)", env=env, a=start[1], b=end[1])
    if seg.method == "read_text":
        path = ctx.arg(seg, 0, "path")
        if path is None:
            return None
        return ctx.expr('{env}.read.text({p}, lineSep="\\n").rdd.map(lambda row: row.value.removesuffix("\\r"))', env=env, p=path[1])
    return _csv(ctx)
