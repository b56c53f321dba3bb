"""Table API settings:

- ``t_env.get_config().set("key", "value")`` (and ``.get_configuration().set_string(...)``,
  ``set_integer``...): Flink settings. ``table.local-time-zone`` becomes Spark's
  ``spark.sql.session.timeZone`` (both the zone of TIMESTAMP_LTZ values and of conversions from
  and to strings); the others change no result of a converted job and are removed with a NOTE
  naming them.
- ``t_env.add_python_file(...)``, ``set_python_requirements``, ``add_python_archive`` and the
  ``python.*``/``pipeline.jars`` settings: dependencies of the job, which Spark takes from
  ``spark-submit --py-files/--archives/--jars``: removed with a NOTE.
"""

import libcst as cst

from flink2spark.rules.table._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import REMOVE

SPARK_CONF = {"table.local-time-zone": "spark.sql.session.timeZone"}
DEPENDENCIES = ("add_python_file", "set_python_requirements", "add_python_archive")

rule = Rule(
    __name__,
    matches=["TableEnvironment.get_config", "TableConfig.set", "TableConfig.get_configuration", *[f"TableEnvironment.{m}" for m in DEPENDENCIES]],
    summary="get_config().set(k, v) -> spark.conf.set for table.local-time-zone, else removed (NOTE); Python dependencies removed (NOTE)",
    exact=False,
    codes=(M.TB_CONFIG, M.PF_DEPLOYMENT),
    examples=[
        Example(
            program("t_env.get_config().set('parallelism.default', '1')\nt_env.get_config().set('table.local-time-zone', 'UTC')\n"),
            spark_program(
                "# NOTE(flink2spark): F2S304 Flink setting dropped: parallelism.default\n"
                't_env.conf.set("spark.sql.session.timeZone", "UTC")\n'
            ),
        ),
    ],
    noop=['config = {"a": 1}\nconfig.get("a")\n'],
)


def _setting(ctx, stmt_call):
    """(key node, value node) of ``t_env.get_config()[.get_configuration()].set*(key, value)``."""
    if not (isinstance(stmt_call, cst.Call) and isinstance(stmt_call.func, cst.Attribute)):
        return None
    if not stmt_call.func.attr.value.startswith("set") or len(stmt_call.args) != 2:
        return None
    return stmt_call.args[0].value, stmt_call.args[1].value


def _assigned_setters(ctx, assign):
    """``config = t_env.get_config()[.get_configuration()]`` whose every use is a statement
    ``config.set*("key", value)`` of a key Spark has no counterpart of: [(statement, key)]."""
    if len(assign.targets) != 1 or not isinstance(assign.targets[0].target, cst.Name):
        return None
    bindings = ctx.resolver.scope_bindings(assign.targets[0].target) or []
    if len(bindings) != 1:
        return None
    found = []
    for ref in bindings[0].references:
        attr = ctx.resolver.parent(ref.node)
        call = ctx.resolver.parent(attr) if isinstance(attr, cst.Attribute) else None
        stmt = ctx.resolver.parent(call) if isinstance(call, cst.Call) and call.func is attr else None
        setting = _setting(ctx, call) if isinstance(stmt, cst.Expr) else None
        if setting is None or not isinstance(setting[0], cst.SimpleString) or setting[0].evaluated_value in SPARK_CONF:
            return None
        found.append((stmt, setting[0].evaluated_value))
    return found


@rule.converter
def convert(ctx):
    method = ctx.site.head.method
    if method == "get_configuration":
        return ctx.keep("get_config().get_configuration(): the get_config() rule removes its statement or leaves a TODO")
    if ctx.site.receiver_type == "TableConfig":
        key, value = (ctx.arg(ctx.site.head, 0, "key"), ctx.arg(ctx.site.head, 1, "value"))
        if key is None or value is None or not isinstance(key[0], cst.SimpleString) or key[0].evaluated_value not in SPARK_CONF:
            return ctx.keep("a Flink setting: the get_config() rule removes its statement or leaves a TODO")
        receiver = ctx.site.receiver
        if not (isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) and receiver.func.attr.value == "get_config"):
            return ctx.todo(M.TB_UNSUPPORTED, "a TableConfig kept or passed on: set spark.sql.session.timeZone by hand")
        spark_key = cst.SimpleString(f'"{SPARK_CONF[key[0].evaluated_value]}"')
        return ctx.expr("{env}.conf.set({k}, {v})", env=receiver.func.value, k=spark_key, v=value[1])
    stmt = ctx.resolver.parent(ctx.outer)
    while isinstance(stmt, (cst.Attribute, cst.Call)):
        stmt = ctx.resolver.parent(stmt)
    if method in DEPENDENCIES:
        if not isinstance(stmt, cst.Expr):
            return ctx.todo(M.TB_UNSUPPORTED, f"the result of {method}() is used")
        ctx.note(M.PF_DEPLOYMENT, f"{method}(): give Spark the job's Python dependencies with spark-submit --py-files/--archives")
        ctx.remove_statement(stmt)
        return ctx.keep(f"{method}(): its statement is removed")
    if isinstance(stmt, cst.Assign):
        setters = _assigned_setters(ctx, stmt)
        if setters is not None:
            for setter, key in setters:
                ctx.note(M.TB_CONFIG, f"Flink setting dropped: {key}")
                ctx.remove_statement(setter)
            ctx.remove_statement(stmt)
            return ctx.keep("a configuration whose settings are all dropped: its statements are removed")
    if not isinstance(stmt, cst.Expr):
        return ctx.todo(M.TB_UNSUPPORTED, "a TableConfig kept or passed on: set Spark settings with spark.conf.set(...) by hand")
    found = _setting(ctx, stmt.value)
    if found is None or not isinstance(found[0], cst.SimpleString):
        return ctx.todo(M.TB_UNSUPPORTED, "a TableConfig call this rule cannot read: set Spark settings with spark.conf.set(...) by hand")
    key = found[0].evaluated_value
    if key in SPARK_CONF and stmt.value.func.value is ctx.outer:
        return ctx.keep("table.local-time-zone: set on the SparkSession by its set() call")
    ctx.note(M.TB_CONFIG, f"Flink setting dropped: {key}")
    ctx.remove_statement(stmt)
    return ctx.keep("a Flink setting: its statement is removed")
