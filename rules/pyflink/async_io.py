"""``AsyncDataStream.ordered_wait/unordered_wait[_with_retry](stream, AsyncFunction(), timeout,
[retry_strategy,] capacity, output_type)`` on a bounded stream -> ``f2s.async_wait(rdd, fn,
timeout, capacity=..., ordered=..., retry=...)`` (``runtime/async_io.py``): each Spark partition
runs ``open()``, then ``await async_invoke(value)`` for its elements, ``capacity`` at a time on
an asyncio loop, each within the timeout (``timeout(value)`` when it passes) and retried as the
strategy says, then ``close()``, as PyFlink's Python worker does. The user's class keeps its
code; its base (``AsyncFunction``) and the retry strategy become the shim's.

``unordered_wait`` gives the results in input order (NOTE F2S238: Flink gives them as the
requests complete). An unbounded stream, a stream with event timestamps, or a function that is
not an ``AsyncFunction`` class of this module stays with a TODO.
"""

import libcst as cst

from flink2spark.rules.pyflink._common import as_stream, decoded_output, instance_class, program, spark_program
from flink2spark.rules.pyflink._process import context_problem
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

ASYNC_FUNCTIONS = {f"{m}.AsyncFunction" for m in ("pyflink.datastream", "pyflink.datastream.functions")}

rule = Rule(
    __name__,
    matches=[f"flink.{m}" for m in P.ASYNC_WAITS],
    summary="AsyncDataStream.*_wait*(stream, AsyncFunction(), timeout, ...) -> f2s.async_wait(rdd, fn, timeout, ...) (asyncio per partition)",
    codes=(M.PF_UNSUPPORTED, M.PF_TABLE_STREAM, M.PF_FUNCTION, M.PF_EVENT_TIME, M.PF_UNBOUNDED_STATE, M.PF_ASYNC_ORDER),
    examples=[
        Example(
            program(
                "\n\nclass Lookup(AsyncFunction):\n"
                "    async def async_invoke(self, value):\n"
                "        await asyncio.sleep(0.01)\n"
                "        return [value * 2]\n\n\n"
                "numbers = env.from_collection([1, 2, 3], type_info=Types.INT())\n"
                "doubled = AsyncDataStream.ordered_wait(numbers, Lookup(), Time.seconds(5), 10, Types.INT())\n",
                imports="import asyncio\n\nfrom pyflink.common import Time, Types\nfrom pyflink.datastream import AsyncDataStream, AsyncFunction\n",
            ),
            spark_program(
                "\n\nclass Lookup(f2s.AsyncFunction):\n"
                "    async def async_invoke(self, value):\n"
                "        await asyncio.sleep(0.01)\n"
                "        return [value * 2]\n\n\n"
                "numbers = env.sparkContext.parallelize([1, 2, 3])\n"
                "doubled = f2s.async_wait(numbers, Lookup(), f2s.Time.seconds(5), capacity=10)\n",
                imports="import asyncio\n",
                shim=True,
                rdd='`AsyncDataStream.ordered_wait()` at line 17 has no DataFrame form',
            ),
        ),
    ],
    noop=["class AsyncDataStream:\n    @staticmethod\n    def ordered_wait(*args):\n        return args\n\n\nAsyncDataStream.ordered_wait(1, 2, 3)\n"],
)


def _async_class(ctx, original: cst.BaseExpression):
    """The class of ``Cls(...)`` (or a name bound to one) when it is a class of this module
    deriving directly from PyFlink's ``AsyncFunction``."""
    cls = instance_class(ctx.resolver, original)
    for base in cls.bases if cls is not None else ():
        value = base.value.value if isinstance(base.value, cst.Subscript) else base.value  # AsyncFunction[IN, OUT]
        if ctx.resolver.qualified_name(value) in ASYNC_FUNCTIONS:
            return cls
    return None


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    method = seg.method
    retry = method.endswith("_with_retry")
    stream = ctx.arg(seg, 0, "data_stream")
    function = ctx.arg(seg, 1, "async_function")
    timeout = ctx.arg(seg, 2, "timeout")
    if stream is None or function is None or timeout is None:
        return ctx.todo(M.PF_UNSUPPORTED, f"AsyncDataStream.{method}(): the stream, function or timeout argument was not found")
    bridge = ctx.conv.table_bridge(stream[0])
    if bridge is not None:
        return ctx.todo(ctx.conv.codes["table_stream"], ctx.conv.table_stream_message(f"AsyncDataStream.{method}()", bridge), seg.original)
    if facts(ctx.resolver, stream[0]).micro_batches:
        return ctx.todo(M.PF_UNBOUNDED_STATE, f"AsyncDataStream.{method}() on an unbounded stream is not converted: run the requests of each micro-batch in foreachBatch by hand")
    if facts(ctx.resolver, stream[0]).timestamped:
        return ctx.todo(M.PF_EVENT_TIME, f"AsyncDataStream.{method}() on a stream with event timestamps: not converted yet")
    cls = _async_class(ctx, function[0])
    if cls is None:
        return ctx.todo(M.PF_FUNCTION, f"AsyncDataStream.{method}(): the function is not an AsyncFunction class of this module; convert it by hand")
    problem = context_problem(cls)
    if problem is not None:
        return ctx.todo(M.PF_FUNCTION, f"{cls.name.value}: {problem}; convert it by hand")
    args = [cst.Arg(as_stream(ctx, stream[1], ctx.resolver.type_of(stream[0]))), cst.Arg(function[1]), cst.Arg(timeout[1])]
    capacity = ctx.arg(seg, 4 if retry else 3, "capacity")
    if capacity is not None:
        args.append(cst.Arg(capacity[1], keyword=cst.Name("capacity")))
    if method.startswith("unordered"):
        args.append(cst.Arg(cst.Name("False"), keyword=cst.Name("ordered")))
        ctx.note(M.PF_ASYNC_ORDER, f"{method}(): the results come in the order of the input elements (Flink: as the requests complete); same records")
    if retry:
        strategy = ctx.arg(seg, 3, "async_retry_strategy")
        if strategy is None:
            return ctx.todo(M.PF_UNSUPPORTED, f"AsyncDataStream.{method}(): no retry strategy found")
        args.append(cst.Arg(strategy[1], keyword=cst.Name("retry")))
    return decoded_output(ctx, cst.Call(func=ctx.shim("async_wait"), args=args))
