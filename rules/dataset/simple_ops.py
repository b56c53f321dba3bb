"""``map``, ``flat_map`` and ``filter`` -> ``RDD.map``/``flatMap``/``filter``.

Lambdas keep their body (a ``flat_map`` lambda drops its unused collector parameter, and
``lambda x, c: c.collect(v)`` becomes ``lambda x: [v]``); Flink function classes become the
bound method (``Tokenizer().flat_map``), with collector methods rewritten into generators.

On a data set the program model lowers to a DataFrame (``rules/dataset/_frames.py``) the
function becomes Columns (``transpiler/python_columns.py``, exact or not taken): ``where`` for a
filter, ``select`` for a map, ``select(F.explode(items))`` then the item's record for a
flat_map (``for word in line.split(): collector.collect((word, 1))``: the exact split of
Python's whitespace runs, no empty words). NOTE F2S264 where the translation names a difference.
"""

from flink2spark.rules.dataset import _frames
from flink2spark.rules.dataset._common import frame_program, program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

SPARK = {"map": "map", "flat_map": "flatMap", "filter": "filter"}

rule = Rule(
    __name__,
    matches=["DataSet.map", "DataSet.flat_map", "DataSet.filter"],
    summary="map/flat_map/filter -> RDD.map/flatMap/filter (lambdas, defs, function classes), on a DataFrame select/where of Columns, flat_map F.explode (native); with_broadcast_set -> f2s.with_broadcast_sets (shim: Spark has no per-operator broadcast input)",
    # exact; the Columns carry NOTE F2S264 where a built-in differs in a detail (str.upper() of newer characters)
    codes=(M.DS_FUNCTION, M.DS_COLLECTOR, M.PF_COLUMN_NOTE),
    examples=[
        Example(
            program("lines = env.from_elements('a b')\nwords = lines.flat_map(lambda line, c: line.split()).map(lambda w: (w, 1))\n"),
            spark_program(
                'lines = env.sparkContext.parallelize(["a b"])\n'
                "words = lines.flatMap(lambda line: line.split()).map(lambda w: (w, 1))\n"
            ),
        ),
        Example(
            program(
                "\n\nclass Tokenizer(FlatMapFunction):\n"
                "    def flat_map(self, value, collector):\n"
                "        for word in value.split():\n"
                "            collector.collect((word, 1))\n\n\n"
                "class Long(FilterFunction):\n"
                "    def filter(self, value):\n"
                "        return len(value[0]) > 3\n\n\n"
                "words = env.from_elements('a b').flat_map(Tokenizer()).filter(Long())\n",
                imports="from flink.functions.FilterFunction import FilterFunction\nfrom flink.functions.FlatMapFunction import FlatMapFunction\n",
            ),
            spark_program(
                "\n\nclass Tokenizer:\n"
                "    def flat_map(self, value):\n"
                "        for word in value.split():\n"
                "            yield (word, 1)\n\n\n"
                "class Long:\n"
                "    def filter(self, value):\n"
                "        return len(value[0]) > 3\n\n\n"
                'words = (\n    env.sparkContext.parallelize(["a b"])\n    .flatMap(Tokenizer().flat_map)\n    .filter(Long().filter)\n)\n'
            ),
        ),
        Example(  # a broadcast set has no Spark construct: the shim gives the function its context
            program(
                "\n\nclass Scale(MapFunction):\n"
                "    def map(self, value):\n"
                '        return value * self.context.get_broadcast_variable("factor")[0]\n\n\n'
                "factor = env.from_elements(2)\n"
                'scaled = env.from_elements(1).map(Scale()).with_broadcast_set("factor", factor)\n',
                imports="from flink.functions.MapFunction import MapFunction\n",
            ),
            spark_program(
                "\n\nclass Scale:\n"
                "    def map(self, value):\n"
                '        return value * self.context.get_broadcast_variable("factor")[0]\n\n\n'
                "factor = env.sparkContext.parallelize([2])\n"
                "scaled = env.sparkContext.parallelize([1]).map(\n"
                '    f2s.with_broadcast_sets(Scale(), {"factor": factor}).map\n'
                ")\n",
                shim=True,
            ),
        ),
        Example(
            program("doubled = env.from_elements(1).flat_map(lambda x, out: out.collect(x * 2))\n"),
            spark_program("doubled = env.sparkContext.parallelize([1]).flatMap(lambda x: [x * 2])\n"),
        ),
        Example(  # on a DataFrame (rules/dataset/_frames.py): the functions as Columns, the collector's items exploded
            program(
                '\n'
                '\n'
                'class Tokenizer(FlatMapFunction):\n'
                '    def flat_map(self, value, collector):\n'
                '        for word in value.split():\n'
                '            collector.collect((word, 1))\n'
                '\n'
                '\n'
                "env.from_elements('a b', 'b').flat_map(Tokenizer()).map(lambda t: t[0].upper()).output()\n",
                imports='from flink.functions.FlatMapFunction import FlatMapFunction\n',
            ),
            frame_program(
                '\n'
                '\n'
                # Tokenizer: read by nothing once its flat_map is Columns (transpiler/unread.py)
                "# NOTE(flink2spark): F2S264 str.upper() as F.upper: Spark's case mapping follows a newer Unicode than Python 3.11's (14.0): 55 characters map differently (unassigned in 14.0, and ƛ ɤ ꟓ ꟕ)\n"
                'env.createDataFrame(["a b", "b"], "string").select(\n'
                '    F.explode(F.array_remove(F.split(F.col("value"), r"(?U)[\\s\\x1c-\\x1f]+"), "")).alias(\n'
                '        "word"\n'
                '    )\n'
                ').select(F.col("word").alias("f0"), F.lit(1).alias("f1")).select(\n'
                '    F.upper(F.col("f0")).alias("value")\n'
                ').show(2147483647, truncate=False)\n'
            ),
        ),
    ],
    noop=[
        "import pandas as pd\n\ns = pd.Series([1, 2])\nt = s.map(lambda x: x * 2)\nu = list(filter(None, [1]))\n",
        "from pyspark import SparkContext\n\nsc = SparkContext.getOrCreate()\nsc.parallelize([1]).map(lambda x: x).filter(bool).collect()\n",
        "words = ['a']\nfound = list(map(str.upper, words))\n",
    ],
)


def _frame_operator(ctx, shape):
    """``where``/``select`` of the Columns the function translates to (rules/dataset/_frames.py);
    a flat_map: ``select(F.explode(items))``, then the Columns of each item's record."""
    from flink2spark.rules._frame_ops import Column, operator
    from flink2spark.transpiler.python_columns import FlatTranslation

    seg = ctx.site.head
    found = _frames.translation(ctx.resolver, seg.original, shape)
    if seg.method == "filter":
        return operator(ctx, found)
    made = _frames.frame(ctx.resolver, seg.original)
    outputs = found.element.outputs if isinstance(found, FlatTranslation) else found.outputs
    columns = [Column(o.code, f.name) for o, f in zip(outputs, made.fields)]
    return operator(ctx, found, columns, taken={f.name for f in shape.fields}, drop_identity=True)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    shape = _frames.receiver_frame(ctx)
    if shape is not None:
        return _frame_operator(ctx, shape)
    fn = ctx.function(seg, seg.method)
    if fn is None:
        return ctx.todo_left()
    return ctx.expr("{ds}.%s({fn})" % SPARK[seg.method], ds=ctx.site.receiver, fn=fn)
