"""``table.group_by(keys).select(items)`` -> ``df.groupBy(keys).agg(aggregates)``.

The items of the select are group keys or aggregate expressions; Spark's ``agg`` gives the
keys first, then the aggregates, so a ``select`` of the names follows when the items come in
another order or leave a key out (an unnamed aggregate is then named ``_c<position>``). An item that is neither (an expression over a key, an
unnamed aggregate) is left with a TODO.

``group_by(keys).aggregate(f[.alias(names)]).select(items)`` of a ``udaf()`` function whose
result is a ROW (of the whole row, or ``f(args)``) -> ``groupBy(keys).agg(f(F.collect_list(
F.struct(args))).alias("_row")).select(keys, the row's fields named by the alias).select(items)``.

``group_by(keys).flat_aggregate(f(args)).select(items)`` (``flat_aggregate(f)``: of the whole
row, ``F.struct`` of the columns) of a table aggregate function (rule
``udaf``: ``f`` becomes a UDF over the group's rows giving the list of rows ``emit_value``
yields) -> ``groupBy(keys).agg(f(F.collect_list(F.struct(args))).alias("_rows"))
.select(keys, F.inline("_rows")).select(items)``: per group the keys and each row emitted, as
Flink's final result (in streaming mode Flink prints the changes that lead to it).

Over a stream (a Kafka table) ``group_by(keys).select(...)`` is an updating table: it converts
when each of its uses takes updates (the program model's ``updates_consumed``: an
``execute_insert`` into a print, blackhole or upsert-kafka table, ``execute().print()``), which
write it in Spark's update mode (``execute``); otherwise a TODO.
"""

import libcst as cst

