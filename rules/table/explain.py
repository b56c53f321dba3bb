"""``print(table.explain())`` -> ``df.explain()``; ``print(t_env.explain_sql("SELECT ..."))``
-> ``spark.sql("SELECT ...").explain()``. Both print a query's plan: debug output, not a sink,
and Spark's plan is not Flink's text (NOTE F2S316). The plan as a string used any other way
(written to a file, searched, returned) keeps a TODO: Spark's ``explain()`` prints and returns
None. ``ExplainDetail`` arguments (the estimated cost, the changelog mode, JSON or the plan advice
of Flink's plan) are dropped: Spark's plan is printed either way, with the NOTE naming them.
"""

import libcst as cst

from flink2spark.rules.table import _sql
from flink2spark.rules.table._common import program, spark_program
from flink2spark.rules.table._program import tables
from flink2spark.rules.table.sql import _sql_call
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["Table.explain", "TableEnvironment.explain_sql"],
    summary="print(table.explain()) / print(t_env.explain_sql(query)) -> df.explain() (Spark's plan)",
    codes=(M.TB_PLAN, M.TB_UNSUPPORTED, M.TB_SQL),
    examples=[
        Example(
            program("words = t_env.from_elements([('a', 1)], ['word', 'n'])\nprint(words.explain())\n"),
            spark_program('words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
                          "# NOTE(flink2spark): F2S316 the plan printed is Spark's, not Flink's\nwords.explain()\n"),
        ),
        Example(  # the details of Flink's plan: Spark's plan is printed, debug output either way
            program("words = t_env.from_elements([('a', 1)], ['word', 'n'])\nprint(words.explain(ExplainDetail.ESTIMATED_COST))\n",
                    imports="from pyflink.table import ExplainDetail\n"),
            spark_program('words = t_env.createDataFrame([("a", 1)], ["word", "n"])\n'
                          "# NOTE(flink2spark): F2S316 the plan printed is Spark's, not Flink's (without Flink's "
                          "ExplainDetail.ESTIMATED_COST)\nwords.explain()\n"),
        ),
    ],
    noop=['import sqlite3\n\nconn = sqlite3.connect(":memory:")\nprint(conn.execute("EXPLAIN SELECT 1").fetchall())\n'],
)


def _printed(ctx) -> "cst.SimpleStatementLine | None":
    """The statement ``print(<the call>)`` (Python's print, the call its only argument)."""
    resolver = ctx.resolver
    arg = resolver.parent(ctx.outer)
    call = resolver.parent(arg) if isinstance(arg, cst.Arg) and arg.keyword is None and arg.star == "" else None
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Name) and call.func.value == "print" and len(call.args) == 1):
        return None
    bindings = resolver.visible_bindings("print", call.func)
    if not bindings or not all(resolver.is_builtin(b) for b in bindings):
        return None
    expr = resolver.parent(call)
    line = resolver.parent(expr) if isinstance(expr, cst.Expr) else None
    return line if isinstance(line, cst.SimpleStatementLine) and len(line.body) == 1 else None


def _detail(ctx, arg: cst.Arg):
    """``ExplainDetail.X`` (pyflink.table's) of an explain argument: "ExplainDetail.X", else None."""
    if arg.keyword is not None or arg.star:
        return None
    name = ctx.qualified(arg.value)
    if name and name.startswith("pyflink.table") and ".ExplainDetail." in name:
        return "ExplainDetail." + name.rsplit(".", 1)[1]
    return None


@rule.converter
def convert(ctx):
    head = ctx.site.head
    line = _printed(ctx)
    if line is None:
        return ctx.todo(M.TB_UNSUPPORTED, f"{head.method}(): the plan text used another way than print() (Spark's "
                        "DataFrame.explain() prints its own plan and returns None)")
    args = list(head.original.args) if head.method == "explain" else list(head.original.args[1:])
    details = [_detail(ctx, a) for a in args]
    if None in details:
        return ctx.todo(M.TB_UNSUPPORTED, f"{head.method}() with arguments other than ExplainDetail members")
    if head.method == "explain":
        plan = ctx.expr("{df}.explain()", df=ctx.site.receiver)
    else:
        model = tables(ctx.resolver)
        text = model.sql(head.original.args[0].value) if head.original.args and not head.original.args[0].keyword else None
        if text is None:
            return ctx.todo(M.TB_UNSUPPORTED, "explain_sql() of SQL not known when converting")
        try:
            if _sql.statement_kind(text.text) != "query":
                return ctx.todo(M.TB_UNSUPPORTED, "explain_sql() of a statement other than a query")
            spark = _sql.query(text.text, model.sql_tables(), model.sql_functions())
        except _sql.Untranslatable as exc:
            return ctx.todo(M.TB_SQL, f"explain_sql(): {exc}")
        plan = ctx.expr("{q}.explain()", q=_sql_call(ctx, ctx.site.receiver, spark, text))
    if details:  # debug output either way: Spark's plan has none of these details
        ctx.note(M.TB_PLAN, f"the plan printed is Spark's, not Flink's (without Flink's {', '.join(sorted(set(details)))})")
    else:
        ctx.note(M.TB_PLAN, "the plan printed is Spark's, not Flink's")
    ctx.rewrite_statement(line, lambda new: new.with_changes(body=[cst.Expr(new.body[0].value.args[0].value)]))
    return plan
