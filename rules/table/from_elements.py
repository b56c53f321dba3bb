"""``t_env.from_elements(rows, schema)`` and ``t_env.from_pandas(df, schema)`` ->
``spark.createDataFrame(rows, schema)``.

Column names (a list of strings) pass as they are; a ``DataTypes.ROW([...])`` schema becomes a
Spark DDL schema string (``"id INT, name STRING"``). Without a schema both engines infer the
same types from Python values (int -> BIGINT, float -> DOUBLE, str -> STRING, bool ->
BOOLEAN) and name the columns ``_1, _2, ...``.

``Row(...)`` elements without a ``DataTypes.ROW`` schema (none, or column names): PyFlink 2.3
infers the columns' types but gives every value NULL (measured: ``from_elements([Row(a=1)])``
prints ``<NULL>``), Spark the values: TODO F2S300 (declare the schema, as Flink needs).
"""

import libcst as cst

from flink2spark.rules.pyflink._common import call_arg
from flink2spark.rules.table import _types as TY
from flink2spark.rules.table._common import UNTRANSLATABLE, qualified, code, program, spark_program
from flink2spark.rules.table.schemas import named_schema
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["TableEnvironment.from_elements", "TableEnvironment.from_pandas"],
    summary="from_elements/from_pandas -> SparkSession.createDataFrame (names, or DataTypes.ROW as a DDL schema)",
    codes=(M.TB_EXPRESSION,),
    examples=[
        Example(
            program("orders = t_env.from_elements([(1, 'a'), (2, 'b')], ['id', 'item'])\n"),
            spark_program('orders = t_env.createDataFrame([(1, "a"), (2, "b")], ["id", "item"])\n'),
        ),
        Example(  # Row elements need a DataTypes.ROW schema on Flink: without one its values are NULL
            program('orders = t_env.from_elements([Row(id=1, item="a")])\n', "from pyflink.common import Row\n"),
            spark_program(
                "# TODO(flink2spark): F2S300 from_elements() of Row elements without a DataTypes.ROW schema: PyFlink 2.3"
                " gives every value NULL there (Spark the values); declare the schema\n"
                'orders = t_env.from_elements([Row(id=1, item="a")])\n',
            ).replace("from pyspark.sql import SparkSession", "from pyspark.sql import Row, SparkSession"),
        ),
    ],
    noop=['import pandas as pd\n\nframe = pd.DataFrame.from_records([(1, 2)])\n'],
)


def _schema(ctx, node):
    if node is None:
        return None
    if named_schema(ctx, node):
        return code(ctx, node)  # its DataTypes.ROW becomes a DDL string (rule schemas)
    if isinstance(node, (cst.List, cst.Tuple)) and all(isinstance(e.value, cst.SimpleString) for e in node.elements):
        return code(ctx, node)
    try:
        return repr(TY.spark_schema(node, qualified(ctx))).replace("'", '"')
    except UNTRANSLATABLE as exc:
        ctx.todo(M.TB_EXPRESSION, f"{ctx.site.head.method}(): schema {exc}")
        return False


_ROW_TYPES = ("pyflink.table.DataTypes.ROW", "pyflink.table.types.DataTypes.ROW")
_ROWS = frozenset(P.ROWS | {"pyflink.table.Row"})


def _row_elements(ctx, data) -> bool:
    """Whether the literal elements (through a name bound once) hold a ``Row(...)``."""
    if isinstance(data, cst.Name):
        data = ctx.resolver.single_value(data) or data
    if not isinstance(data, (cst.List, cst.Tuple)):
        return False
    return any(isinstance(e.value, cst.Call) and ctx.resolver.qualified_names(e.value.func) & _ROWS for e in data.elements)


def _row_schema(ctx, node) -> bool:
    """Whether the schema argument is a ``DataTypes.ROW`` (read or named), not column names."""
    if node is None or isinstance(node, (cst.List, cst.Tuple)):
        return False
    if isinstance(node, cst.Name):
        node = ctx.resolver.single_value(node) or node
    return isinstance(node, cst.Call) and qualified(ctx)(node.func) in _ROW_TYPES


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    data = call_arg(seg.original, 0, "elements" if seg.method == "from_elements" else "pdf")
    if data is None:
        return ctx.todo(M.TB_UNSUPPORTED, f"{seg.method}() without its data")
    if seg.method == "from_elements" and call_arg(seg.original, 2, "verify_schema") is not None:
        pass  # verification only: Spark checks values against the schema too
    if seg.method == "from_elements" and _row_elements(ctx, data) and not _row_schema(ctx, call_arg(seg.original, 1, "schema")):
        return ctx.todo(M.TB_UNSUPPORTED, "from_elements() of Row elements without a DataTypes.ROW schema: PyFlink 2.3 gives"
                        " every value NULL there (Spark the values); declare the schema")
    schema = _schema(ctx, call_arg(seg.original, 1, "schema"))
    if schema is False:
        return ctx.todo_left()
    found = ctx.arg(seg, 0, "elements" if seg.method == "from_elements" else "pdf")
    args = [found[1]] + ([cst.parse_expression(schema)] if schema else [])
    return cst.Call(func=cst.Attribute(value=ctx.site.receiver, attr=cst.Name("createDataFrame")), args=[cst.Arg(a) for a in args])
