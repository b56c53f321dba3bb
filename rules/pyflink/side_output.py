"""``stream.get_side_output(tag)`` -> ``f2s.side_output(stream, tag)``; over a DataFrame (a
``process`` the program model plans as one tagged frame, ``_side_outputs``) ->
``f2s_process.side_output(<the tagged frame>, tag)``, and ``OutputTag(name, type_info)`` ->
``OutputTag(name)`` of ``runtime/frame_process.py`` (the schema is the ``process`` call's).

A process function (``process``, ``KeyedStream.process``, connected and broadcast
``process``) yields ``tag, value`` for a side output; the shim keeps those results with the
main output it returns, and ``f2s.side_output`` selects the ones of ``tag`` (Flink matches
tags by their id). ``OutputTag`` becomes the shim's ``f2s.OutputTag``.
"""

import libcst as cst

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.rules.pyflink._side_outputs import SidePlan, side_plan
from flink2spark.rules.pyflink._streams import facts, graph
from flink2spark.transpiler import imports as I
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.get_side_output", "flink.OutputTag"],
    summary="get_side_output(tag) -> f2s.side_output(stream, tag); of a tagged frame (a ProcessFunction over a DataFrame) -> f2s_process.side_output(outputs, tag)",
    codes=(M.PF_PROCESS,),
    examples=[
        Example(  # a typed stream planned as a DataFrame: one tagged frame, cached, filtered per output
            program(
                "\n\nclass Sizes(ProcessFunction):\n"
                "    def process_element(self, word, ctx):\n"
                "        yield len(word)\n"
                "        if not word.islower():\n"
                "            yield BAD, word\n\n\n"
                "BAD = OutputTag('bad', Types.STRING())\n"
                "numbers = env.from_collection(['ab', 'X'], type_info=Types.STRING()).process(Sizes(), Types.INT())\n"
                "numbers.print()\n"
                "numbers.get_side_output(BAD).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import OutputTag, ProcessFunction\n",
            ),
            "from flink2spark.runtime import frame_process as f2s_process\n"
            "from flink2spark.runtime.frame_process import OutputTag, ProcessFunction\n"
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n\n\n"
            "class Sizes(ProcessFunction):\n"
            "    def process_element(self, word, ctx):\n"
            "        yield len(word)\n"
            "        if not word.islower():\n"
            "            yield BAD, word\n\n\n"
            'BAD = OutputTag("bad")\n'
            "numbers_outputs = f2s_process.tagged(\n"
            '    env.createDataFrame(["ab", "X"], "string"),\n'
            "    Sizes(),\n"
            '    "value",\n'
            '    "value INT",\n'
            '    {"bad": "value STRING"},\n'
            ").cache()\n"
            "numbers = f2s_process.main_output(numbers_outputs)\n"
            "numbers.show(2147483647, truncate=False)\n"
            "f2s_process.side_output(numbers_outputs, BAD).show(2147483647, truncate=False)\n",
        ),
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
    if seg.method == "OutputTag":
        if not graph(ctx.resolver).rdd_free:
            return ctx.keep("a tag of process functions on RDDs: the shim's OutputTag (its name is converted)")
        name = ctx.arg(seg, 0, "tag_id")
        if name is None:
            return ctx.keep("an OutputTag with no name argument: left as it is")
        return ctx.expr("{tag}({name})", tag=seg.updated.func, name=name[1])
    late = _late_shape(ctx, seg.original)
    if late is not None:  # the late records of a frame window: none can come late (_event_windows.late_side_shape)
        from flink2spark.rules.pyflink._frames import ddl

        return ctx.expr('{df}.sparkSession.createDataFrame([], "%s")' % ddl(late), df=ctx.site.receiver)
    source = tagged_process(ctx, seg.original.func.value)
    if source is not None:
        tag = ctx.arg(seg, 0, "output_tag")
        I.need(ctx.conv.codemod, "flink2spark.runtime", "frame_process", "f2s_process")
        return ctx.expr("f2s_process.side_output({outputs}, {tag})", outputs=source.outputs_name, tag=tag[1])
    tag = ctx.arg(seg, 0, "output_tag")
    if tag is None:
        return ctx.todo(M.PF_PROCESS, "get_side_output(): no output tag argument found")
    return ctx.expr("{side}({ds}, {tag})", side=ctx.shim("side_output"), ds=ctx.site.receiver, tag=tag[1])


def _late_shape(ctx, call):
    """The tag's shape when ``call`` (original) is the late-data side output of a frame window."""
    from flink2spark.rules.pyflink._event_windows import late_side_shape

    receiver = facts(ctx.resolver, call.func.value).frame
    return late_side_shape(graph(ctx.resolver), call, receiver) if receiver is not None and facts(ctx.resolver, call).frame is not None else None


def tagged_process(ctx, stream) -> "SidePlan | None":
    """The plan of the ``process`` call ``stream`` comes from when it is a tagged frame."""
    from flink2spark.rules.pyflink._common import followed

    source = followed(ctx.resolver, stream)
    if not (isinstance(source, cst.Call) and isinstance(source.func, cst.Attribute) and source.func.attr.value == "process"):
        return None
    if ctx.resolver.type_of(source.func.value) == P.CONNECTED:  # a KeyedCoProcessFunction as a StatefulProcessor
        from flink2spark.rules.pyflink._stateful import TwoInputPlan, two_input_plan

        found = two_input_plan(graph(ctx.resolver), source) if facts(ctx.resolver, source).frame is not None else None
        return found if isinstance(found, TwoInputPlan) and found.outputs_name is not None else None  # type: ignore[return-value]
    shape = facts(ctx.resolver, source.func.value).frame
    found = side_plan(graph(ctx.resolver), source, shape) if shape is not None else None
    return found if isinstance(found, SidePlan) and found.outputs_name is not None else None
