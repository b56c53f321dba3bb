"""``KeyedStream.sum/min/max/min_by/max_by(field)``: PyFlink's rolling aggregations.

They are ``reduce`` with PyFlink's own reduce functions (``KeyedStream._accumulate``), so they
follow the runtime mode like ``reduce`` (one result per element in STREAMING mode, per key in
BATCH mode), with Flink's exact semantics from ``f2s.Sum/Min/Max/MinBy/MaxBy``:

* ``sum``/``min``/``max`` replace only the field; the other fields stay those of the key's
  first element (``min`` of ``("north", "apples", 5)``, ``("north", "kiwis", 1)`` is
  ``("north", "apples", 1)``);
* ``min_by``/``max_by`` keep the whole element, the earlier one on ties;
* ``field`` is an index, or a field name on Rows; on a basic type only field 0.

On an unbounded (Kafka) stream: ``f2s_stream.rolling_reduce(keyed, f2s.Sum(field))``, the
per-key state in ``transformWithState`` (see ``reduce``).
"""

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.rules.pyflink.reduce import reduced, reducer
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import unconverted

SHIM = {"sum": "Sum", "min": "Min", "max": "Max", "min_by": "MinBy", "max_by": "MaxBy"}

rule = Rule(
    __name__,
    matches=[f"KeyedStream.{m}" for m in SHIM],
    summary="sum/min/max/min_by/max_by(field) -> f2s.rolling_reduce(keyed, f2s.Sum(field)) (final_reduce in BATCH; f2s_stream.rolling_reduce when unbounded)",
    codes=(M.PF_RUNTIME_MODE, M.PF_UNSUPPORTED, M.PF_UNBOUNDED_STATE, M.PF_ROLLING_STATE),
    examples=[
        Example(
            program(
                "by_store = env.from_collection([('north', 'apples', 5)]).key_by(lambda s: s[0])\n"
                "totals = by_store.sum(2)\n"
                "cheapest = by_store.min_by(position_to_min_by=2)\n"
            ),
            spark_program(
                'by_store = env.sparkContext.parallelize([("north", "apples", 5)]).keyBy(lambda s: s[0])\n'
                "totals = f2s.rolling_reduce(by_store, f2s.Sum(2))\n"
                "cheapest = f2s.rolling_reduce(by_store, f2s.MinBy(2))\n",
                shim=True,
            ),
        ),
    ],
    noop=["import numpy as np\n\na = np.array([1, 2])\ntotal = a.sum(0) + a.max(0)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if len(seg.args) > 1 or any(a.star for a in seg.args):
        return ctx.todo(M.PF_UNSUPPORTED, f"{seg.method}() takes one field")
    shim = reducer(ctx)
    if unconverted(shim):
        return shim
    field = seg.args[0].value if seg.args else ctx.expr("0")
    fn = ctx.expr("{agg}({field})", agg=ctx.shim(SHIM[seg.method]), field=field)
    return reduced(ctx, shim, fn)
