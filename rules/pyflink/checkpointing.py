"""Checkpointing and fault-tolerance settings: removed with a NOTE.

* ``enable_checkpointing(interval[, mode])``, ``enable_changelog_state_backend(...)``,
  ``set_default_savepoint_directory(dir)``, ``set_state_backend(...)`` (1.x) and the setters of
  ``env.get_checkpoint_config()`` (called on it directly, or on a variable holding it whose
  every use is such a call): the converted program is a bounded Spark batch job, which has no
  checkpoints and recomputes lost partitions from their lineage. (A Structured Streaming query
  takes ``option("checkpointLocation", path)`` instead.)
* ``set_restart_strategy(...)`` (1.x): Spark retries failed tasks by itself
  (``spark.task.maxFailures``).

Reading a setting (``get_checkpoint_interval()``, ``is_checkpointing_enabled()``...) has no
Spark counterpart: TODO.
"""

from flink2spark.rules.pyflink import _config_objects as C
from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

_WHY = (
    "the converted job is a bounded Spark batch job without checkpoints (lost partitions are recomputed);"
    " a Structured Streaming query takes option('checkpointLocation', path)"
)

rule = Rule(
    __name__,
    matches=[
        "StreamExecutionEnvironment.enable_checkpointing",
        "StreamExecutionEnvironment.enable_changelog_state_backend",
        "StreamExecutionEnvironment.set_default_savepoint_directory",
        "StreamExecutionEnvironment.set_state_backend",
        "StreamExecutionEnvironment.set_restart_strategy",
        "StreamExecutionEnvironment.get_checkpoint_config",
        *(f"{P.CHECKPOINT_CONFIG}.{m}" for m in P.METHODS[P.CHECKPOINT_CONFIG]),
    ],
    summary="enable_checkpointing / get_checkpoint_config().set_... / set_restart_strategy -> removed (NOTE: no checkpoints in a batch job)",
    codes=(M.PF_CHECKPOINTING, M.PF_UNSUPPORTED),
    examples=[
        Example(
            program(
                "env.enable_checkpointing(10000, CheckpointingMode.EXACTLY_ONCE)\n"
                "env.get_checkpoint_config().set_min_pause_between_checkpoints(500)\n"
                "checkpoints = env.get_checkpoint_config()\n"
                "checkpoints.set_checkpoint_timeout(60000)\n"
                "checkpoints.set_max_concurrent_checkpoints(1)\n"
                "env.from_collection([1]).print()\n",
                imports="from pyflink.datastream import CheckpointingMode\n",
            ),
            spark_program(
                f"# NOTE(flink2spark): F2S244 enable_checkpointing(): {_WHY}\n"
                f"# NOTE(flink2spark): F2S244 get_checkpoint_config().set_min_pause_between_checkpoints(): {_WHY}\n"
                f"# NOTE(flink2spark): F2S244 get_checkpoint_config(): {_WHY}\n"
                'env.createDataFrame([1], "bigint").show(2147483647, truncate=False)\n',
                frames=True,
            ),
        ),
        Example(
            program("interval = env.get_checkpoint_config().get_checkpoint_interval()\n"),
            spark_program(
                "# TODO(flink2spark): F2S200 CheckpointConfig.get_checkpoint_interval(): a Flink setting read back has no Spark counterpart\n"
                "interval = env.get_checkpoint_config().get_checkpoint_interval()\n",
                frames=True,
            ),
        ),
    ],
    noop=["class Env:\n    def enable_checkpointing(self, ms):\n        pass\n\n\nEnv().enable_checkpointing(100)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if seg.method == "set_restart_strategy":
        return C.drop(ctx, M.PF_CHECKPOINTING, "set_restart_strategy(): Spark retries failed tasks itself (spark.task.maxFailures)")
    return C.convert(ctx, "get_checkpoint_config", P.CHECKPOINT_CONFIG, M.PF_CHECKPOINTING, f"{seg.method}(): {_WHY}")
