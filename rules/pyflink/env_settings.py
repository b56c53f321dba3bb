"""Environment settings that change no result of a bounded job: dropped.

* ``set_parallelism(n)``, ``set_max_parallelism(n)``, ``set_default_local_parallelism(n)``:
  Spark sizes partitions itself. In Flink the parallelism decides the ``N> `` prefixes of
  ``print()`` and how elements interleave between subtasks, neither of which the converted
  program reproduces (see ``print``): the results are the same.
* ``set_runtime_mode(RuntimeExecutionMode.BATCH|STREAMING|AUTOMATIC)``: the converted job is a
  batch job either way; the mode is read from the whole module by the keyed aggregations
  (``reduce``, ``sum``...), which emit one record per input element in STREAMING mode and one
  per key in BATCH mode. A mode given as an expression is left with a TODO.
* ``set_buffer_timeout``, ``disable_operator_chaining``, ``register_slot_sharing_group``:
  scheduling details.
"""

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.convert import REMOVE
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=[
        "StreamExecutionEnvironment.set_parallelism",
        "StreamExecutionEnvironment.set_max_parallelism",
        "StreamExecutionEnvironment.set_default_local_parallelism",
        "StreamExecutionEnvironment.set_runtime_mode",
        "StreamExecutionEnvironment.set_buffer_timeout",
        "StreamExecutionEnvironment.disable_operator_chaining",
        "StreamExecutionEnvironment.register_slot_sharing_group",
    ],
    summary="set_parallelism/set_runtime_mode/... -> removed (the runtime mode decides keyed aggregations)",
    codes=(M.PF_RUNTIME_MODE, M.PF_UNSUPPORTED),
    examples=[
        Example(
            program(
                "env.set_parallelism(4)\nenv.set_runtime_mode(RuntimeExecutionMode.BATCH)\nenv.set_buffer_timeout(10)\n",
                imports="from pyflink.datastream import RuntimeExecutionMode\n",
            ),
            spark_program("", frames=True),
        ),
        Example(
            program("# keep comments\nenv.set_runtime_mode(MODE)\n"),
            spark_program(
                "# keep comments\n"
                "# TODO(flink2spark): F2S204 set_runtime_mode() with a mode that is not a RuntimeExecutionMode"
                " constant: keyed aggregations need to know it\n"
                "env.set_runtime_mode(MODE)\n",
                frames=True,
            ),
        ),
    ],
    noop=["class Pool:\n    def set_parallelism(self, n):\n        pass\n\n\nPool().set_parallelism(4)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if seg.method == "set_runtime_mode":
        mode = ctx.arg(seg, 0, "execution_mode")
        if mode is None or ctx.qualified(mode[0]) not in P.RUNTIME_MODES:
            return ctx.todo(
                M.PF_RUNTIME_MODE,
                "set_runtime_mode() with a mode that is not a RuntimeExecutionMode constant: keyed aggregations need to know it",
            )
    if not ctx.is_statement:
        return ctx.todo(M.PF_UNSUPPORTED, f"the result of {seg.method}() is used")
    return REMOVE
