"""``KeyedStream.sum/min/max/min_by/max_by(field)``: PyFlink's rolling aggregations.

They are ``reduce`` with PyFlink's own reduce functions (``KeyedStream._accumulate``), so they
follow the runtime mode like ``reduce`` (one result per element in STREAMING mode, per key in
BATCH mode), with Flink's exact semantics from ``f2s.Sum/Min/Max/MinBy/MaxBy``:

* ``sum``/``min``/``max`` replace only the field; the other fields stay those of the key's
  first element (``min`` of ``("north", "apples", 5)``, ``("north", "kiwis", 1)`` is
  ``("north", "apples", 1)``);
* ``min_by``/``max_by`` keep the whole element, the earlier one on ties;
* ``field`` is an index, or a field name on Rows; on a basic type only field 0.

On a DataFrame (the program model's frame form), in BATCH mode, ``sum/min/max(field)`` is
``groupBy(keys).agg(F.sum/min/max(field))`` when every other field is a key field (the first
element's fields are then the key's) and the field holds integers (``sum`` cast back to the
field's type: Flink's serializer and Spark's ANSI cast both fail out of range) or, for
min/max, strings (``_frames.aggregation``). Otherwise (a field kept from the key's first
element, ``min_by``/``max_by``: the whole element, the earlier on ties) the same ``groupBy``
over a source-order column (``_rolling.final``): ``F.min_by(field, seq)`` for the first
element's fields, ``F.min_by/max_by`` of the element's struct; NOTE F2S288: Flink sorts the
records by key first and does not promise a key's order, which the shim's ``final_reduce``
takes as the source order too.

On a DataFrame in STREAMING mode (rolling: one record per element), window functions over the
source order (``_rolling``): ``F.sum/min/max(field).over(Window.partitionBy(keys).orderBy(seq))``
and ``F.first`` over it for the other fields (the key's first element's); ``min_by``/``max_by``
the whole element of the least ``(field, order)`` so far (``F.min_by/max_by`` of a struct; the
earlier on ties, as PyFlink); NOTE F2S277 when
Flink's order of a key's records may not be the source order (parallelism > 1).

On an unbounded (Kafka) frame, sum/min/max(field): ``groupBy(keys).transformWithState()`` of a
StatefulProcessor class of the program (``_rolling.streamed``); on other unbounded streams:
``f2s_stream.rolling_reduce(keyed, f2s.Sum(field))``, the per-key state in
``transformWithState`` (see ``reduce``).
"""

from flink2spark.rules.pyflink._common import program, runtime_mode, spark_program
from flink2spark.rules.pyflink._streams import facts
from flink2spark.rules.pyflink._rolling import FINAL_NOTE, ORDER_NOTE, rolled
from flink2spark.rules.pyflink.reduce import grouped, reduced, reducer
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import unconverted

SHIM = {"sum": "Sum", "min": "Min", "max": "Max", "min_by": "MinBy", "max_by": "MaxBy"}

