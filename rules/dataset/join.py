"""``join(other).where(k1).equal_to(k2)`` [``.using(f)`` | ``.project_first/second(...)``].

* Keys as in ``group_by``; the pair RDDs are joined with ``RDD.join``.
* Without ``using`` Flink emits ``(left, right)``: ``.values()`` gives exactly that.
* ``using(f)`` maps each pair through ``f(left, right)``.
* ``project_first(i..)``/``project_second(j..)`` build one flat tuple in call order (Flink's
  Python projector; a call without indexes adds nothing).
* ``join_with_huge``/``join_with_tiny`` are optimizer hints with the same result.
"""

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.join", "DataSet.join_with_huge", "DataSet.join_with_tiny"],
    summary="join().where().equal_to()[.using()|.project_*()] -> keyBy + RDD.join + values()/map",
    codes=(M.DS_SPLIT_CHAIN,),
    examples=[
        Example(
            program(
                "a = env.from_elements((1, 'x'))\nb = env.from_elements(('y', 1))\n"
                "pairs = a.join(b).where(0).equal_to(1)\n"
                "named = a.join_with_tiny(b).where(0).equal_to(1).using(lambda l, r: (l[1], r[0]))\n"
                "flat = a.join(b).where(0).equal_to(1).project_first(1).project_second(0)\n"
            ),
            spark_program(
                'a = env.sparkContext.parallelize([(1, "x")])\nb = env.sparkContext.parallelize([("y", 1)])\n'
                "pairs = a.keyBy(lambda t: t[0]).join(b.keyBy(lambda t: t[1])).values()\n"
                "named = (\n    a.keyBy(lambda t: t[0])\n    .join(b.keyBy(lambda t: t[1]))\n    .values()\n"
                "    .map(lambda pair: (pair[0][1], pair[1][0]))\n)\n"
                "flat = (\n    a.keyBy(lambda t: t[0])\n    .join(b.keyBy(lambda t: t[1]))\n    .values()\n"
                "    .map(lambda pair: (pair[0][1], pair[1][0]))\n)\n"
            ),
        ),
        Example(
            program("a = env.from_elements(1)\nhalf = a.join(a)\n"),
            spark_program(
                "a = env.sparkContext.parallelize([1])\n"
                "# TODO(flink2spark): F2S103 join() must be followed by .where(...).equal_to(...) in the same expression\n"
                "half = a.join(a)\n"
            ),
        ),
    ],
    noop=["import os\n\npath = os.path.join('a', 'b')\nwords = ', '.join(['x'])\n"],
)


def projection(ctx, segments, pair="pair"):
    """``lambda pair: (pair[0][i], pair[1][j], ...)`` for project_first/project_second calls."""
    parts = []
    for seg in segments:
        side = 0 if seg.method == "project_first" else 1
        if not seg.args:
            ctx.note(
                M.DS_PROJECTION,
                f"{seg.method}() without indexes adds nothing, as in Flink 1.x's Python API"
                " (older versions projected the whole element)",
                seg.original,
            )
        for arg in seg.args:
            if arg.keyword is not None or arg.star:
                ctx.todo(M.DS_UNSUPPORTED, f"{seg.method}(): only field indexes are supported", seg.original)
                return None
            index = ctx.expr("{i}", i=arg.value)
            parts.append(ctx.expr("%s[%d][{i}]" % (pair, side), i=index))
    if not parts:
        return ctx.expr("lambda %s: ()" % pair)
    import libcst as cst

    return cst.Lambda(
        params=cst.Parameters([cst.Param(cst.Name(pair))]),
        body=cst.Tuple([cst.Element(p) for p in parts]),
    )


@rule.converter
def convert(ctx):
    site = ctx.site
    where, equal_to = site.segment("where"), site.segment("equal_to")
    if where is None or equal_to is None:
        return ctx.todo(M.DS_SPLIT_CHAIN, f"{site.head.method}() must be followed by .where(...).equal_to(...) in the same expression")
    other = ctx.arg(site.head, 0)
    if other is None:
        return ctx.todo(M.DS_UNSUPPORTED, f"{site.head.method}() without the other data set")
    k1, k2 = ctx.key(where), ctx.key(equal_to)
    if k1 is None or k2 is None:
        return ctx.todo_left()
    joined = ctx.expr("{a}.keyBy({k1}).join({b}.keyBy({k2})).values()", a=site.receiver, b=other[1], k1=k1, k2=k2)
    using = site.segment("using")
    if using is not None:
        fn = ctx.function(using, "join", packed=True)
        return ctx.todo_left() if fn is None else ctx.expr("{j}.map({fn})", j=joined, fn=fn)
    projections = [s for s in site.segments if s.method.startswith("project_")]
    if projections:
        fn = projection(ctx, projections)
        return ctx.todo_left() if fn is None else ctx.expr("{j}.map({fn})", j=joined, fn=fn)
    return joined