from flink2spark.rules.table import _expressions as E
from flink2spark.rules.table._common import columns, on_stream, program, row_columns, spark_program
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Table.group_by"],
    summary="group_by(keys).select(keys, aggregates) -> groupBy(keys).agg(aggregates)",
    codes=(M.TB_EXPRESSION, M.TB_UNSUPPORTED, M.TB_FLOAT_SUM, M.TB_NAN_EXTREME),
    examples=[
        Example(
            program(
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\n"
                "counts = words.group_by(col('word')).select(col('word'), col('n').sum.alias('total'))\n",
                imports="from pyflink.table.expressions import col\n",
            ),
            spark_program(
                'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
                'counts = words.groupBy(F.col("word")).agg(F.sum(F.col("n")).alias("total"))\n',
                functions=True,
            ),
        ),
        Example(  # Flink's SUM of a FLOAT is a FLOAT, added in 32-bit floats in arrival order
            program(
                "readings = t_env.from_elements([('a', 1.5)], DataTypes.ROW([DataTypes.FIELD('k', DataTypes.STRING()),"
                " DataTypes.FIELD('v', DataTypes.FLOAT())]))\n"
                "sums = readings.group_by(col('k')).select(col('k'), col('v').sum.alias('total'))\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.expressions import col\n",
            ),
            spark_program(
                'readings = t_env.createDataFrame([("a", 1.5)], "k STRING, v FLOAT")\n'
                "# NOTE(flink2spark): F2S318 Expression.sum of a FLOAT: Flink adds 32-bit floats in the order the rows"
                " come, Spark adds doubles and casts the sum to FLOAT (the last digits may differ)\n"
                'sums = readings.groupBy(F.col("k")).agg(F.sum(F.col("v")).cast("FLOAT").alias("total"))\n',
                functions=True,
            ),
        ),
        Example(  # MIN/MAX of a DOUBLE: the same unless a NaN comes (Flink's result then depends on the order)
            program(
                "prices = t_env.from_elements([('a', 2.5)], ['sku', 'price'])\n"
                "lows = prices.group_by(col('sku')).select(col('sku'), col('price').min.alias('low'))\n",
                imports="from pyflink.table.expressions import col\n",
            ),
            spark_program(
                'prices = t_env.createDataFrame([("a", 2.5)], ["sku", "price"])\n'
                "# NOTE(flink2spark): F2S329 Expression.min of a DOUBLE: the same result as Flink's unless a value is NaN; with NaN Flink's result depends on the order rows come (a group whose first value is NaN gives NaN, a later NaN is skipped), Spark's MAX is NaN and its MIN skips NaN\n"
                'lows = prices.groupBy(F.col("sku")).agg(F.min(F.col("price")).alias("low"))\n',
                functions=True,
            ),
        ),
        Example(
            program(
                "\n\nclass Top(TableAggregateFunction):\n"
                "    def create_accumulator(self):\n        return [None]\n\n"
                "    def accumulate(self, acc, n):\n        acc[0] = n if acc[0] is None else max(acc[0], n)\n\n"
                "    def emit_value(self, acc):\n        yield acc[0], 1\n\n\n"
                "top = udtaf(Top(), result_type=DataTypes.ROW([DataTypes.FIELD('n', DataTypes.INT()), DataTypes.FIELD('rank', DataTypes.INT())]))\n"
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\n"
                "best = words.group_by(col('word')).flat_aggregate(top(col('n'))).select(col('word'), col('n'))\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.expressions import col\n"
                        "from pyflink.table.udf import TableAggregateFunction, udtaf\n",
            ),
            spark_program(
                "\n\nclass Top:\n"
                "    def create_accumulator(self):\n        return [None]\n\n"
                "    def accumulate(self, acc, n):\n        acc[0] = n if acc[0] is None else max(acc[0], n)\n\n"
                "    def emit_value(self, acc):\n        yield acc[0], 1\n\n\n"
                "# NOTE(flink2spark): F2S306 top: the rows of a group reach accumulate() in Spark's order, which may"
                " differ from Flink's (the same result unless the function depends on it)\n"
                '@F.udf(\n'
                '    returnType=T.ArrayType(\n'
                '        T.StructType(\n'
                '            [\n'
                '                T.StructField("n", T.IntegerType()),\n'
                '                T.StructField("rank", T.IntegerType()),\n'
                '            ]\n'
                '        )\n'
                '    )\n'
                ')\n'
                "def top(rows):\n"
                "    function = Top()\n"
                "    acc = function.create_accumulator()\n"
                "    for row in rows:\n"
                "        function.accumulate(acc, *row)\n"
                "    return [tuple(row) for row in function.emit_value(acc)]\n\n\n"
                'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
                "best = (\n"
                '    words.groupBy(F.col("word"))\n'
                '    .agg(top(F.collect_list(F.struct(F.col("n")))).alias("_rows"))\n'
                '    .select("word", F.inline("_rows"))\n'
                '    .select(F.col("word"), F.col("n"))\n'
                ")\n",
                functions=True, types=True,
            ),
        ),
        Example(  # aggregate() of a udaf with a ROW result: its fields, named by the alias
            program(
                "\n\nclass CountSum(AggregateFunction):\n"
                "    def create_accumulator(self):\n        return [0, 0]\n\n"
                "    def accumulate(self, acc, n):\n        acc[0] += 1\n        acc[1] += n\n\n"
                "    def get_value(self, acc):\n        return Row(acc[0], acc[1])\n\n"
                "    def get_result_type(self):\n        return DataTypes.ROW([DataTypes.FIELD('cnt', DataTypes.BIGINT()),"
                " DataTypes.FIELD('total', DataTypes.BIGINT())])\n\n\n"
                "count_sum = udaf(CountSum())\n"
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\n"
                "stats = words.group_by(col('word')).aggregate(count_sum(col('n')).alias('c', 't')).select(col('word'), col('t'))\n",
                imports="from pyflink.common import Row\nfrom pyflink.table import DataTypes\nfrom pyflink.table.expressions import col\n"
                        "from pyflink.table.udf import AggregateFunction, udaf\n",
            ),
            "from pyspark.sql import Row, SparkSession, functions as F, types as T\n\nt_env = SparkSession.builder.getOrCreate()\n\n\n"
            "class CountSum:\n"
            "    def create_accumulator(self):\n        return [0, 0]\n\n"
            "    def accumulate(self, acc, n):\n        acc[0] += 1\n        acc[1] += n\n\n"
            "    def get_value(self, acc):\n        return Row(acc[0], acc[1])\n\n\n"
            "# NOTE(flink2spark): F2S306 count_sum: the rows of a group reach accumulate() in Spark's order, which may differ"
            " from Flink's (the same result unless the function depends on it)\n"
            "@F.udf(\n    returnType=T.StructType(\n"
            '        [T.StructField("cnt", T.LongType()), T.StructField("total", T.LongType())]\n    )\n)\n'
            "def count_sum(rows):\n    function = CountSum()\n    acc = function.create_accumulator()\n"
            "    for row in rows:\n        function.accumulate(acc, *row)\n    return function.get_value(acc)\n\n\n"
            'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
            "stats = (\n"
            '    words.groupBy(F.col("word"))\n'
            '    .agg(count_sum(F.collect_list(F.struct(F.col("n")))).alias("_row"))\n'
            '    .select(F.col("word"), F.col("_row.cnt").alias("c"), F.col("_row.total").alias("t"))\n'
            '    .select(F.col("word"), F.col("t"))\n'
            ")\n",
        ),
        Example(  # call() of an AggregateFunction instance registered by name (streaming: Flink 2.3's batch mode refuses it)
            program(
                "\n\nclass Total(AggregateFunction):\n"
                "    def create_accumulator(self):\n        return [0]\n\n"
                "    def accumulate(self, acc, n):\n        acc[0] += n\n\n"
                "    def get_value(self, acc):\n        return acc[0]\n\n"
                "    def get_result_type(self):\n        return DataTypes.BIGINT()\n\n"
                "    def get_accumulator_type(self):\n        return DataTypes.ARRAY(DataTypes.BIGINT())\n\n\n"
                "t_env.create_temporary_function('total', Total())\n"
                "words = t_env.from_elements([('a', 1)], ['word', 'n'])\n"
                "sums = words.group_by(col('word')).select(col('word'), call('total', col('n')).alias('t'))\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.expressions import call, col\n"
                        "from pyflink.table.udf import AggregateFunction\n",
            ).replace("in_batch_mode", "in_streaming_mode"),
            "from pyspark.sql import SparkSession, functions as F, types as T\n\nt_env = SparkSession.builder.getOrCreate()\n\n\n"
            "class Total:\n"
            "    def create_accumulator(self):\n        return [0]\n\n"
            "    def accumulate(self, acc, n):\n        acc[0] += n\n\n"
            "    def get_value(self, acc):\n        return acc[0]\n\n\n"
            "# NOTE(flink2spark): F2S306 total: the rows of a group reach accumulate() in Spark's order, which may differ"
            " from Flink's (the same result unless the function depends on it)\n"
            "@F.udf(returnType=T.LongType())\n"
            "def total(rows):\n    function = Total()\n    acc = function.create_accumulator()\n"
            "    for row in rows:\n        function.accumulate(acc, *row)\n    return function.get_value(acc)\n\n\n"
            't_env.udf.register("total", total)\n'
            'words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
            'sums = words.groupBy(F.col("word")).agg(\n'
            '    F.call_function("total", F.collect_list(F.struct(F.col("n")))).alias("t")\n'
            ")\n",
        ),
    ],
    noop=['import pandas as pd\n\nframe = pd.DataFrame({"a": [1]})\ng = frame.groupby("a").sum()\n'],
)