rule = Rule(
    __name__,
    matches=[f"KeyedStream.{m}" for m in SHIM],
    summary="BATCH on a DataFrame: sum/min/max(field) -> groupBy(keys).agg(F.sum/min/max) (the key's first element's other fields and min_by/max_by: F.min_by/max_by over the source order); STREAMING on a DataFrame: window functions over the source order (min_by/max_by too); else sum/min/max/min_by/max_by(field) -> f2s.rolling_reduce(keyed, f2s.Sum(field)) (final_reduce in BATCH; unbounded: groupBy().transformWithState() on a streaming DataFrame, else f2s_stream.rolling_reduce)",
    codes=(M.PF_RUNTIME_MODE, M.PF_UNSUPPORTED, M.PF_UNBOUNDED_STATE, M.PF_ROLLING_STATE, M.PF_ROLLING_ORDER, M.PF_FINAL_ORDER),
    examples=[
        Example(  # BATCH, on a DataFrame whose other fields are all keys: groupBy().agg()
            program(
                "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
                "sales = env.from_collection([('north', 5), ('north', 9)], Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "sales.key_by(lambda s: s[0]).max(1).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import RuntimeExecutionMode\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'sales = env.createDataFrame([("north", 5), ("north", 9)], "f0 STRING, f1 INT")\n'
            'sales.groupBy("f0").agg(F.max("f1").alias("f1")).show(2147483647, truncate=False)\n',
        ),
        Example(  # STREAMING (rolling) on a DataFrame: window functions over the source order; the
            # other fields are the key's first element's (F.first)
            program(
                "sales = env.from_collection([('north', 'kiwi', 5), ('north', 'fig', 9)],\n"
                "                            Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT()]))\n"
                "sales.key_by(lambda s: s[0]).max(2).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            "from pyspark.sql import SparkSession, Window, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "sales = env.createDataFrame(\n"
            '    [("north", "kiwi", 5), ("north", "fig", 9)], "f0 STRING, f1 STRING, f2 INT"\n'
            ")\n"
            'by_key = Window.partitionBy("f0").orderBy("seq")\n'
            'sales.withColumn("seq", F.monotonically_increasing_id()).select(\n'
            '    "f0", F.first("f1").over(by_key).alias("f1"), F.max("f2").over(by_key).alias("f2")\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # STREAMING min_by/max_by on a DataFrame: the element of the least (field, order) so far
            program(
                "sales = env.from_collection([('north', 'kiwi', 5), ('north', 'fig', 5)],\n"
                "                            Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT()]))\n"
                "sales.key_by(lambda s: s[0]).max_by(2).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            "from pyspark.sql import SparkSession, Window, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "sales = env.createDataFrame(\n"
            '    [("north", "kiwi", 5), ("north", "fig", 5)], "f0 STRING, f1 STRING, f2 INT"\n'
            ")\n"
            'sales.withColumn("seq", F.monotonically_increasing_id()).select(\n'
            '    F.max_by(F.struct("f0", "f1", "f2"), F.struct("f2", -F.col("seq")))\n'
            '    .over(Window.partitionBy("f0").orderBy("seq"))\n'
            '    .alias("element")\n'
            ').select("element.*").show(2147483647, truncate=False)\n',
        ),
        Example(  # ... where a filter before key_by runs in several subtasks: Flink's order per key may differ
            program(
                "env.set_parallelism(2)\n"
                "sales = env.from_collection([('north', 5), ('north', 9)], Types.TUPLE([Types.STRING(), Types.INT()]))\n"
                "sales.filter(lambda s: s[1] > 0).key_by(lambda s: s[0]).sum(1).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            "from pyspark.sql import SparkSession, Window, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'sales = env.createDataFrame([("north", 5), ("north", 9)], "f0 STRING, f1 INT")\n'
            "# NOTE(flink2spark): F2S277 " + ORDER_NOTE + "\n"
            'sales.where(F.col("f1") > 0).withColumn("seq", F.monotonically_increasing_id()).select(\n'
            '    "f0",\n'
            '    F.sum("f1").over(Window.partitionBy("f0").orderBy("seq")).cast("int").alias("f1"),\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # BATCH, a field that is neither key nor aggregated: the key's first element's, in the source order
            program(
                "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
                "sales = env.from_collection([('north', 'kiwi', 5)], Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT()]))\n"
                "sales.key_by(lambda s: s[0]).sum(2).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import RuntimeExecutionMode\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'sales = env.createDataFrame([("north", "kiwi", 5)], "f0 STRING, f1 STRING, f2 INT")\n'
            "# NOTE(flink2spark): F2S288 " + FINAL_NOTE + "\n"
            'sales.withColumn("seq", F.monotonically_increasing_id()).groupBy("f0").agg(\n'
            '    F.min_by("f1", "seq").alias("f1"), F.sum("f2").cast("int").alias("f2")\n'
            ").show(2147483647, truncate=False)\n",
        ),
        Example(  # BATCH min_by/max_by: the whole element of the least/largest field, the earlier on ties
            program(
                "env.set_runtime_mode(RuntimeExecutionMode.BATCH)\n"
                "sales = env.from_collection([('north', 'kiwi', 5)], Types.TUPLE([Types.STRING(), Types.STRING(), Types.INT()]))\n"
                "sales.key_by(lambda s: s[0]).min_by(2).print()\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import RuntimeExecutionMode\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'sales = env.createDataFrame([("north", "kiwi", 5)], "f0 STRING, f1 STRING, f2 INT")\n'
            "# NOTE(flink2spark): F2S288 " + FINAL_NOTE + "\n"
            'sales.withColumn("seq", F.monotonically_increasing_id()).groupBy("f0").agg(\n'
            '    F.min_by(F.struct("f0", "f1", "f2"), F.struct("f2", "seq")).alias("element")\n'
            ').select("element.*").show(2147483647, truncate=False)\n',
        ),
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
                rdd='the source `.from_collection()` at line 4 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=[
        "import numpy as np\n\na = np.array([1, 2])\ntotal = a.sum(0) + a.max(0)\n",
        "import pandas as pd\n\nsales = pd.DataFrame({'k': ['a', 'a'], 'v': [1, 2]})\nrunning = sales.groupby('k').v.cumsum()\nlow = sales.groupby('k').min()\n",
    ],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if facts(ctx.resolver, seg.original).frame is not None:
        return rolled(ctx, seg) if runtime_mode(ctx) == "streaming" else grouped(ctx, seg)
    if len(seg.args) > 1 or any(a.star for a in seg.args):
        return ctx.todo(M.PF_UNSUPPORTED, f"{seg.method}() takes one field")
    shim = reducer(ctx)
    if unconverted(shim):
        return shim
    field = seg.args[0].value if seg.args else ctx.expr("0")
    fn = ctx.expr("{agg}({field})", agg=ctx.shim(SHIM[seg.method]), field=field)
    return reduced(ctx, shim, fn)
