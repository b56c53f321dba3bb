"""``reduce_group(f, combinable=...)`` on a DataSet or a grouping.

* Grouped: ``groupByKey().values().flatMap(f)``: ``f`` gets each group's values (Flink gave an
  iterator: rewritten ``GroupReduceFunction`` methods call ``iter()`` where they use ``next``).
* Whole DataSet: ``coalesce(1).mapPartitions(f)``: one call over all elements, as in Flink.
* ``combinable`` is dropped: Flink's Python API never called ``combine()`` either.
* Grouped, ``combinable=True``, with a function class whose ``reduce`` is the word-count form
  (``a, b = iterator.next()``; ``b += sum([x[1] for x in iterator])``;
  ``collector.collect((a, b))``: the first record with one field replaced by the sum of that
  field over the group, every other field a key field) -> ``reduceByKey(lambda a, b: (a[0],
  a[1] + b[1])).values()``: Spark adds pairwise and combines before the shuffle (the
  declared combinability), where ``groupByKey`` ships every record. NOTE F2S273: the same
  sums for integers; a float sum may differ in its last digits (another order of additions);
  a group of one record is not passed through the function (Flink's ``first + sum([])``:
  ``True`` stays ``True`` here, Flink gave ``1``; other values than numbers: ``+`` may join
  what Python's ``sum()`` refused).

On a grouped data set the program model lowers to a DataFrame (``rules/dataset/_frames.py``:
integer fields, min/max of strings too, every field not aggregated a key field, so no field
comes from the group's first record): ``groupBy(keys).agg(F.sum/min/max(field))``, then a
``select`` restoring the field order. Spark's sum of integers is a BIGINT: NOTE F2S280 on a
sum of a BIGINT field (past 64 bits Spark's ANSI sum fails the job, Python's int goes on).
"""

import libcst as cst

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import frame_program, program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

_ADDER = (
    "\n\nclass Adder(GroupReduceFunction):\n"
    "    def reduce(self, iterator, collector):\n"
    "        word, count = iterator.next()\n"
    "        count += sum([x[1] for x in iterator])\n"
    "        collector.collect((word, count))\n\n\n"
)
_SUM_NOTE = (
    "reduce_group(combinable=True) summing field {field} per key as reduceByKey (pairwise, combined before the shuffle):"
    " integer sums are the same; float sums may differ in the last digits, and a group of one record skips the function"
)

