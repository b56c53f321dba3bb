"""Python aggregate functions of the Table API: ``name = udaf(Cls(), result_type=...)`` of an
``AggregateFunction`` class -> a Spark UDF over the rows of a group, which runs the class as
Flink does (``create_accumulator``, ``accumulate`` per row, ``get_value``)::

    @F.udf(returnType="DOUBLE")
    def name(rows):
        function = Cls()
        acc = function.create_accumulator()
        for row in rows:
            function.accumulate(acc, *row)
        return function.get_value(acc)

and each call ``name(col("a"), col("b"))`` in a ``group_by(...).select(...)`` ->
``name(F.collect_list(F.struct(F.col("a"), F.col("b"))))``, an aggregate (``_expressions``
with the program model's ``functions``). The values reach ``accumulate`` as Python values, NULL
as None, as in Flink; in the order of the rows in Spark's group (NOTE F2S306: the same result
for a function that does not depend on the order). ``retract``/``merge`` are not needed: Spark
computes the group's result once.

Pandas aggregate functions (``func_type="pandas"``: a function of the group's columns as
``pd.Series`` returning one value) -> Spark's grouped-aggregate ``pandas_udf`` (Series ->
scalar), which Spark tells by its type hints, so the parameters get ``pd.Series`` and the
return its Python type:

- ``@udaf(result_type=DataTypes.DOUBLE(), func_type="pandas")`` on a def ->
  ``@F.pandas_udf("DOUBLE")`` on ``def f(v: pd.Series) -> float``;
- ``name = udaf(lambda v: ..., result_type=..., func_type="pandas")`` -> the same def named
  ``name``, returning the lambda's body.

Their calls in ``group_by(...).select(...)`` are aggregates with the columns as arguments
(``_expressions``); registered, they are called in SQL. A ROW result (Spark's grouped
aggregate UDFs return no struct) is left with a TODO.

Table aggregate functions: ``name = udtaf(Cls(), result_type=DataTypes.ROW([...]))`` of a
``TableAggregateFunction`` class -> the same UDF over the group's rows returning the rows
``emit_value`` yields, as tuples (``ARRAY<STRUCT<...>>``, fields by position); rule
``group_by`` turns ``flat_aggregate(name(...))`` into one row per emitted row. Flink's final
rows per group are those of ``emit_value`` after all its rows in streaming mode too (its
changelog retracts the earlier ones); a class with ``emit_update_with_retract`` is left with
a TODO.
"""

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg
from flink2spark.rules.table import _types as TY
from flink2spark.rules.table._common import UNTRANSLATABLE, program, qualified, spark_program, use
from flink2spark.rules.table._program import declared_result, method_of  # noqa: F401  (rules/table/udf.py uses both)
from flink2spark.transpiler import functions as F_
from flink2spark.transpiler import imports as I_
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["flink.udaf", "flink.udtaf"],
    summary="name = udaf(AggregateFunction(), result_type=...) -> a F.udf over collect_list(struct(...)) of the group",
    codes=(M.TB_UNSUPPORTED, M.TB_EXPRESSION, M.TB_ORDER),
    examples=[
        Example(
            program(
                "\n\nclass Total(AggregateFunction):\n"
                "    def create_accumulator(self):\n        return [0]\n\n"
                "    def accumulate(self, acc, value):\n        acc[0] += value\n\n"
                "    def get_value(self, acc):\n        return acc[0]\n\n\n"
                "total = udaf(Total(), result_type=DataTypes.BIGINT())\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.udf import AggregateFunction, udaf\n",
            ),
            spark_program(
                "\n\nclass Total:\n"
                "    def create_accumulator(self):\n        return [0]\n\n"
                "    def accumulate(self, acc, value):\n        acc[0] += value\n\n"
                "    def get_value(self, acc):\n        return acc[0]\n\n\n"
                "# NOTE(flink2spark): F2S306 total: the rows of a group reach accumulate() in Spark's order, which may"
                " differ from Flink's (the same result unless the function depends on it)\n"
                '@F.udf(returnType=T.LongType())\n'
                "def total(rows):\n"
                "    function = Total()\n"
                "    acc = function.create_accumulator()\n"
                "    for row in rows:\n"
                "        function.accumulate(acc, *row)\n"
                "    return function.get_value(acc)\n",
                functions=True, types=True,
            ),
        ),
        Example(
            program(
                "\n\n@udaf(result_type=DataTypes.DOUBLE(), func_type='pandas')\ndef middle(values):\n"
                "    return float(values.median())\n\n\n"
                "spread = udaf(lambda v: float(v.max() - v.min()), result_type=DataTypes.DOUBLE(), func_type='pandas')\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.udf import udaf\n",
            ),
            spark_program(
                '\n\n@F.pandas_udf(T.DoubleType())\ndef middle(values: pd.Series) -> float:\n'
                "    return float(values.median())\n\n\n"
                '@F.pandas_udf(T.DoubleType())\ndef spread(v: pd.Series) -> float:\n'
                "    return float(v.max() - v.min())\n",
                imports="import pandas as pd\n",
                functions=True, types=True,
            ),
        ),
        Example(  # types the class declares: the UDF's returnType; Spark calls neither method, they go with the base
            program(
                "\n\nclass Longest(AggregateFunction):\n"
                "    def create_accumulator(self):\n        return [0]\n\n"
                "    def accumulate(self, acc, word):\n        acc[0] = max(acc[0], len(word))\n\n"
                "    def get_value(self, acc):\n        return acc[0]\n\n"
                "    def get_result_type(self):\n        return DataTypes.INT()\n\n"
                "    def get_accumulator_type(self):\n        return DataTypes.ARRAY(DataTypes.INT())\n\n\n"
                "longest = udaf(Longest())\n",
                imports="from pyflink.table import DataTypes\nfrom pyflink.table.udf import AggregateFunction, udaf\n",
            ),
            spark_program(
                "\n\nclass Longest:\n"
                "    def create_accumulator(self):\n        return [0]\n\n"
                "    def accumulate(self, acc, word):\n        acc[0] = max(acc[0], len(word))\n\n"
                "    def get_value(self, acc):\n        return acc[0]\n\n\n"
                "# NOTE(flink2spark): F2S306 longest: the rows of a group reach accumulate() in Spark's order, which may"
                " differ from Flink's (the same result unless the function depends on it)\n"
                '@F.udf(returnType=T.IntegerType())\n'
                "def longest(rows):\n"
                "    function = Longest()\n"
                "    acc = function.create_accumulator()\n"
                "    for row in rows:\n"
                "        function.accumulate(acc, *row)\n"
                "    return function.get_value(acc)\n",
                functions=True, types=True,
            ),
        ),
    ],
    noop=['from functools import reduce\n\ntotal = reduce(lambda a, b: a + b, [1, 2])\n'],
)

