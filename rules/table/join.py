"""Joins and set operations of Tables -> the DataFrame's:

- ``join(right[, cond])``, ``left_outer_join``, ``right_outer_join``, ``full_outer_join`` ->
  ``join(right, cond, "inner"/"left"/"right"/"full")``; a ``join(right)`` with no condition
  followed by ``where(cond)`` is an inner join on ``cond`` in both engines (the ``where`` rule
  filters).
- ``union_all`` -> ``unionAll``... Flink's ``union``/``intersect``/``minus`` drop duplicates
  (SQL's UNION, INTERSECT, EXCEPT) -> ``union().distinct()``, ``intersect``, ``subtract``;
  ``intersect_all``/``minus_all`` -> ``intersectAll``/``exceptAll``. Both match columns by
  position.
"""

import libcst as cst

from flink2spark.rules.table._common import columns, program, spark_program, on_stream
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

_HOW = {"join": "inner", "left_outer_join": "left", "right_outer_join": "right", "full_outer_join": "full"}
_SET = {"union_all": "unionAll({o})", "union": "union({o}).distinct()", "intersect": "intersect({o})",
        "intersect_all": "intersectAll({o})", "minus": "subtract({o})", "minus_all": "exceptAll({o})"}

rule = Rule(
    __name__,
    matches=[f"Table.{m}" for m in (*_HOW, *_SET)],
    summary="join/left_outer_join/right_outer_join/full_outer_join, union/union_all/intersect/minus -> the DataFrame's",
    codes=(M.TB_EXPRESSION, M.TB_UNSUPPORTED),
    examples=[
        Example(
            program(
                "a = t_env.from_elements([(1, 'x')], ['id', 'name'])\n"
                "b = t_env.from_elements([(1, 2.5)], ['oid', 'price'])\n"
                "both = a.union_all(a)\n",
            ),
            spark_program(
                'a = t_env.createDataFrame([(1, "x")], ["id", "name"])\n'
                'b = t_env.createDataFrame([(1, 2.5)], ["oid", "price"])\n'
                "both = a.unionAll(a)\n",
            ),
        ),
    ],
    noop=['a = {1, 2}\nb = a.union({3})\nc = a.intersection(b)\n'],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    method = seg.method
    args = [a for a in seg.updated.args]
    if not args or args[0].keyword is not None:
        return ctx.todo(M.TB_UNSUPPORTED, f"{method}() without the other table")
    other = args[0].value
    model = tables(ctx.resolver)
    if method != "union_all" or model.bounded(seg.original.func.value) != model.bounded(seg.original.args[0].value):
        refused = on_stream(ctx, f"{method}()", "Flink keeps both inputs as state; Spark's stream joins need watermarks and "
                            "time bounds, its set operations on streams other than a union of two streams are refused")
        if refused is None and not model.bounded(seg.original.args[0].value):
            refused = ctx.todo(M.TB_UNSUPPORTED, f"{method}() of an unbounded table (it reads a Kafka table)")
        if refused is not None:
            return refused
    if method in _SET:
        if len(args) != 1:
            return ctx.todo(M.TB_UNSUPPORTED, f"{method}() with more than one argument")
        return ctx.expr("{r}." + _SET[method], r=ctx.site.receiver, o=other)
    how = _HOW[method]
    if len(args) == 1:
        if how != "inner":
            return ctx.todo(M.TB_UNSUPPORTED, f"{method}() without a join condition")
        parent = ctx.resolver.parent(ctx.outer)
        grand = ctx.resolver.parent(parent) if isinstance(parent, cst.Attribute) else None
        if not (isinstance(grand, cst.Call) and parent.attr.value in ("where", "filter")):
            return ctx.todo(M.TB_UNSUPPORTED, "join() with no condition and no where() after it (a cross join)")
        return ctx.expr("{r}.crossJoin({o})", r=ctx.site.receiver, o=other)
    left, right = model.schema(seg.original.func.value), model.schema(seg.original.args[0].value)
    cond = columns(ctx, [seg.original.args[1]], f"{method}()", {**left, **right} if left and right else None)
    if cond is None:
        return ctx.todo_left()
    return ctx.expr("{r}.join({o}, {c}, %r)" % how, r=ctx.site.receiver, o=other, c=cst.parse_expression(cond[0].code))
