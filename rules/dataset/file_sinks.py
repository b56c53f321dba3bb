"""``write_text(path, write_mode)`` and ``write_csv(path, line_delimiter, field_delimiter, write_mode)``.

Flink (parallelism 1) writes ONE file at ``path`` in its own text format; Spark writes a
directory of part files with Python's ``str``. The shim writes Flink's file (through Hadoop's
FileSystem, so cluster paths work) and honours ``WriteMode``.
"""

import libcst as cst

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.write_text", "DataSet.write_csv"],
    summary="write_text/write_csv -> f2s.write_text/f2s.write_csv: shim, Flink wrote one file in its Stringify format (Spark: a folder of part files)",
    examples=[
        Example(
            program(
                "rows = env.from_elements((1, 'a'))\n"
                "rows.write_text('/tmp/out.txt', WriteMode.OVERWRITE)\n"
                "rows.write_csv('/tmp/out.csv', field_delimiter='|')\n",
                imports="from flink.plan.Constants import WriteMode\n",
            ),
            spark_program(
                'rows = env.sparkContext.parallelize([(1, "a")])\n'
                'f2s.write_text(rows, "/tmp/out.txt", f2s.WriteMode.OVERWRITE)\n'
                'f2s.write_csv(rows, "/tmp/out.csv", field_delimiter="|")\n',
                shim=True,
            ),
        ),
    ],
    noop=["import pathlib\n\npathlib.Path('x.txt').write_text('hi')\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    args = [cst.Arg(ctx.site.receiver)] + [a.with_changes(comma=cst.MaybeSentinel.DEFAULT) for a in seg.args]
    return cst.Call(func=ctx.shim(seg.method), args=args)
