"""``ds.output(to_error=False)`` -> ``for record in rdd.collect(): print(record)``.

Flink's print sink writes every record in input order (parallelism 1) on the client's stdout
(stderr with ``to_error``). Spark's idiom for printing an RDD's records in the driver is the
Spark programming guide's ``collect()`` then print each ("Printing elements of an RDD":
``rdd.foreach(print)`` would print on the executors): one job, records in partition order, as
Flink's. Records are printed as Python prints them (``('a', 1)``), not with Flink's
``Stringify`` (``(a, 1)``): the same records, in Spark's own format.

A data set the program model lowers to a DataFrame (``rules/dataset/_frames.py``) is shown
with Spark's own row format: ``show(2147483647, truncate=False)`` prints every row and every
character (``to_error`` keeps the RDD form: ``show()`` writes to stdout only).

The loop is a statement: an ``output()`` whose value is used, or inside a lambda, keeps a TODO.
"""

import libcst as cst

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import imports as I
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.output"],
    summary="output() -> for record in rdd.collect(): print(record) (native: Spark's own record format)",
    codes=(M.DS_UNSUPPORTED,),
    examples=[
        Example(  # floats: no frame form (rules/dataset/_frames.py), an RDD
            program('env.from_elements(("a", 1.5)).output()\n'),
            spark_program('for record in env.sparkContext.parallelize([("a", 1.5)]).collect():\n    print(record)\n'),
        ),
        Example(  # a DataFrame (the program model's frame form): show() every row, every character
            program('env.from_elements(("a", 1)).output()\n'),
            spark_program('env.createDataFrame([("a", 1)], "f0 STRING, f1 INT").show(2147483647, truncate=False)\n'),
        ),
        Example(
            program("record = 'x'\nenv.from_elements(1).output(to_error=True)\n"),
            spark_program(
                "record = 'x'\nfor record_ in env.sparkContext.parallelize([1]).collect():\n    print(record_, file=sys.stderr)\n",
                imports="import sys\n",
            ),
        ),
    ],
    noop=["import logging\n\nlog = logging.getLogger()\nlog.output = print\nlog.output()\n"],
)


@rule.converter
def convert(ctx):
    if _frames.receiver_frame(ctx) is not None:  # a DataFrame: Spark's own row format, every row and character
        return ctx.expr("{df}.show(2147483647, truncate=False)", df=ctx.site.receiver)
    to_error = ctx.arg(ctx.site.head, 0, "to_error")
    stderr = None
    if to_error is not None and not (isinstance(to_error[0], cst.Name) and to_error[0].value == "False"):
        stderr = ctx.expr("sys.stderr")
        if not (isinstance(to_error[0], cst.Name) and to_error[0].value == "True"):
            stderr = ctx.expr("sys.stderr if {e} else None", e=to_error[1])  # file=None: stdout
    collected = ctx.print_loop(ctx.site.receiver, lambda record: [cst.Arg(record)] + ([cst.Arg(stderr, keyword=cst.Name("file"))] if stderr is not None else []))
    if collected is None:
        if ctx.statement_line is None:
            return ctx.todo(M.DS_UNSUPPORTED, "output() whose value is used: print the records with `for record in rdd.collect(): print(record)`")
        return ctx.todo(M.DS_UNSUPPORTED, "output() where print is not Python's: print the records of rdd.collect() by hand")
    if stderr is not None:
        I.need(ctx.conv.codemod, "sys")
    return collected
