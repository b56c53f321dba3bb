"""A record type given a name, ``ORDER = Types.ROW_NAMED([...], [...])`` or
``MOVE = Types.TUPLE([...])``, read only as the ``type_info`` of ``from_collection`` calls that
the program model lowers to DataFrames (``StreamFacts.frame``) -> the Spark DDL schema string
``ORDER = "id INT, name STRING"``, which those ``createDataFrame`` calls read by its name. A
constant read anywhere else (an RDD's ``f2s.typed``, a print, a state descriptor, an
``output_type``...) stays a type object (``f2s.Types``), as do inline types (converted by the
call they are given to).

``Types.ROW`` constants are not matched here: the dispatch table keys a module-level call by its
last name, which ``DataTypes.ROW`` (``rules/table/schemas.py``) has.
"""

from __future__ import annotations

import json
from typing import Optional

import libcst as cst

from flink2spark.rules.pyflink._common import assigned_uses, program
from flink2spark.rules.pyflink._frames import ddl
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["flink.ROW_NAMED", "flink.TUPLE"],
    summary="ORDER = Types.ROW_NAMED/TUPLE([...]) read only by from_collection of DataFrames -> a Spark DDL schema string",
    examples=[
        Example(
            program(
                "MOVE = Types.TUPLE([Types.STRING(), Types.INT()])\n"
                "moves = env.from_collection([('north', 3)], type_info=MOVE)\n"
                "moves.filter(lambda m: m[1] > 0).print()\n",
                imports="from pyflink.common import Types\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'MOVE = "f0 STRING, f1 INT"\n'
            'moves = env.createDataFrame([("north", 3)], MOVE)\n'
            'moves.where(F.col("f1") > 0).show(2147483647, truncate=False)\n',
        ),
    ],
    noop=["class Types:\n    @staticmethod\n    def TUPLE(xs):\n        return xs\n\n\nMOVE = Types.TUPLE([1])\n"],
)


def frame_schema(resolver, value: cst.BaseExpression) -> Optional[str]:
    """The DDL string the constant ``NAME = value`` (a ``Types.ROW_NAMED/TUPLE`` call) becomes:
    when every read of ``NAME`` is the ``type_info`` of a ``from_collection`` lowered to a
    DataFrame, all of one schema; None otherwise."""
    from flink2spark.rules.pyflink._streams import facts

    uses = assigned_uses(resolver, value)
    if not uses:
        return None
    schemas = set()
    for use in uses:
        arg = resolver.parent(use)
        call = resolver.parent(arg) if isinstance(arg, cst.Arg) else None
        if not (
            isinstance(call, cst.Call)
            and isinstance(call.func, cst.Attribute)
            and call.func.attr.value == "from_collection"
            and resolver.type_of(call.func.value) == P.ENVIRONMENT
            and arg in call.args[1:]
            and (arg.keyword is None and call.args.index(arg) == 1 or arg.keyword is not None and arg.keyword.value == "type_info")
        ):
            return None
        frame = facts(resolver, call).frame
        if frame is None:
            return None
        schemas.add(ddl(frame))
    return schemas.pop() if len(schemas) == 1 else None


def named_frame_schema(resolver, node: cst.BaseExpression) -> bool:
    """Whether ``node`` is a name of a constant this rule turns into a DDL string."""
    if not isinstance(node, cst.Name):
        return False
    value = resolver.single_value(node)
    return isinstance(value, cst.Call) and frame_schema(resolver, value) is not None


@rule.converter
def convert(ctx):
    schema = frame_schema(ctx.resolver, ctx.outer)
    if schema is None:
        return ctx.keep("a record type read by an RDD, a sink or another call: it stays a type object (f2s.Types)")
    return cst.SimpleString(json.dumps(schema))