def _function_call(ctx, call, kind: str, method: str):
    """``(name, argument codes, None)`` of ``f`` (a function of the whole row: Flink passes it a
    Row, Spark a struct, a Row too) or ``f(args)``, one of this program's ``kind`` functions, in
    ``group_by(...).<method>(...)``; ``(None, None, the TODO)`` when it is not one."""
    model = tables(ctx.resolver)
    if isinstance(call, cst.Name) and model.functions.get(call.value) == kind:
        row = row_columns(ctx, ctx.site.head.original.func.value)
        if row is None:
            return None, None, ctx.todo(M.TB_UNSUPPORTED, f"{method}() of a whole-row function over a table whose columns are not known")
        return call.value, [f"F.struct({row})"], None
    if isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and model.functions.get(call.func.value) == kind:
        inputs = columns(ctx, call.args, f"{method}()")
        if inputs is None:
            return None, None, ctx.todo_left()
        return call.func.value, [i.code for i in inputs], None
    return None, None, ctx.todo(M.TB_UNSUPPORTED, f"{method}() of something else than one of this program's {kind}() functions")


def _keys_and_items(ctx, segs, method: str):
    """``(keys, items, None)``: the Columns of the group keys and of the select after ``method``;
    ``(None, None, the TODO)`` when they have none."""
    keys = columns(ctx, segs[0].original.args, "group_by()")
    if keys is None:
        return None, None, ctx.todo_left()
    if any(k.name is None or k.aggregate for k in keys):
        return None, None, ctx.todo(M.TB_EXPRESSION, f"group_by() of an expression before {method}()")
    items = columns(ctx, segs[2].original.args, f"select() of {method}()", None)
    if items is None:
        return None, None, ctx.todo_left()
    return keys, items, None


def _flat_aggregate(ctx, segs):
    args = segs[1].original.args
    call = args[0].value if len(args) == 1 and args[0].keyword is None else None
    name, code, todo = _function_call(ctx, call, "udtaf", "flat_aggregate")
    if todo is not None:
        return todo
    keys, items, todo = _keys_and_items(ctx, segs, "flat_aggregate")
    if todo is not None:
        return todo
    rows = f"{name}(F.collect_list(F.struct({', '.join(code)})))"
    out = (f"{{r}}.groupBy({', '.join(k.code for k in keys)}).agg({rows}.alias(\"_rows\"))"
           f".select({', '.join(repr(k.name).replace(chr(39), chr(34)) for k in keys)}, F.inline(\"_rows\"))"
           f".select({', '.join(i.code for i in items)})")
    return ctx.expr(out, r=ctx.site.receiver)


