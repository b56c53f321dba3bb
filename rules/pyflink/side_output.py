"""``stream.get_side_output(tag)`` -> ``f2s.side_output(stream, tag)``.

A process function (``process``, ``KeyedStream.process``, connected and broadcast
``process``) yields ``tag, value`` for a side output; the shim keeps those results with the
main output it returns, and ``f2s.side_output`` selects the ones of ``tag`` (Flink matches
tags by their id). ``OutputTag`` becomes the shim's ``f2s.OutputTag``.
"""

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.get_side_output"],
    summary="get_side_output(tag) -> f2s.side_output(stream, tag)",
    codes=(M.PF_PROCESS,),
    examples=[
        Example(
            program(
                "\n\nclass Split(ProcessFunction):\n"
                "    def process_element(self, value, ctx):\n"
                "        yield (ODD, value) if value % 2 else value\n\n\n"
                "ODD = OutputTag('odd')\n"
                "evens = env.from_collection([1, 2]).process(Split())\n"
                "odds = evens.get_side_output(ODD)\n",
                imports="from pyflink.datastream import OutputTag, ProcessFunction\n",
            ),
            spark_program(
                "\n\nclass Split(f2s.ProcessFunction):\n"
                "    def process_element(self, value, ctx):\n"
                "        yield (ODD, value) if value % 2 else value\n\n\n"
                'ODD = f2s.OutputTag("odd")\n'
                "evens = f2s.process(env.sparkContext.parallelize([1, 2]), Split())\n"
                "odds = f2s.side_output(evens, ODD)\n",
                shim=True,
                rdd='the source `.from_collection()` at line 13 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=["class Job:\n    def get_side_output(self, tag):\n        return tag\n\n\nJob().get_side_output('late')\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    tag = ctx.arg(seg, 0, "output_tag")
    if tag is None:
        return ctx.todo(M.PF_PROCESS, "get_side_output(): no output tag argument found")
    return ctx.expr("{side}({ds}, {tag})", side=ctx.shim("side_output"), ds=ctx.site.receiver, tag=tag[1])
