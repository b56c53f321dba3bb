"""``table.print_schema()`` -> ``df.printSchema()``: both print the table's columns and types
(each engine in its own format, as for every print: the columns, not the text, are the
result); ``table.get_schema()``/``get_resolved_schema()`` -> ``df.schema``.
"""

from flink2spark.rules.table._common import program, spark_program
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Table.print_schema", "Table.get_schema", "Table.get_resolved_schema"],
    summary="print_schema() -> printSchema(); get_schema() -> schema",
    examples=[
        Example(
            program("words = t_env.from_elements([('a', 1)], ['word', 'n'])\nwords.print_schema()\n"),
            spark_program('words = t_env.createDataFrame([("a", 1)], ["word", "n"])\nwords.printSchema()\n'),
        ),
    ],
    noop=['import pandas as pd\n\nframe = pd.DataFrame({"a": [1]})\nframe.info()\n'],
)


@rule.converter
def convert(ctx):
    if ctx.site.head.method == "print_schema":
        return ctx.expr("{df}.printSchema()", df=ctx.site.receiver)
    return ctx.expr("{df}.schema", df=ctx.site.receiver)
