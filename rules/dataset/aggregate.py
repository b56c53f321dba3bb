"""``aggregate(Sum|Min|Max, field)`` [``.and_agg(...)``], ``sum``/``min``/``max``, grouped or not.

Flink's Python ``AggregationFunction`` (``flink/functions/Aggregation.py``) is a group-reduce: the
result is ``tuple(list(first))`` of the group's first element with each aggregated field
overwritten (in ``and_agg`` order: the last aggregation on a field wins); ``Sum`` starts at ``0``
and does ``agg += value``, ``Min``/``Max`` keep the value seen first and replace it on a strict
``value < agg`` / ``value > agg``. That fold is written with Spark's own operators:

* ``mapValues`` turns each record into its accumulator (a tuple, each summed field ``0 + value``:
  ``True`` sums to ``1`` and ``-0.0`` to ``0.0`` as in Flink, strings fail as in Flink);
* ``reduceByKey`` merges two accumulators field by field: ``a + b`` for a sum, Python's
  ``min(a, b)``/``max(a, b)`` (which return ``a`` unless ``b`` is strictly smaller/larger, as
  Flink's loop does, NaN included), every other field taken from ``a``.

Grouped (``keyBy(k)``), the other fields come from the first record of the group as Spark
combines it; Flink's came from the first record of its sorted group, whose order inside a group is
undefined too (the grouped aggregations of a real job cover the fields that differ, or take any).
Whole data set: ``coalesce(1)`` first, so the fold runs once in input order, as Flink's did at
parallelism 1 (the same first record, float sums rounded alike). Differences left, all on input
Flink fails on: an empty data set (Flink's ungrouped aggregate fails, Spark gives no record), a
``None`` in a min/max field before any value (Flink skips it, Spark fails), an earlier aggregation
on the same field that would fail (only the last one on a field is computed).

On a grouped data set the program model lowers to a DataFrame (``rules/dataset/_frames.py``:
integer fields, min/max of strings too, every field not aggregated a key field, so no field
comes from the group's first record): ``groupBy(keys).agg(F.sum/min/max(field))``, then a
``select`` restoring the field order. Spark's sum of integers is a BIGINT: NOTE F2S280 on a
sum of a BIGINT field (past 64 bits Spark's ANSI sum fails the job, Python's int goes on).
"""

import libcst as cst

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import frame_program, program, spark_program
from flink2spark.transpiler import api_model as A
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=[
        "DataSet.aggregate", "DataSet.sum", "DataSet.min", "DataSet.max",
        "UnsortedGrouping.aggregate", "UnsortedGrouping.sum", "UnsortedGrouping.min", "UnsortedGrouping.max",
    ],
    # exact; a BIGINT sum of a DataFrame carries NOTE F2S280 (past 64 bits Spark fails the job)
    codes=(M.DS_UNSUPPORTED, M.DS_FRAME_SUM),
    summary="aggregate/and_agg/sum/min/max -> keyBy(k).mapValues(to accumulator).reduceByKey(merge fields).values() (whole set: coalesce(1) first); on a grouped DataFrame: groupBy(keys).agg(F.sum/min/max) (native; NOTE F2S280 on a BIGINT sum)",
    examples=[
        Example(
            program(
                "sales = env.from_elements(('a', 3, 1.0))\n"
                "per_shop = sales.group_by(0).aggregate(Aggregation.Sum, 1).and_agg(Aggregation.Max, 2)\n"
                "overall = sales.sum(1)\n",
                imports="from flink.functions import Aggregation\n",
            ),
            spark_program(
                'sales = env.sparkContext.parallelize([("a", 3, 1.0)])\n'
                "per_shop = (\n"
                "    sales.keyBy(lambda t: t[0])\n"
                "    .mapValues(lambda t: (t[0], 0 + t[1], t[2], *t[3:]))\n"
                "    .reduceByKey(lambda a, b: (a[0], a[1] + b[1], max(a[2], b[2]), *a[3:]))\n"
                "    .values()\n"
                ")\n"
                "overall = (\n"
                "    sales.coalesce(1)\n"
                "    .keyBy(lambda _: None)\n"
                "    .mapValues(lambda t: (t[0], 0 + t[1], *t[2:]))\n"
                "    .reduceByKey(lambda a, b: (a[0], a[1] + b[1], *a[2:]))\n"
                "    .values()\n"
                ")\n",
            ),
        ),
        Example(
            program("lows = env.from_elements((1,)).min(0).and_agg(Aggregation.Max, 0)\n", imports="from flink.functions import Aggregation\n"),
            spark_program(
                "lows = (\n"
                "    env.sparkContext.parallelize([(1,)])\n"
                "    .coalesce(1)\n"
                "    .keyBy(lambda _: None)\n"
                "    .mapValues(tuple)\n"
                "    .reduceByKey(lambda a, b: (max(a[0], b[0]), *a[1:]))\n"
                "    .values()\n"
                ")\n",
            ),
        ),
        Example(  # on a DataFrame (rules/dataset/_frames.py): every other field a key, groupBy().agg
            program(
                "env.from_elements(('a', 3), ('a', 5)).group_by(0).aggregate(Aggregation.Max, 1).output()\n",
                imports='from flink.functions import Aggregation\n',
            ),
            frame_program(
                'env.createDataFrame([("a", 3), ("a", 5)], "f0 STRING, f1 INT").groupBy("f0").agg(\n'
                '    F.max("f1").alias("f1")\n'
                ').show(2147483647, truncate=False)\n'
            ),
        ),
    ],
    noop=["import numpy as np\n\na = np.array([1, 2])\ntotal = a.sum(0) + a.max(0)\n"],
)