_BODY = (
    "def {name}(rows):\n"
    "    function = {instance}\n"
    "    acc = function.create_accumulator()\n"
    "    for row in rows:\n"
    "        function.accumulate(acc, *row)\n"
    "    return {result}\n"
)


def aggregate_def(name: str, instance: str, returns: str, result: str = "function.get_value(acc)") -> cst.FunctionDef:
    """``@F.udf(returnType=...) def name(rows)`` running the function ``instance`` over a group's rows."""
    fn = cst.parse_statement(_BODY.format(name=name, instance=instance, result=result))
    decorator = cst.Decorator(cst.parse_expression(f"F.udf(returnType={TY.type_code(returns)})"))
    return fn.with_changes(decorators=[decorator])


def _replace(name: str, instance: str, returns: str, result: str):
    return lambda line: aggregate_def(name, instance, returns, result).with_changes(leading_lines=line.leading_lines)


# Spark type -> the Python type of a grouped-aggregate pandas_udf's return hint
_HINTS = {"DOUBLE": "float", "FLOAT": "float", "TINYINT": "int", "SMALLINT": "int", "INT": "int", "BIGINT": "int",
          "STRING": "str", "BOOLEAN": "bool"}


def _series_def(fn: cst.FunctionDef, returns: str, hint: str) -> cst.FunctionDef:
    series = cst.Annotation(cst.parse_expression("pd.Series"))
    params = fn.params.with_changes(params=[p.with_changes(annotation=series) for p in fn.params.params])
    decorator = cst.Decorator(cst.parse_expression(f"F.pandas_udf({TY.type_code(returns)})"))
    return fn.with_changes(params=params, returns=cst.Annotation(cst.Name(hint)), decorators=[decorator])