def _aggregate(ctx, segs):
    """``group_by(keys).aggregate(f[.alias(names)]).select(items)`` of one of this program's
    ``udaf()`` functions whose result is a ROW: per group the keys and the row's fields (named by
    the alias, else by the ROW's fields), as Flink's final result of the group."""
    args = segs[1].original.args
    call = args[0].value if len(args) == 1 and args[0].keyword is None else None
    names = None
    if (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value == "alias"
            and all(isinstance(a.value, cst.SimpleString) and a.keyword is None for a in call.args)):
        names = [a.value.evaluated_value for a in call.args]
        call = call.func.value
    name, code, todo = _function_call(ctx, call, "udaf", "aggregate")
    if todo is not None:
        return todo
    fields = _struct_fields(tables(ctx.resolver).result_types.get(name) or "")
    if fields is None:
        return ctx.todo(M.TB_UNSUPPORTED, f"aggregate() of {name}, whose result type is not a known ROW")
    if names is not None and len(names) != len(fields):
        return ctx.todo(M.TB_UNSUPPORTED, f"aggregate() of {name} with {len(names)} names for {len(fields)} fields")
    keys, items, todo = _keys_and_items(ctx, segs, "aggregate")
    if todo is not None:
        return todo
    picked = [f'F.col("_row.{f}")' + (f'.alias("{n}")' if n != f else "") for f, n in zip(fields, names or fields)]
    out = (f"{{r}}.groupBy({', '.join(k.code for k in keys)}).agg({name}(F.collect_list(F.struct({', '.join(code)}))).alias(\"_row\"))"
           f".select({', '.join(k.code for k in keys)}, {', '.join(picked)})"
           f".select({', '.join(i.code for i in items)})")
    return ctx.expr(out, r=ctx.site.receiver)


def _struct_fields(spark_type: str):
    """The field names of a Spark ``STRUCT<a: T, b: U>`` type text (None: not a struct of plain fields)."""
    import re

    m = re.fullmatch(r"STRUCT<(.*)>", spark_type.strip(), re.IGNORECASE)
    if m is None:
        return None
    fields = [f.strip() for f in m[1].split(",")]
    found = [re.match(r"([A-Za-z_][A-Za-z0-9_]*)\s*:", f) for f in fields]
    if not fields or any(f is None for f in found) or "<" in m[1]:
        return None
    return [f[1] for f in found]


@rule.converter
def convert(ctx):
    segs = ctx.site.segments
    consumed = tables(ctx.resolver).updates_consumed(ctx.outer)
    if consumed is not None or len(segs) != 2:  # only their consumers take an updating table (update mode)
        refused = on_stream(ctx, "group_by() without a window", "Flink updates each group's row as records come (an updating "
                            f"table){': ' + consumed if consumed else ''}")
        if refused is not None:
            return refused
    if len(segs) == 3 and segs[1].method == "flat_aggregate" and segs[2].method == "select":
        return _flat_aggregate(ctx, segs)
    if len(segs) == 3 and segs[1].method == "aggregate" and segs[2].method == "select":
        return _aggregate(ctx, segs)
    if len(segs) != 2 or segs[1].method != "select":
        what = segs[1].method if len(segs) > 1 else "nothing"
        return ctx.todo(M.TB_UNSUPPORTED, f"group_by() followed by {what}() is not converted yet")
    keys = columns(ctx, segs[0].original.args, "group_by()")
    if keys is None:
        return ctx.todo_left()
    items = columns(ctx, segs[1].original.args, "select() of group_by()")
    if items is None:
        return ctx.todo_left()
    key_names = [k.name for k in keys]
    if any(k.aggregate for k in keys):
        return ctx.todo(M.TB_EXPRESSION, "group_by() on an aggregate")
    aggregates, names = [], []
    for index, item in enumerate(items):
        if item.aggregate:
            if item.name is None:  # Spark names it after its expression; a select below needs a name
                item = E.Column(f"{item.code}.alias('_c{index}')", True, f"_c{index}", item.uses)
            aggregates.append(item.code)
        elif item.name is None or item.name not in key_names or item.code not in {k.code for k in keys}:
            return ctx.todo(M.TB_EXPRESSION, "group_by().select(): an item that is neither a group key nor a named aggregate")
        names.append(item.name)
    if None in key_names and any(not i.aggregate for i in items):
        return ctx.todo(M.TB_EXPRESSION, "group_by() on an unnamed expression")
    if not aggregates:
        # the distinct keys: Flink's group_by(k).select(k)
        return ctx.expr(f"{{r}}.select({', '.join(repr(n) for n in names)}).distinct()", r=ctx.site.receiver)
    out = f"{{r}}.groupBy({', '.join(k.code for k in keys)}).agg(<aggregates>)"
    in_order = [i.name for i in items if not i.aggregate] == key_names and all(
        i.aggregate for i in items[len(key_names):])
    if in_order:  # Spark's agg gives the keys, then the aggregates: the select's order
        aggregates = [i.code for i in items if i.aggregate]
    else:
        out += f".select({', '.join(repr(n) for n in names)})"
    out = out.replace("<aggregates>", ", ".join(aggregates))
    return ctx.expr(out, r=ctx.site.receiver)