def _aggregation(ctx, seg):
    """(aggregation name, field index) of one call; None once a TODO was left."""
    if seg.method in ("sum", "min", "max"):
        name, field = seg.method, ctx.arg(seg, 0, "field")
        if field is None:
            ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}() without a field", seg.original)
            return None
    else:
        agg, field = ctx.arg(seg, 0, "aggregation"), ctx.arg(seg, 1, "field")
        if agg is None or field is None:
            ctx.todo(M.DS_UNSUPPORTED, "aggregate() needs an aggregation and a field", seg.original)
            return None
        name = A.AGGREGATIONS.get(ctx.qualified(agg[0]) or "")
        if name is None:
            ctx.todo(M.DS_UNSUPPORTED, "aggregation must be Aggregation.Sum, Min or Max", seg.original)
            return None
    if not isinstance(field[1], cst.Integer):
        ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}(): the field is not a literal index; write the reduceByKey merge by hand", seg.original)
        return None
    return name, field[1].evaluated_value


def _record(var, fields, value):
    """Tuple text of ``var`` with ``value(field)`` at each aggregated field, the rest as they are."""
    parts, pos = [], 0
    for field in sorted(fields):
        parts += [f"{var}[{i}]" for i in range(pos, field)] + [value(field)]
        pos = field + 1
    return "(" + ", ".join(parts + [f"*{var}[{pos}:]"]) + ")"


_MERGE = {"sum": "a[{f}] + b[{f}]", "min": "min(a[{f}], b[{f}])", "max": "max(a[{f}], b[{f}])"}


@rule.converter
def convert(ctx):
    site = ctx.site
    grouping = _frames.receiver_frame(ctx)
    if grouping is not None:  # groupBy(keys).agg(...) (rules/dataset/_frames.py)
        return _frames.aggregated(ctx, grouping)
    fields = {}  # field -> its last aggregation (an earlier one on the field is overwritten)
    for seg in site.segments:
        found = _aggregation(ctx, seg)
        if found is None:
            return ctx.todo_left()
        fields[found[1]] = found[0]
    sums = [f for f, name in fields.items() if name == "sum"]
    init = "tuple"
    if sums:
        init = "lambda t: " + _record("t", fields, lambda f: f"0 + t[{f}]" if f in sums else f"t[{f}]")
    merge = "lambda a, b: " + _record("a", fields, lambda f: _MERGE[fields[f]].format(f=f))
    fold = ".mapValues({init}).reduceByKey({merge}).values()"
    if site.receiver_type != A.UNSORTED:
        return ctx.expr("{ds}.coalesce(1).keyBy(lambda _: None)" + fold, ds=site.receiver, init=init, merge=merge)
    return ctx.expr("{g}" + fold, g=site.receiver, init=init, merge=merge)  # a grouping is keyBy pairs
