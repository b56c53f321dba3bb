"""``execute_and_collect([job_name][, limit])`` -> ``f2s.execute_and_collect(rdd, type_info[, limit])``.

Flink runs the job and returns a closeable iterator over the elements, decoded with the
stream's type (``Types.ROW`` -> ``Row`` with fields ``f0, f1...``, ``ROW_NAMED`` -> named
``Row``, ``TUPLE`` -> tuple); with ``limit`` a list of the first ``limit`` elements. The shim
collects the RDD and gives the same objects, as an iterator that also works in a ``with``
block. The job name is dropped.

On a DataFrame (the program model's frame form, ``_frames.collect_sink``) read where the call
stands (a ``with`` item, a ``for``'s iterable, the argument of ``list()``/``sorted()``...):
``df.toLocalIterator()``, under ``contextlib.closing`` as a ``with`` item (a generator closes
as Flink's iterator does), ``df.take(limit)`` with a limit. Spark's ``Row`` of the frame's
columns is the named ``Row`` Flink decodes a ROW type to; tuples for a TUPLE type, the values
for a basic type.
"""

import libcst as cst

from flink2spark.rules.pyflink._common import as_stream, container_notes, program, spark_program, type_expression, unsupported_reason, unsupported_types
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.execute_and_collect"],
    summary="on a DataFrame iterated where it stands: execute_and_collect() -> df.toLocalIterator() (contextlib.closing in a with; take(limit) with a limit; tuples / values for TUPLE / basic types); else f2s.execute_and_collect(rdd, type_info) (closeable iterator of Flink's objects)",
    codes=(M.PF_PRINT_TYPE, M.PF_UNSUPPORTED, M.PF_MAP_ORDER, M.PF_ARRAY_PRINT),
    examples=[
        Example(  # a DataFrame (the program model's frame form): Spark's Rows are Flink's named Rows
            program(
                "rows = env.from_collection([('a', 1)], Types.ROW_NAMED(['k', 'v'], [Types.STRING(), Types.INT()]))\n"
                "with rows.execute_and_collect('job') as results:\n"
                "    for row in results:\n"
                "        print(row.k)\n"
                "pairs = env.from_collection([('a', 1)], Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "first = pairs.execute_and_collect(limit=1)\n"
                "words = env.from_collection(['b', 'a'], Types.STRING())\n"
                "print(sorted(words.execute_and_collect()))\n",
                imports="from pyflink.common import Types\n",
            ),
            "import contextlib\n"
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'rows = env.createDataFrame([("a", 1)], "k STRING, v INT")\n'
            "with contextlib.closing(rows.toLocalIterator()) as results:\n"
            "    for row in results:\n"
            "        print(row.k)\n"
            'pairs = env.createDataFrame([("a", 1)], "f0 STRING, f1 INT")\n'
            "first = [tuple(r) for r in pairs.take(1)]\n"
            'words = env.createDataFrame(["b", "a"], "string")\n'
            "print(sorted(r[0] for r in words.toLocalIterator()))\n",
        ),
        Example(  # an iterator kept in a variable, a stream with no type: the shim on RDDs
            program(
                "rows = env.from_collection([('a', 1)], Types.ROW_NAMED(['k', 'v'], [Types.STRING(), Types.INT()]))\n"
                "results = rows.execute_and_collect('job')\n"
                "for row in results:\n"
                "    print(row.k)\n"
                "first = env.from_collection([1, 2]).execute_and_collect(limit=1)\n",
                imports="from pyflink.common import Types\n",
            ),
            spark_program(
                "rows = env.sparkContext.parallelize(\n"
                "    f2s.typed(\n"
                '        [("a", 1)],\n'
                '        f2s.Types.ROW_NAMED(["k", "v"], [f2s.Types.STRING(), f2s.Types.INT()]),\n'
                "    )\n"
                ")\n"
                "results = f2s.execute_and_collect(\n"
                '    rows, f2s.Types.ROW_NAMED(["k", "v"], [f2s.Types.STRING(), f2s.Types.INT()])\n'
                ")\n"
                "for row in results:\n"
                "    print(row.k)\n"
                'first = [r[0] for r in env.createDataFrame([1, 2], "bigint").take(1)]\n',
                shim=True,
                rdd='`.execute_and_collect()` at line 6 has no DataFrame form',
            ),
        ),
    ],
    noop=["class Job:\n    def execute_and_collect(self, name=None):\n        return []\n\n\nJob().execute_and_collect('x')\n"],
)


def collected(ctx, seg):
    """A frame's ``execute_and_collect`` (``_frames.collect_sink``): ``df.take(limit)`` with a
    limit, else ``df.toLocalIterator()`` (``contextlib.closing(...)`` of it as a ``with`` item);
    tuples for a TUPLE type, the values for a basic type."""
    from flink2spark.transpiler import imports as I

    kind = facts(ctx.resolver, seg.original.func.value).frame.kind  # type: ignore[attr-defined]
    limit = ctx.arg(seg, 1, "limit")
    rows = ctx.expr("{df}.take({n})", df=ctx.site.receiver, n=limit[1]) if limit is not None else ctx.expr("{df}.toLocalIterator()", df=ctx.site.receiver)
    if kind != "row":
        record = "tuple(r)" if kind == "tuple" else "r[0]"
        rows = ctx.expr(("[%s for r in {rows}]" if limit is not None else "(%s for r in {rows})") % record, rows=rows)
    if limit is None and kind != "row" and isinstance(ctx.resolver.parent(seg.original), cst.Arg):
        rows = rows.with_changes(lpar=[], rpar=[])  # the sole argument of list()/sorted()...
    if limit is None and isinstance(ctx.resolver.parent(seg.original), cst.WithItem):
        I.need(ctx.conv.codemod, "contextlib")
        rows = ctx.expr("contextlib.closing({rows})", rows=rows)
    return rows


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if facts(ctx.resolver, seg.original.func.value).frame is not None:  # type: ignore[attr-defined]
        return collected(ctx, seg)
    if facts(ctx.resolver, seg.original.func.value).micro_batches:  # type: ignore[attr-defined]
        return ctx.todo(
            M.PF_UNSUPPORTED,
            "execute_and_collect() of an unbounded stream: collect its micro-batches by hand"
            " (f2s_stream.foreach_batch, or writeStream.format('memory') and a query on its table)",
        )
    stream = as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type)
    if facts(ctx.resolver, seg.original.func.value).timestamped:  # type: ignore[attr-defined]
        stream = ctx.expr("{s}.values()", s=stream)  # (timestamp, value) pairs: the values
    t = facts(ctx.resolver, seg.original.func.value).element_type  # type: ignore[attr-defined]
    unsupported = unsupported_types(ctx.resolver, t) if isinstance(t, cst.BaseExpression) else []
    if unsupported:
        return ctx.todo(M.PF_UNSUPPORTED, f"execute_and_collect() of Types.{unsupported[0]}() values: {unsupported_reason(unsupported[0])}")
    container_notes(ctx, t, printed=False)
    known, type_info = type_expression(ctx, t, seg.original)
    if not known:
        ctx.note(M.PF_PRINT_TYPE, "execute_and_collect(): the stream's type could not be followed; elements come back as they are")
    args = [cst.Arg(stream)]
    if type_info is not None:
        args.append(cst.Arg(type_info))
    limit = ctx.arg(seg, 1, "limit")
    if limit is not None:
        args.append(cst.Arg(limit[1], keyword=cst.Name("limit")))
    return cst.Call(func=ctx.shim("execute_and_collect"), args=args)
