"""``env.execute_async([job_name])`` is dropped with a NOTE: the converted sinks are Spark
actions that ran where they stand, so the job has finished (synchronously) when the program
reaches this point.

Waiting for the job, ``<client>.get_job_execution_result().result()`` as a statement (on the
call itself or on a variable holding the JobClient whose every use is such a wait), is dropped
with it. Any other use of the ``JobClient`` (job id, status, cancel, savepoints, accumulators)
or of the execution result has no counterpart: TODO.

(On Flink, a script that never waits may end before the job has printed or written anything;
the converted program always runs the job.)
"""

import libcst as cst

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.convert import REMOVE
from flink2spark.transpiler.registry import Example, Rule

_NOTE = "execute_async(): the converted job's actions already ran, synchronously, where its sinks stand"

rule = Rule(
    __name__,
    matches=[
        "StreamExecutionEnvironment.execute_async",
        *(f"{P.JOB_CLIENT}.{m}" for m in P.METHODS[P.JOB_CLIENT]),
        *(f"{P.FUTURE}.{m}" for m in P.METHODS[P.FUTURE]),
    ],
    summary="env.execute_async(name) and waiting on its JobClient -> removed (NOTE: the Spark actions ran synchronously); other JobClient uses: TODO",
    exact=False,
    codes=(M.PF_ASYNC, M.PF_EXEC_RESULT),
    examples=[
        Example(
            program("env.from_collection([1]).print()\nenv.execute_async('job')\n"),
            spark_program(
                'env.createDataFrame([1], "bigint").show(2147483647, truncate=False)\n'
                f"# NOTE(flink2spark): F2S245 {_NOTE}\n",
                frames=True,
            ),
        ),
        Example(
            program(
                "env.from_collection([1]).print()\n"
                "client = env.execute_async('job')\n"
                "# wait for it\n"
                "client.get_job_execution_result().result()\n"
                "env.execute_async().get_job_execution_result().result()\n"
            ),
            spark_program(
                'env.createDataFrame([1], "bigint").show(2147483647, truncate=False)\n'
                f"# NOTE(flink2spark): F2S245 {_NOTE}\n"
                "# wait for it\n"
                f"# NOTE(flink2spark): F2S245 {_NOTE}\n",
                frames=True,
            ),
        ),
        Example(
            program("client = env.execute_async(\"job\")\nprint(client.get_job_id())\n"),
            spark_program(
                "# TODO(flink2spark): F2S206 execute_async() result used other than to wait for the job:"
                " Spark has no JobClient; the actions run synchronously\n"
                "client = env.execute_async(\"job\")\n"
                "# TODO(flink2spark): F2S206 JobClient.get_job_id(): Spark has no JobClient\n"
                "print(client.get_job_id())\n",
                frames=True,
            ),
        ),
    ],
    noop=["class Job:\n    def execute_async(self, name=None):\n        pass\n\n\nJob().execute_async('job')\n"],
)


def _waits(resolver, client: cst.BaseExpression) -> bool:
    """``client.get_job_execution_result().result()`` as a statement."""
    attr = resolver.parent(client)
    if not (isinstance(attr, cst.Attribute) and attr.value is client and attr.attr.value == "get_job_execution_result"):
        return False
    call = resolver.parent(attr)
    outer = resolver.parent(call) if isinstance(call, cst.Call) and not call.args else None
    if not (isinstance(outer, cst.Attribute) and outer.attr.value == "result"):
        return False
    result = resolver.parent(outer)
    return isinstance(result, cst.Call) and not result.args and isinstance(resolver.parent(result), cst.Expr)


def _only_waited_on(ctx, target: cst.Name) -> bool:
    assignments = ctx.resolver.scope_bindings(target) or []
    return len(assignments) == 1 and all(_waits(ctx.resolver, ref.node) for ref in assignments[0].references)


def _client_source_waited(ctx, client: cst.BaseExpression) -> bool:
    """Whether the JobClient is an ``execute_async()`` call or a variable only waited on."""
    resolver = ctx.resolver
    if isinstance(client, cst.Name):
        value = resolver.single_value(client)
        parent = resolver.parent(value) if value is not None else None
        return isinstance(parent, cst.Assign) and _only_waited_on(ctx, parent.targets[0].target)  # type: ignore[arg-type]
    return isinstance(client, cst.Call) and isinstance(client.func, cst.Attribute) and client.func.attr.value == "execute_async"


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    resolver = ctx.resolver
    if ctx.site.receiver_type == P.ENVIRONMENT:
        if ctx.is_statement:
            ctx.note(M.PF_ASYNC, _NOTE)
            return REMOVE
        if _waits(resolver, ctx.outer):
            ctx.note(M.PF_ASYNC, _NOTE)
            return ctx.keep("execute_async() waited on at once: the wait's statement (get_job_execution_result().result()) is removed")
        parent = resolver.parent(ctx.outer)
        if isinstance(parent, cst.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0].target, cst.Name):
            if _only_waited_on(ctx, parent.targets[0].target):
                ctx.note(M.PF_ASYNC, _NOTE)
                ctx.remove_statement(parent)
                return ctx.keep("a JobClient only waited on: its assignment is removed, and so are the waits")
        return ctx.todo(M.PF_EXEC_RESULT, "execute_async() result used other than to wait for the job: Spark has no JobClient; the actions run synchronously")
    receiver = seg.original.func.value  # type: ignore[attr-defined]
    if ctx.site.receiver_type == P.JOB_CLIENT and seg.method == "get_job_execution_result" and _waits(resolver, receiver):
        if _client_source_waited(ctx, receiver):
            return ctx.keep("part of the wait for a job that has already run: the result() call removes its statement")
    if ctx.site.receiver_type == P.FUTURE and seg.method == "result" and ctx.is_statement:
        client = receiver.func.value if isinstance(receiver, cst.Call) and isinstance(receiver.func, cst.Attribute) else None
        if client is not None and _waits(resolver, client) and _client_source_waited(ctx, client):
            return REMOVE  # waiting for a job that has already run
    return ctx.todo(M.PF_EXEC_RESULT, f"{ctx.site.receiver_type}.{seg.method}(): Spark has no JobClient")
