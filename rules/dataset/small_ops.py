"""Operators with a direct RDD counterpart.

* ``union(o)`` -> ``union(o)``; ``distinct()`` -> ``distinct()``; ``distinct(keys)`` keeps one
  element per key (``reduceByKey(lambda a, b: a)``; Flink also keeps an arbitrary one).
* ``first(n)`` -> the first n in input order (``zipWithIndex``), lazy like Flink's.
* ``zip_with_index()`` -> ``zipWithIndex()`` with Flink's ``(index, value)`` order.
* ``project(*fields)`` -> a tuple of those fields (always a tuple, as in Flink).
* ``name(n)`` -> ``setName(n)``; ``partition_by_hash``/``rebalance`` -> dropped (they only move
  data between partitions, results are unchanged); ``set_parallelism`` -> dropped.
"""

import libcst as cst

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=[
        "DataSet.union", "DataSet.distinct", "DataSet.first", "UnsortedGrouping.first", "DataSet.zip_with_index",
        "DataSet.project", "DataSet.name", "DataSet.partition_by_hash", "DataSet.rebalance", "DataSet.set_parallelism",
    ],
    summary="union/distinct/first/zip_with_index/project/name/partition_by_hash/rebalance -> RDD equivalents",
    codes=(M.DS_PARALLELISM,),
    examples=[
        Example(
            program(
                "a = env.from_elements((1, 'x'), (2, 'y'))\n"
                "b = a.union(a).distinct().first(2).zip_with_index()\n"
                "c = a.distinct(0).project(1).name('names').rebalance().partition_by_hash(0)\n"
                "d = a.group_by(0).first(1)\n"
            ),
            spark_program(
                'a = env.sparkContext.parallelize([(1, "x"), (2, "y")])\n'
                "b = (\n    a.union(a)\n    .distinct()\n    .zipWithIndex()\n    .filter(lambda t: t[1] < 2)\n    .keys()\n"
                "    .zipWithIndex()\n    .map(lambda t: (t[1], t[0]))\n)\n"
                "c = (\n    a.keyBy(lambda t: t[0])\n    .reduceByKey(lambda a, b: a)\n    .values()\n"
                '    .map(lambda t: (t[1],))\n    .setName("names")\n)\n'
                "d = a.keyBy(lambda t: t[0]).groupByKey().values().flatMap(lambda group: list(group)[:1])\n"
            ),
        ),
    ],
    noop=["names = {'a'}.union({'b'})\nfirst = names.pop()\n"],
)


@rule.converter
def convert(ctx):
    site = ctx.site
    seg = site.head
    ds = site.receiver
    method = seg.method
    if method == "union":
        other = ctx.arg(seg, 0)
        return ctx.todo(M.DS_UNSUPPORTED, "union() without the other data set") if other is None else ctx.expr("{a}.union({b})", a=ds, b=other[1])
    if method == "distinct":
        if not seg.args:
            return ctx.expr("{a}.distinct()", a=ds)
        key = ctx.key(seg)
        return ctx.todo_left() if key is None else ctx.expr("{a}.keyBy({k}).reduceByKey(lambda a, b: a).values()", a=ds, k=key)
    if method == "first":
        n = ctx.arg(seg, 0, "count")
        if n is None:
            return ctx.todo(M.DS_UNSUPPORTED, "first() without a count")
        if site.receiver_type == "UnsortedGrouping":
            return ctx.expr("{g}.groupByKey().values().flatMap(lambda group: list(group)[:{n}])", g=ds, n=n[1])
        return ctx.expr("{a}.zipWithIndex().filter(lambda t: t[1] < {n}).keys()", a=ds, n=n[1])
    if method == "zip_with_index":
        return ctx.expr("{a}.zipWithIndex().map(lambda t: (t[1], t[0]))", a=ds)
    if method == "project":
        if not seg.args or any(a.star or a.keyword for a in seg.args):
            return ctx.todo(M.DS_UNSUPPORTED, "project() takes field indexes")
        fields = [ctx.expr("t[{f}]", f=a.value) for a in seg.args]
        return ctx.expr("{a}.map(lambda t: {tup})", a=ds, tup=cst.Tuple([cst.Element(f) for f in fields]))
    if method == "name":
        n = ctx.arg(seg, 0, "name")
        return ctx.todo(M.DS_UNSUPPORTED, "name() without a name") if n is None else ctx.expr("{a}.setName({n})", a=ds, n=n[1])
    if method in ("partition_by_hash", "rebalance"):
        return ds
    if method == "set_parallelism":
        n = ctx.arg(seg, 0)
        if n is None or ctx.int_literal(n[0]) != 1:
            ctx.note(M.DS_PARALLELISM, "operator parallelism dropped; Spark decides the number of tasks")
        return ds
    return ctx.todo(M.DS_UNSUPPORTED, f"{method}() has no conversion")  # a method of the matches above with no branch
