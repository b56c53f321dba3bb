"""``config = Configuration()`` with ``config.set_string/set_integer/...("key", value)``
statements, given to ``StreamExecutionEnvironment.get_execution_environment(config)``.

``execution.runtime-mode`` (a literal ``batch``/``streaming``/``automatic``) is read by the keyed
aggregations as ``set_runtime_mode`` is. Every other key (parallelism, Python worker settings,
``pipeline.jars``, checkpointing, state backends, network and memory sizes...) changes no
result of the converted job: the variable and its setters are dropped and the environment line
carries a NOTE naming the keys (set Spark's own counterparts on the session builder if needed).
A configuration with keys that are not literals, or used in other ways, stays with a TODO (see
``environment``).
"""

from flink2spark.rules.pyflink import _configuration as C
from flink2spark.rules.pyflink._common import IMPORT, SPARK_IMPORT, rdd_note
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.convert import REMOVE
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["flink.Configuration", *(f"{P.CONFIGURATION}.{m}" for m in P.METHODS[P.CONFIGURATION])],
    summary="Configuration() with set_*(key, value) given to get_execution_environment: dropped (NOTE naming the keys); execution.runtime-mode is read",
    exact=False,
    codes=(M.PF_CONFIG,),
    examples=[
        Example(
            "from pyflink.common import Configuration\n"
            + IMPORT
            + "\nconfig = Configuration()\n"
            "config.set_string('execution.runtime-mode', 'batch')\n"
            "config.set_integer('python.fn-execution.bundle.size', 1000)\n"
            "env = StreamExecutionEnvironment.get_execution_environment(config)\n"
            "env.from_collection([('a', 1), ('a', 2)]).key_by(lambda p: p[0]).sum(1).print()\n",
            "from flink2spark.runtime import datastream as f2s\n"
            + SPARK_IMPORT
            + "\n"
            + "# NOTE(flink2spark): F2S248 get_execution_environment(configuration): Flink settings dropped:"
            " python.fn-execution.bundle.size (execution.runtime-mode is read by keyed aggregations)\n"
            + rdd_note('the source `.from_collection()` at line 8 has no type_info (no DataFrame schema)')
            + "env = SparkSession.builder.getOrCreate()\n"
            "for record in f2s.final_reduce(\n"
            '    env.sparkContext.parallelize([("a", 1), ("a", 2)]).keyBy(lambda p: p[0]), f2s.Sum(1)\n'
            ").collect():\n"
            "    print(record)\n",
        ),
    ],
    noop=["class Configuration:\n    def set_string(self, k, v):\n        pass\n\n\nc = Configuration()\nc.set_string('a', 'b')\n"],
)


@rule.converter
def convert(ctx):
    resolver = ctx.resolver
    if ctx.site.receiver_type == P.CONFIGURATION:
        receiver = ctx.site.head.original.func.value  # type: ignore[attr-defined]
        if ctx.is_statement and C.settings(ctx, receiver) is not None:
            return REMOVE
        return ctx.keep("a setting of a Configuration get_execution_environment() cannot take over: its TODO (or the Flink import's, F2S208) covers it")
    assign = resolver.parent(ctx.outer)
    if C.assigned_settings(ctx, assign) is not None:
        ctx.remove_statement(assign)
        return ctx.keep("Configuration() whose settings get_execution_environment() reads: its statement is removed")
    return ctx.keep("a Configuration get_execution_environment() cannot take over: its TODO (or the Flink import's, F2S208) covers it")
