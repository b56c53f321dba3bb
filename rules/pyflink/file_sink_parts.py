"""Parts of a file sink kept in variables: the builder itself
(``builder = FileSink.for_row_format(...)``, then ``builder.with_...(...).build()``),
``OutputFileConfig.builder()...build()`` /
``OutputFileConfig(prefix, suffix)``, ``RollingPolicy.default_rolling_policy(...)`` /
``on_checkpoint_rolling_policy()``, ``BucketAssigner.base_path_bucket_assigner()`` /
``date_time_bucket_assigner(...)``.

Written in the sink builder's ``with_output_file_config``/``with_rolling_policy``/
``with_bucket_assigner``, they are read there (see ``sink_to``). Assigned to a variable whose
every use is such an argument of a file sink that converts, the assignment is dropped. Otherwise
they stay (the sink, or the PyFlink import still used, carries the TODO).
"""

import libcst as cst

from flink2spark.rules.pyflink import _sinks as S
from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

_WITH = ("with_output_file_config", "with_rolling_policy", "with_bucket_assigner")

rule = Rule(
    __name__,
    matches=[
        "flink.builder",
        "flink.for_row_format",
        "flink.OutputFileConfig",
        "flink.default_rolling_policy",
        "flink.on_checkpoint_rolling_policy",
        "flink.base_path_bucket_assigner",
        "flink.date_time_bucket_assigner",
        *(f"{P.OUTPUT_FILE_CONFIG_BUILDER}.{m}" for m in P.METHODS[P.OUTPUT_FILE_CONFIG_BUILDER]),
    ],
    summary="OutputFileConfig / RollingPolicy / BucketAssigner in variables read only by converted file sinks: the variables are dropped",
    codes=(M.PF_PART_FILES,),
    examples=[
        Example(
            program(
                "names = OutputFileConfig.builder().with_part_prefix('day').with_part_suffix('.txt').build()\n"
                "rolling = RollingPolicy.default_rolling_policy(part_size=1024)\n"
                "flat = BucketAssigner.base_path_bucket_assigner()\n"
                "sink = (\n"
                "    FileSink.for_row_format('/out', Encoder.simple_string_encoder())\n"
                "    .with_output_file_config(names)\n"
                "    .with_rolling_policy(rolling)\n"
                "    .with_bucket_assigner(flat)\n"
                "    .build()\n"
                ")\n"
                "env.from_collection(['a'], type_info=Types.STRING()).sink_to(sink)\n",
                imports="from pyflink.common import Encoder, Types\n"
                "from pyflink.datastream.connectors.file_system import BucketAssigner, FileSink, OutputFileConfig, RollingPolicy\n",
            ),
            S.FRAME_HEAD
            + "# NOTE(flink2spark): F2S241 FileSink: the same records in the same folders, in Spark's part files"
            " (part-00000-<uuid>-c000.txt, one per non-empty Spark partition, and _SUCCESS), not Flink's part-file"
            " names <prefix>-<uuid>-<n><suffix> (its OutputFileConfig's part prefix and suffix are not applied)"
            " nor its rolling policy's split of records into files\n"
            'env.createDataFrame(["a"], "string").write.mode("append").text("/out")\n',
        ),
    ],
    noop=["class OutputFileConfig:\n    @staticmethod\n    def builder():\n        return 1\n\n\nnames = OutputFileConfig.builder()\n"],
)


def _feeds_converted_sink(ctx, name_node: cst.Name) -> bool:
    """Whether this use of the variable is an argument of ``with_...`` in a file sink chain whose
    ``sink_to``/``add_sink`` converts."""
    resolver = ctx.resolver
    parent = resolver.parent(name_node)
    if isinstance(parent, cst.Attribute) and parent.value is name_node:  # builder.with_...(...) / builder.build()
        call = resolver.parent(parent)
        if not (isinstance(call, cst.Call) and call.func is parent and resolver.type_of(name_node) in S.SINK_BUILDERS):
            return False
    else:
        call = resolver.parent(parent) if isinstance(parent, cst.Arg) else None
        if not (isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in _WITH):
            return False
        if resolver.type_of(call.func.value) not in S.SINK_BUILDERS:
            return False
    node: cst.CSTNode = call
    while True:  # up the builder chain to its build()
        attr = resolver.parent(node)
        outer = resolver.parent(attr) if isinstance(attr, cst.Attribute) and attr.value is node else None
        if not (isinstance(outer, cst.Call) and outer.func is attr):
            break
        node = outer
    if not (isinstance(node, cst.Call) and node.func.attr.value == "build"):  # type: ignore[attr-defined]
        return False
    found = S.consumed_by_sink(ctx, node)
    if found is None:
        return False
    sink_call = found[1]
    return S.sink_problem(ctx, sink_call, S.sink_argument(sink_call)) is None


_KEPT = "a part of a FileSink (its rolling policy, part file names...): converted (or marked) with the sink_to()/add_sink() that reads the sink"


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if ctx.site.receiver_type == P.OUTPUT_FILE_CONFIG_BUILDER and seg.method != "build":
        return ctx.keep(_KEPT)
    resolver = ctx.resolver
    assign = resolver.parent(ctx.outer)
    if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name)):
        return ctx.keep(_KEPT)  # read where it is written
    target = assign.targets[0].target
    assignments = resolver.scope_bindings(target) or []
    if len(assignments) != 1 or not assignments[0].references:
        return ctx.keep(_KEPT)
    if all(_feeds_converted_sink(ctx, ref.node) for ref in assignments[0].references):
        ctx.remove_statement(assign)
    return ctx.keep(_KEPT)
