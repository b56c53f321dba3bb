"""``env.add_source(source_function)`` and ``env.create_input(input_format)``: Java sources.

PyFlink's SourceFunctions (``FlinkKafkaConsumer``, ``RMQSource``...) and InputFormats wrap Java
classes that Spark cannot run; the data has to be read with Spark's own readers
(``spark.read``, ``spark.readStream``): TODO naming them.
"""

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["StreamExecutionEnvironment.add_source", "StreamExecutionEnvironment.create_input"],
    summary="add_source(SourceFunction) / create_input(InputFormat) -> TODO (read with spark.read/readStream)",
    codes=(M.PF_JAVA_CONNECTOR,),
    examples=[
        Example(
            program("events = env.add_source(consumer, 'events')\n"),
            spark_program(
                "# TODO(flink2spark): F2S247 add_source(): a Java SourceFunction has no Spark counterpart;"
                " read the data with spark.read (bounded) or spark.readStream (unbounded) by hand\n"
                "events = env.add_source(consumer, \"events\")\n"
            ),
        ),
    ],
    noop=["class Env:\n    def add_source(self, s):\n        return s\n\n\nEnv().add_source(1)\n"],
)


@rule.converter
def convert(ctx):
    method = ctx.site.head.method
    what = "a Java SourceFunction" if method == "add_source" else "a Java InputFormat"
    ctx.todo(
        M.PF_JAVA_CONNECTOR,
        f"{method}(): {what} has no Spark counterpart; read the data with spark.read (bounded) or spark.readStream (unbounded) by hand",
    )
    return None
