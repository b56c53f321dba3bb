"""Operator settings: ``name``, ``uid``, ``set_parallelism``, ``slot_sharing_group``... -> dropped.

They change how Flink schedules and labels an operator, never its results. Chained after an
operator (``ds.map(f).name("m")``) the engine drops them with the operator's conversion; this
rule handles them on a stream variable or a sink (``sink = ds.print(); sink.name("out")``).
"""

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.convert import REMOVE
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=[f"DataStream.{m}" for m in sorted(P.MODIFIERS)] + [f"DataStreamSink.{m}" for m in sorted(P.METHODS[P.SINK])],
    summary="name/uid/set_parallelism/slot_sharing_group/... -> dropped (scheduling only)",
    examples=[
        Example(
            program(
                "numbers = env.from_collection([1]).map(lambda x: x + 1).name('inc').uid('inc')\n"
                "numbers.set_parallelism(2)\n"
                "doubled = numbers.map(lambda x: x * 2).set_parallelism(4)\n"
                "numbers.print().name('out')\n"
            ),
            'from pyspark.sql import SparkSession\n'
            '\n'
            '# NOTE(flink2spark): F2S205 PyFlink streams become RDDs: Python functions over records run on the RDD API (SparkContext), which Spark Connect does not offer; here because `.print()` at line 7 has no DataFrame form\n'
            'env = SparkSession.builder.getOrCreate()\n'
            'numbers = env.sparkContext.parallelize([1]).map(lambda x: x + 1)\n'
            'doubled = numbers.map(lambda x: x * 2)\n'
            'for record in numbers.collect():\n'
            '    print(record)\n',
        ),
    ],
    noop=["class Job:\n    def name(self, n):\n        return self\n\n\nJob().name('x').uid = 1\n"],
)


@rule.converter
def convert(ctx):
    if ctx.is_statement:
        return REMOVE
    return ctx.site.receiver