rule = Rule(
    __name__,
    matches=["DataSet.reduce_group", "UnsortedGrouping.reduce_group"],
    summary="reduce_group(f) -> groupByKey().values().flatMap(f) / coalesce(1).mapPartitions(f); combinable sum: reduceByKey; on a grouped DataFrame: groupBy(keys).agg(F.sum/min/max) (native; NOTE F2S280 on a BIGINT sum)",
    exact=False,  # the combinable sum (NOTE F2S273), a BIGINT sum (NOTE F2S280); the groupByKey form is exact
    codes=(M.DS_COMBINED_SUM, M.DS_FRAME_SUM),
    examples=[
        Example(  # combinable, the first record plus the sum of a field: reduceByKey
            program(
                _ADDER + "counts = env.from_elements(('a', 1)).group_by(0).reduce_group(Adder(), combinable=True)\n",
                imports="from flink.functions.GroupReduceFunction import GroupReduceFunction\n",
            ),
            spark_program(
                "\n\n"  # Adder: read by nothing once its reduce_group is reduceByKey (transpiler/unread.py)
                "# NOTE(flink2spark): F2S273 " + _SUM_NOTE.format(field=1) + "\n"
                "counts = (\n"
                '    env.sparkContext.parallelize([("a", 1)])\n'
                "    .keyBy(lambda t: t[0])\n"
                "    .reduceByKey(lambda a, b: (a[0], a[1] + b[1]))\n"
                "    .values()\n"
                ")\n"
            ),
        ),
        Example(
            program(
                "\n\nclass Adder(GroupReduceFunction):\n"
                "    def reduce(self, iterator, collector):\n"
                "        count, word = iterator.next()\n"
                "        count += sum([x[0] for x in iterator])\n"
                "        collector.collect((count, word))\n\n\n"
                "counts = env.from_elements((1, 'a')).group_by(1).reduce_group(Adder())\n",
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
        Example(  # combinable, but the result is no first-record-plus-sum: the whole group to the function
            program(
                "\n\nclass Counter(GroupReduceFunction):\n"
                "    def reduce(self, iterator, collector):\n"
                "        word, count = iterator.next()\n"
                "        count += len([x[1] for x in iterator])\n"
                "        collector.collect((word, count))\n\n\n"
                "counts = env.from_elements(('a', 1)).group_by(0).reduce_group(Counter(), combinable=True)\n",
                imports="from flink.functions.GroupReduceFunction import GroupReduceFunction\n",
            ),
            spark_program(
                "\n\nclass Counter:\n"
                "    def reduce(self, iterator):\n"
                "        iterator = iter(iterator)\n"
                "        word, count = next(iterator)\n"
                "        count += len([x[1] for x in iterator])\n"
                "        yield (word, count)\n\n\n"
                "counts = (\n"
                '    env.sparkContext.parallelize([("a", 1)])\n'
                "    .keyBy(lambda t: t[0])\n"
                "    .groupByKey()\n"
                "    .values()\n"
                "    .flatMap(Counter().reduce)\n"
                ")\n"
            ),
        ),
        Example(
            program("total = env.from_elements(1, 2).reduce_group(lambda it, c: [sum(it)])\n"),
            spark_program(
                "total = (\n    env.sparkContext.parallelize([1, 2]).coalesce(1).mapPartitions(lambda it: [sum(it)])\n)\n"
            ),
        ),
        Example(  # on a DataFrame (rules/dataset/_frames.py): the first record plus the sum of a field, groupBy().agg
            program(
                '\n'
                '\n'
                'class Adder(GroupReduceFunction):\n'
                '    def reduce(self, iterator, collector):\n'
                '        count, word = iterator.next()\n'
                '        count += sum([x[0] for x in iterator])\n'
                '        collector.collect((count, word))\n'
                '\n'
                '\n'
                "env.from_elements((1, 'a'), (2, 'a')).group_by(1).reduce_group(Adder()).output()\n",
                imports='from flink.functions.GroupReduceFunction import GroupReduceFunction\n',
            ),
            frame_program(
                '\n'
                '\n'  # Adder: read by nothing once its reduce_group is an aggregation (transpiler/unread.py)
                'env.createDataFrame([(1, "a"), (2, "a")], "f0 INT, f1 STRING").groupBy("f1").agg(\n'
                '    F.sum("f0").alias("f0")\n'
                ').select("f0", "f1").show(2147483647, truncate=False)\n'
            ),
        ),
    ],
    noop=["class Cache:\n    def reduce_group(self, f, combinable=False):\n        return f\n\n\nCache().reduce_group(len, combinable=True)\n"],
)


def combined_sum(ctx, call: cst.Call):
    """(key fields, summed field) when the grouped ``reduce_group(f, combinable=True)`` (original
    call) is the word-count form (module docstring), else None."""
    combinable = ctx.arg(ctx.site.head, 1, "combinable")
    if combinable is None or not (isinstance(combinable[0], cst.Name) and combinable[0].value == "True"):
        return None
    return first_plus_sum(ctx.resolver, call)


def first_plus_sum(resolver, call: cst.Call):
    """(record arity, summed field) when the grouped ``reduce_group(f)`` (original call) runs a
    function class whose ``reduce`` is the first record with one field replaced by the sum of
    that field over the group, every other field a key field of the ``group_by`` before it."""
    from flink2spark.rules.pyflink._common import call_arg

    group_by = call.func.value  # type: ignore[attr-defined]
    if not (isinstance(group_by, cst.Call) and isinstance(group_by.func, cst.Attribute) and group_by.func.attr.value == "group_by"):
        return None
    keys = [int(a.value.value, 0) if a.keyword is None and not a.star and isinstance(a.value, cst.Integer) else None for a in group_by.args]
    if not keys or any(k is None for k in keys):
        return None
    target = call_arg(call, 0, "operator")
    cls = resolver.local_def(target.func) if isinstance(target, cst.Call) and not target.args else None
    if not isinstance(cls, cst.ClassDef):
        return None
    methods = [s for s in cls.body.body if not _docstring(s)]
    if len(methods) != 1 or not isinstance(methods[0], cst.FunctionDef) or methods[0].name.value != "reduce":
        return None
    summed = _first_plus_sum(methods[0])
    if summed is None or resolver.referents(summed[2]):  # sum: the builtin, not a name of the module
        return None
    names, field, _ = summed
    if field in keys or sorted(set(keys)) != [i for i in range(len(names)) if i != field]:
        return None  # every field but the summed one is a key field
    return len(names), field


def _docstring(statement) -> bool:
    return (isinstance(statement, cst.SimpleStatementLine) and isinstance(statement.body[0], cst.Expr)
            and isinstance(statement.body[0].value, cst.SimpleString))


def _first_plus_sum(fn: cst.FunctionDef):
    """(field names, summed field index, the ``sum`` name) of ``def reduce(self, it, out): n0, n1 = it.next();
    n1 += sum([x[1] for x in it]); out.collect((n0, n1))``, else None."""
    params = fn.params
    if len(params.params) != 3 or params.star_arg not in (None, cst.MaybeSentinel.DEFAULT) or params.kwonly_params or params.star_kwarg:
        return None
    it, out = params.params[1].name.value, params.params[2].name.value
    body = [s for s in fn.body.body if not _docstring(s)] if isinstance(fn.body, cst.IndentedBlock) else []
    if len(body) != 3 or not all(isinstance(s, cst.SimpleStatementLine) and len(s.body) == 1 for s in body):
        return None
    first, add, collect = (s.body[0] for s in body)
    if not (isinstance(first, cst.Assign) and len(first.targets) == 1 and isinstance(first.targets[0].target, cst.Tuple)):
        return None
    names = [e.value.value if isinstance(e, cst.Element) and isinstance(e.value, cst.Name) else None for e in first.targets[0].target.elements]
    if None in names or len(set(names)) != len(names) or it in names or out in names or not _next_of(first.value, it):
        return None
    if not (isinstance(add, cst.AugAssign) and isinstance(add.operator, cst.AddAssign) and isinstance(add.target, cst.Name)
            and add.target.value in names):
        return None
    field = names.index(add.target.value)
    if not _sum_of_field(add.value, it, field):
        return None
    sum_name = add.value.func  # type: ignore[attr-defined]
    if not (isinstance(collect, cst.Expr) and isinstance(collect.value, cst.Call) and len(collect.value.args) == 1
            and isinstance(collect.value.func, cst.Attribute) and collect.value.func.attr.value == "collect"
            and isinstance(collect.value.func.value, cst.Name) and collect.value.func.value.value == out):
        return None
    result = collect.value.args[0].value
    if not (isinstance(result, cst.Tuple)
            and [e.value.value if isinstance(e.value, cst.Name) else None for e in result.elements] == names):
        return None
    return names, field, sum_name


def _next_of(node, it: str) -> bool:
    """``it.next()`` or ``next(it)``."""
    if not isinstance(node, cst.Call):
        return False
    if isinstance(node.func, cst.Attribute) and node.func.attr.value == "next" and not node.args:
        return isinstance(node.func.value, cst.Name) and node.func.value.value == it
    return (isinstance(node.func, cst.Name) and node.func.value == "next" and len(node.args) == 1
            and isinstance(node.args[0].value, cst.Name) and node.args[0].value.value == it)


def _sum_of_field(node, it: str, field: int) -> bool:
    """``sum([x[field] for x in it])`` or ``sum(x[field] for x in it)`` (the builtin)."""
    if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name) and node.func.value == "sum" and len(node.args) == 1):
        return False
    comp = node.args[0].value
    if not isinstance(comp, (cst.ListComp, cst.GeneratorExp)):
        return False
    loop = comp.for_in
    if loop.inner_for_in is not None or loop.ifs or loop.asynchronous is not None:
        return False
    if not (isinstance(loop.target, cst.Name) and isinstance(loop.iter, cst.Name) and loop.iter.value == it):
        return False
    element = comp.elt
    if not (isinstance(element, cst.Subscript) and isinstance(element.value, cst.Name) and element.value.value == loop.target.value
            and len(element.slice) == 1 and isinstance(element.slice[0].slice, cst.Index)):
        return False
    index = element.slice[0].slice.value
    return isinstance(index, cst.Integer) and int(index.value) == field


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    grouping = _frames.receiver_frame(ctx)
    if grouping is not None:  # groupBy(keys).agg(...) (rules/dataset/_frames.py)
        return _frames.aggregated(ctx, grouping)
    fn = ctx.function(seg, "reduce_group")
    if fn is None:
        return ctx.todo_left()
    if ctx.site.receiver_type == "UnsortedGrouping":
        summed = combined_sum(ctx, seg.original)
        if summed is not None:
            arity, field = summed
            record = ", ".join(f"a[{i}] + b[{i}]" if i == field else f"a[{i}]" for i in range(arity))
            ctx.note(M.DS_COMBINED_SUM, _SUM_NOTE.format(field=field))
            return ctx.expr("{g}.reduceByKey(lambda a, b: (%s)).values()" % record, g=ctx.site.receiver)
        return ctx.expr("{g}.groupByKey().values().flatMap({fn})", g=ctx.site.receiver, fn=fn)
    return ctx.expr("{ds}.coalesce(1).mapPartitions({fn})", ds=ctx.site.receiver, fn=fn)
