"""A schema given a name, ``SCHEMA = DataTypes.ROW([DataTypes.FIELD("id", DataTypes.INT()), ...])``,
read only as the schema of ``from_elements``/``from_pandas`` -> the Spark DDL schema string
``SCHEMA = "id INT, ..."``, which ``createDataFrame`` takes (``_types.spark_schema``). A
``DataTypes.ROW`` given inline is converted by the call it is given to; one read elsewhere stays,
with the TODO of the ``DataTypes`` import.
"""

import libcst as cst

from flink2spark.rules.table import _types as TY
from flink2spark.rules.table._common import UNTRANSLATABLE, program, qualified, spark_program, uses_of_single_name
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

READERS = ("from_elements", "from_pandas")

rule = Rule(
    __name__,
    matches=["flink.ROW"],
    summary="SCHEMA = DataTypes.ROW([...]) read by from_elements/from_pandas -> a Spark DDL schema string",
    codes=(M.TB_EXPRESSION,),
    examples=[
        Example(
            program(
                "SCHEMA = DataTypes.ROW([DataTypes.FIELD('id', DataTypes.INT()), DataTypes.FIELD('name', DataTypes.STRING())])\n"
                "people = t_env.from_elements([(1, 'ann')], SCHEMA)\n",
                imports="from pyflink.table import DataTypes\n",
            ),
            spark_program('SCHEMA = "id INT, name STRING"\npeople = t_env.createDataFrame([(1, "ann")], SCHEMA)\n'),
        ),
    ],
    noop=['ROW = 1\nrows = [ROW]\n'],
)


def named_schema(ctx, node) -> bool:
    """Whether ``node`` is a name bound once to a ``DataTypes.ROW`` that this rule rewrites."""
    if not isinstance(node, cst.Name):
        return False
    value = ctx.resolver.single_value(node)
    return isinstance(value, cst.Call) and _read_as_schema(ctx, value)


def _read_as_schema(ctx, value) -> bool:
    resolver = ctx.resolver
    uses = uses_of_single_name(resolver, value)
    if uses is None:
        return False
    for use in uses:
        arg = resolver.parent(use)
        call = resolver.parent(arg) if isinstance(arg, cst.Arg) else None
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in READERS
                and resolver.type_of(call.func.value) in ("TableEnvironment", "StreamTableEnvironment")):
            return False
        if call.args[0] is arg:
            return False
    try:
        TY.spark_schema(value, qualified(ctx))
    except UNTRANSLATABLE:
        return False
    return True


@rule.converter
def convert(ctx):
    value = ctx.outer
    if not _read_as_schema(ctx, value):
        return ctx.keep("DataTypes.ROW: converted by the call it is given to, or left with its import's TODO")
    text = TY.spark_schema(value, qualified(ctx))
    return cst.SimpleString('"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"')
