"""``reduce_group(f, combinable=...)`` on a DataSet or a grouping.

* Grouped: ``groupByKey().values().flatMap(f)``: ``f`` gets each group's values (Flink gave an
  iterator: rewritten ``GroupReduceFunction`` methods call ``iter()`` where they use ``next``).
* Whole DataSet: ``coalesce(1).mapPartitions(f)``: one call over all elements, as in Flink.
* ``combinable`` is dropped: Flink's Python API never called ``combine()`` either.
"""

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.reduce_group", "UnsortedGrouping.reduce_group"],
    summary="reduce_group(f) -> groupByKey().values().flatMap(f) / coalesce(1).mapPartitions(f)",
    examples=[
        Example(
            program(
                "\n\nclass Adder(GroupReduceFunction):\n"
                "    def reduce(self, iterator, collector):\n"
                "        count, word = iterator.next()\n"
                "        count += sum([x[0] for x in iterator])\n"
                "        collector.collect((count, word))\n\n\n"
                "counts = env.from_elements((1, 'a')).group_by(1).reduce_group(Adder(), combinable=True)\n",
                imports="from flink.functions.GroupReduceFunction import GroupReduceFunction\n",
            ),
            spark_program(
                "\n\nclass Adder:\n"
                "    def reduce(self, iterator):\n"
                "        iterator = iter(iterator)\n"
                "        count, word = next(iterator)\n"
                "        count += sum([x[0] for x in iterator])\n"
                "        yield (count, word)\n\n\n"
                "counts = (\n"
                '    env.sparkContext.parallelize([(1, "a")])\n'
                "    .keyBy(lambda t: t[1])\n"
                "    .groupByKey()\n"
                "    .values()\n"
                "    .flatMap(Adder().reduce)\n"
                ")\n"
            ),
        ),
        Example(
            program("total = env.from_elements(1, 2).reduce_group(lambda it, c: [sum(it)])\n"),
            spark_program(
                "total = (\n    env.sparkContext.parallelize([1, 2]).coalesce(1).mapPartitions(lambda it: [sum(it)])\n)\n"
            ),
        ),
    ],
    noop=["class Cache:\n    def reduce_group(self, f, combinable=False):\n        return f\n\n\nCache().reduce_group(len, combinable=True)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    fn = ctx.function(seg, "reduce_group")
    if fn is None:
        return ctx.todo_left()
    if ctx.site.receiver_type == "UnsortedGrouping":
        return ctx.expr("{g}.groupByKey().values().flatMap({fn})", g=ctx.site.receiver, fn=fn)
    return ctx.expr("{ds}.coalesce(1).mapPartitions({fn})", ds=ctx.site.receiver, fn=fn)
