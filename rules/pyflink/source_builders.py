"""``NumberSequenceSource(a, b)`` and ``FileSource.for_record_stream_format(...).build()``:
source objects that only ``from_source`` reads.

Written directly in ``env.from_source(...)``, they are converted there. Kept in a variable
whose only use is ``env.from_source(variable, ...)``, the assignment is dropped and
``from_source`` reads the source from it. Any other use stays with a TODO.
"""

from flink2spark.rules.pyflink._common import (
    consumed_as,
    consumed_by_from_source,
    from_source_problem,
    left_with_todo,
    program,
    spark_program,
)
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["flink.NumberSequenceSource", "FileSourceBuilder.build"],
    summary="source objects read by from_source(): the variable holding one is dropped",
    codes=(M.PF_UNSUPPORTED,),
    examples=[
        Example(
            program(
                "numbers = NumberSequenceSource(1, 5)\n"
                "env.from_source(numbers, WatermarkStrategy.no_watermarks(), 'n').print()\n",
                imports="from pyflink.common import WatermarkStrategy\nfrom pyflink.datastream.connectors import NumberSequenceSource\n",
            ),
            "from pyspark.sql import SparkSession\n\nenv = SparkSession.builder.getOrCreate()\n" 'env.range(1, 5 + 1).toDF("value").show(2147483647, truncate=False)\n',
        ),
        Example(
            program(
                "numbers = NumberSequenceSource(1, 5)\nprint(numbers)\n",
                imports="from pyflink.datastream.connectors import NumberSequenceSource\n",
            ),
            "# TODO(flink2spark): F2S208 NumberSequenceSource from pyflink.datastream.connectors is still used: "
            "convert the remaining uses by hand\n"
            "from pyflink.datastream.connectors import NumberSequenceSource\n"
            + spark_program(
                "# TODO(flink2spark): F2S200 a source object used other than as the source of env.from_source(): convert it by hand\n"
                "numbers = NumberSequenceSource(1, 5)\nprint(numbers)\n",
                frames=True,
            ),
        ),
    ],
    noop=["class NumberSequenceSource:\n    def __init__(self, a, b):\n        pass\n\n\nnumbers = NumberSequenceSource(1, 5)\n"],
)


@rule.converter
def convert(ctx):
    call = ctx.site.head.original
    found = consumed_by_from_source(ctx, call)
    if found is None and consumed_as(ctx, call, lambda resolver, arg: left_with_todo(ctx, arg, ("from_source",))):
        return ctx.keep("a converted program: the from_source() that reads this source kept its TODO")
    if found is None:
        return ctx.todo(M.PF_UNSUPPORTED, "a source object used other than as the source of env.from_source(): convert it by hand")
    where, from_source = found
    if where is not call and from_source_problem(ctx, from_source) is None:
        # `source = ...` read only by from_source(source, ...), which converts it: drop it
        ctx.remove_statement(where)
    return ctx.keep("a source built for from_source(): converted (or marked) with the from_source() that reads it")
