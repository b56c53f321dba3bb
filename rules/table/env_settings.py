"""``EnvironmentSettings.in_batch_mode()``, ``in_streaming_mode()`` and the
``EnvironmentSettings.new_instance()...build()`` builder: read by the Table API's program model
(batch or streaming mode, ``_program.mode``); Spark has no counterpart.

Given inline to ``TableEnvironment.create(...)`` they go with it (rule ``environment``). A
statement ``settings = EnvironmentSettings...`` read only by table environments is removed; one
read elsewhere stays, with the TODO of its import. So is Flink 1.9-1.13's ``t_config =
TableConfig()`` given to ``BatchTableEnvironment.create(env, t_config)`` (a default TableConfig
sets nothing).
"""

import libcst as cst

from flink2spark.rules.table._common import program, spark_program
from flink2spark.transpiler import table_model as T
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import REMOVE

rule = Rule(
    __name__,
    matches=["flink.in_batch_mode", "flink.in_streaming_mode", "flink.new_instance", "flink.TableConfig",
             *[f"{T.ENV_SETTINGS_BUILDER}.{m}" for m in T.METHODS[T.ENV_SETTINGS_BUILDER]]],
    summary="EnvironmentSettings (batch/streaming mode): read by the program model, removed; so is a TableConfig() only given to create()",
    examples=[
        Example(
            "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"
            "settings = EnvironmentSettings.new_instance().in_batch_mode().build()\n"
            "t_env = TableEnvironment.create(settings)\n",
            "from pyspark.sql import SparkSession\n\nt_env = SparkSession.builder.getOrCreate()\n",
        ),
    ],
    noop=['mode = "batch"\nsettings = {"in_batch_mode": True}\n'],
)


def _readers_are_environments(ctx, assign) -> bool:
    resolver = ctx.resolver
    bindings = resolver.scope_bindings(assign.targets[0].target) or []
    if len(bindings) != 1 or not bindings[0].references:
        return False
    for ref in bindings[0].references:
        arg = resolver.parent(ref.node)
        call = resolver.parent(arg) if isinstance(arg, cst.Arg) else None
        if not (isinstance(call, cst.Call) and resolver.qualified_name(call.func) in T.ENTRY_POINTS
                and T.ENTRY_POINTS[resolver.qualified_name(call.func)] in (T.TABLE_ENV, T.STREAM_TABLE_ENV)):
            return False
    return True


@rule.converter
def convert(ctx):
    resolver = ctx.resolver
    node = ctx.outer
    parent = resolver.parent(node)
    while isinstance(parent, (cst.Attribute, cst.Call)):  # up the builder chain
        node, parent = parent, resolver.parent(parent)
    if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name) \
            and parent.value is node and _readers_are_environments(ctx, parent):
        if ctx.outer is node:
            ctx.remove_statement(parent)
        return ctx.keep("EnvironmentSettings read only by table environments: its statement is removed")
    return ctx.keep("EnvironmentSettings: read by the program model; given to TableEnvironment.create, it goes with it")
