"""File and sequence sources.

* ``generate_sequence(a, b)`` -> ``sparkContext.range(a, b + 1)``: Flink's end is inclusive.
* ``read_text(path)`` -> ``read.text(path, lineSep="\\n")`` without a trailing ``\\r``: Flink splits
  on ``\\n`` only and strips the ``\\r`` of ``\\r\\n`` (Spark's default also splits on a lone ``\\r``).
* ``read_csv(path, (INT, STRING, FLOAT), line_delimiter, field_delimiter)`` ->
  ``f2s.read_csv(env, ...)``: Flink's CSV reader ignores trailing extra fields (TPC-H rows end in
  ``|``), knows no quotes, reads empty strings as ``""`` and fails on bad fields; Spark's CSV
  reader does none of these exactly, so the shim parses the text lines as Flink did.
"""

import libcst as cst

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Environment.generate_sequence", "Environment.read_text", "Environment.read_csv"],
    summary="generate_sequence/read_text/read_csv -> range(a, b + 1)/read.text/f2s.read_csv (shim: Spark's CSV reader nulls empty fields, fails on trailing fields)",
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
                "rows = f2s.read_csv(\n"
                '    env, "in.csv", (f2s.INT, f2s.STRING, f2s.FLOAT), field_delimiter="|"\n'
                ")\n",
                shim=True,
            ),
        ),
    ],
    noop=["import pandas as pd\n\ndf = pd.read_csv('x.csv')\ntext = open('x.txt').read()\n"],
)


def _csv(ctx):
    """``env.read_csv(...)`` -> ``f2s.read_csv(env, ...)`` with the same arguments.

    The field types stay as written: ``INT``/``FLOAT``/``STRING``/``BOOL`` become the shim's
    constants of the same sample values, so types given as a tuple or computed elsewhere work alike.
    """
    seg = ctx.site.head
    if ctx.arg(seg, 0, "path") is None or ctx.arg(seg, 1, "types") is None:
        return ctx.todo(M.DS_UNSUPPORTED, "read_csv() needs a path and field types")
    args = [cst.Arg(ctx.site.receiver)] + [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in seg.args]
    return cst.Call(func=ctx.shim("read_csv"), args=args)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    env = ctx.site.receiver
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