def _pandas(ctx, call):
    result = call_arg(call, 2, "result_type")
    try:
        returns = TY.spark_type(result, qualified(ctx)) if result is not None else None
    except UNTRANSLATABLE as exc:
        return ctx.todo(M.TB_EXPRESSION, f"udaf(): result type {exc}")
    hint = _HINTS.get(returns or "")
    if hint is None:
        return ctx.todo(M.TB_UNSUPPORTED, f"udaf(func_type='pandas') of result type {returns or 'not given'}:"
                        " Spark's grouped aggregate pandas UDFs return a number, string or boolean")
    parent = ctx.resolver.parent(call)
    fn = ctx.resolver.parent(parent) if isinstance(parent, cst.Decorator) else None
    f = call_arg(call, 0, "f")
    simple = lambda params: params.star_arg is cst.MaybeSentinel.DEFAULT and not params.kwonly_params \
        and not params.posonly_params and params.star_kwarg is None and all(p.default is None for p in params.params)
    if isinstance(fn, cst.FunctionDef) and f is None and len(fn.decorators) == 1 and simple(fn.params):
        rewrite = lambda new: _series_def(new, returns, hint)
        target = fn
    elif isinstance(parent, cst.Assign) and isinstance(f, cst.Lambda) and simple(f.params) and len(parent.targets) == 1 \
            and isinstance(parent.targets[0].target, cst.Name) and isinstance(ctx.resolver.parent(parent), cst.SimpleStatementLine) \
            and len(ctx.resolver.parent(parent).body) == 1:
        target = ctx.resolver.parent(parent)
        name = parent.targets[0].target.value
        body = ctx.resolver.module.code_for_node(f.body)
        params = ", ".join(p.name.value for p in f.params.params)
        made = cst.parse_statement(f"def {name}({params}):\n    return {body}\n")
        rewrite = lambda line: _series_def(made, returns, hint).with_changes(leading_lines=line.leading_lines)
    else:
        return ctx.todo(M.TB_UNSUPPORTED, "udaf(func_type='pandas') of something else than a def it decorates"
                        " or a lambda assigned to a name")
    use(ctx, {"F", "T"})
    I_.need(ctx.conv.codemod, "pandas", None, "pd")
    ctx.rewrite_statement(target, rewrite)
    return ctx.keep("the def (or assignment) becomes a grouped aggregate pandas_udf (its statement is rewritten)")


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    call = seg.original
    table = seg.method == "udtaf"
    kind = call_arg(call, 6, "func_type")
    if isinstance(kind, cst.SimpleString) and kind.evaluated_value == "pandas":
        return _pandas(ctx, call)
    if kind is not None and not (isinstance(kind, cst.SimpleString) and kind.evaluated_value == "general"):
        return ctx.todo(M.TB_UNSUPPORTED, "udaf(func_type=...) given by an expression")
    assign = ctx.resolver.parent(call)
    line = ctx.resolver.parent(assign) if isinstance(assign, cst.Assign) else None
    if not (isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 and len(assign.targets) == 1
            and isinstance(assign.targets[0].target, cst.Name)):
        return ctx.todo(M.TB_UNSUPPORTED, f"{seg.method}() used another way than name = {seg.method}(Cls(), ...)")
    f = call_arg(call, 0, "f")
    known = ctx.conv.class_of(f) if isinstance(f, cst.Call) else None
    if known is None or known[0].kind != ("TableTableAggregateFunction" if table else "TableAggregateFunction") \
            or not known[0].convertible:
        base = "a TableAggregateFunction" if table else "an AggregateFunction"
        return ctx.todo(M.TB_UNSUPPORTED, f"{seg.method}() of something else than {base} class of this program")
    if table and F_._method(known[0].node, "emit_update_with_retract") is not None:
        return ctx.todo(M.TB_UNSUPPORTED, "udtaf() of a class with emit_update_with_retract(): Spark computes each group's"
                        " rows once, with emit_value()")
    result = call_arg(call, 2, "result_type") or declared_result(ctx.resolver, known[0].node)
    try:
        returns = result.evaluated_value.upper() if isinstance(result, cst.SimpleString) else TY.spark_type(result, qualified(ctx))
    except (UNTRANSLATABLE + (AttributeError,)) as exc:
        return ctx.todo(M.TB_EXPRESSION, f"{seg.method}(): result type {exc}")
    if table and not returns.startswith("STRUCT<"):
        return ctx.todo(M.TB_UNSUPPORTED, "udtaf() whose result type is not a ROW")
    name = assign.targets[0].target.value
    use(ctx, {"F", "T"})
    ctx.note(M.TB_ORDER, f"{name}: the rows of a group reach accumulate() in Spark's order, which may differ from Flink's"
             " (the same result unless the function depends on it)")
    ctx.rewrite_statement(line, _replace(name, ctx.resolver.module.code_for_node(f), f"ARRAY<{returns}>" if table else returns,
                                         "[tuple(row) for row in function.emit_value(acc)]" if table else "function.get_value(acc)"))
    return ctx.keep("the statement becomes the UDF's def")
