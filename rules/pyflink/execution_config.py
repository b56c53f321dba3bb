"""``env.get_config()`` settings and other engine settings that change no result of the
converted job: removed with a NOTE.

* setters of ``env.get_config()`` (``ExecutionConfig``: auto-watermark interval, object reuse,
  closure cleaner, Kryo/Avro, latency tracking...), called on it directly or on a variable
  holding it whose every use is such a call. ``set_global_job_parameters(...)`` is kept with a
  TODO: functions read those parameters (``get_job_parameter``), the converted ones would get
  the default.
* ``set_stream_time_characteristic(...)`` (PyFlink 1.x): event or processing time is decided by
  the operators that use it.
* ``configure(configuration)``: a Configuration may set the runtime mode (which decides keyed
  aggregations) or anything else: TODO to set what it holds on the SparkSession by hand.
"""

from flink2spark.rules.pyflink import _config_objects as C
from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

_WHY = "Flink execution settings change no result of the converted Spark job"

rule = Rule(
    __name__,
    matches=[
        "StreamExecutionEnvironment.get_config",
        "StreamExecutionEnvironment.configure",
        "StreamExecutionEnvironment.set_stream_time_characteristic",
        *(f"{P.EXECUTION_CONFIG}.{m}" for m in P.METHODS[P.EXECUTION_CONFIG]),
    ],
    summary="get_config().set_...(...) / set_stream_time_characteristic -> removed (NOTE); configure(), set_global_job_parameters: TODO",
    codes=(M.PF_CONFIG, M.PF_UNSUPPORTED),
    examples=[
        Example(
            program("env.get_config().set_auto_watermark_interval(200)\nenv.from_collection([1]).print()\n"),
            spark_program(
                f"# NOTE(flink2spark): F2S248 get_config().set_auto_watermark_interval(): {_WHY}\n"
                'env.createDataFrame([1], "bigint").show(2147483647, truncate=False)\n',
                frames=True,
            ),
        ),
        Example(
            program("env.get_config().set_global_job_parameters(params)\nenv.configure(conf)\n"),
            spark_program(
                "# TODO(flink2spark): F2S200 set_global_job_parameters(): converted functions read job parameters"
                " as their defaults; pass the values to them by hand\n"
                "env.get_config().set_global_job_parameters(params)\n"
                "# TODO(flink2spark): F2S200 configure(configuration): set what it holds on the SparkSession by hand"
                " (execution.runtime-mode decides keyed aggregations)\n"
                "env.configure(conf)\n",
                frames=True,
            ),
        ),
    ],
    noop=["class Env:\n    def get_config(self):\n        return {}\n\n\nEnv().get_config()\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if seg.method == "set_global_job_parameters":
        return ctx.todo(
            M.PF_UNSUPPORTED,
            "set_global_job_parameters(): converted functions read job parameters as their defaults; pass the values to them by hand",
        )
    if seg.method == "configure":
        return ctx.todo(
            M.PF_UNSUPPORTED,
            "configure(configuration): set what it holds on the SparkSession by hand (execution.runtime-mode decides keyed aggregations)",
        )
    return C.convert(ctx, "get_config", P.EXECUTION_CONFIG, M.PF_CONFIG, f"{seg.method}(): {_WHY}")
