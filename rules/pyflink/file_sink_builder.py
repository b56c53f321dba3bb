"""``FileSink.for_row_format(...)...build()`` / ``StreamingFileSink...build()``: sink objects that
only ``sink_to``/``add_sink`` read.

Written in ``stream.sink_to(...)``, they are converted there (see ``sink_to``). Built into a
variable whose only use is ``stream.sink_to(variable)`` (or ``add_sink``), the assignment is
dropped when the sink converts. Any other use stays with a TODO. The builder's ``with_...``
calls change nothing by themselves: the sink reads them.
"""

import libcst as cst

from flink2spark.rules.pyflink import _sinks as S
from flink2spark.rules.pyflink._common import left_with_todo, program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=[f"{t}.{m}" for t in S.SINK_BUILDERS for m in P.METHODS[t]],
    summary="file sink builders read by sink_to()/add_sink(): the variable holding one is dropped",
    codes=(M.PF_FILE_UNSUPPORTED,),
    examples=[
        Example(
            program(
                "sink = FileSink.for_row_format(\"/out\", Encoder.simple_string_encoder()).build()\nprint(sink)\n",
                imports="from pyflink.common import Encoder\nfrom pyflink.datastream.connectors.file_system import FileSink\n",
            ),
            "# TODO(flink2spark): F2S208 Encoder from pyflink.common is still used: convert the remaining uses by hand\n"
            "from pyflink.common import Encoder\n"
            "# TODO(flink2spark): F2S208 FileSink from pyflink.datastream.connectors.file_system is still used:"
            " convert the remaining uses by hand\n"
            "from pyflink.datastream.connectors.file_system import FileSink\n"
            + spark_program(
                "# TODO(flink2spark): F2S240 a file sink used other than as the sink of sink_to()/add_sink(): convert it by hand\n"
                "sink = FileSink.for_row_format(\"/out\", Encoder.simple_string_encoder()).build()\n"
                "print(sink)\n",
                frames=True,
            ),
        ),
    ],
    noop=["class Builder:\n    def build(self):\n        return 1\n\n\nBuilder().build()\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if seg.method != "build":
        return ctx.keep("part of a FileSink builder: converted with the sink_to()/add_sink() that reads the sink")
    call = seg.original
    found = S.consumed_by_sink(ctx, call)
    if found is None and S.consumed_as(ctx, call, lambda resolver, arg: _sink_of_table_stream(ctx, arg)) is not None:
        return ctx.keep("the sink of a stream from the Table API: its sink_to() carries the TODO (F2S210)")
    if found is None and S.consumed_as(ctx, call, lambda resolver, arg: left_with_todo(ctx, arg, ("sink_to", "add_sink"))) is not None:
        return ctx.keep("a converted program: the sink_to() that reads the sink kept its TODO")
    if found is None:
        return ctx.todo(M.PF_FILE_UNSUPPORTED, "a file sink used other than as the sink of sink_to()/add_sink(): convert it by hand")
    where, sink_call = found
    if where is not call and S.sink_problem(ctx, sink_call, S.sink_argument(sink_call)) is None and S.is_file_sink(ctx.resolver, call):
        ctx.remove_statement(where)  # `sink = ...build()` read only by sink_to(sink), which converts it
    return ctx.keep("a FileSink: converted (or marked) with the sink_to()/add_sink() that reads it")


def _sink_of_table_stream(ctx, arg: cst.Arg) -> bool:
    """``arg`` is the sink of ``stream.sink_to``/``add_sink`` on a stream from the Table API."""
    call = ctx.resolver.parent(arg)
    if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in ("sink_to", "add_sink")):
        return False
    return call.args[0] is arg and ctx.conv.table_bridge(call.func.value) is not None
