"""``env.add_source(source_function)`` and ``env.create_input(input_format)``: Java sources.

PyFlink's SourceFunctions (``FlinkKafkaConsumer``, ``RMQSource``...) and InputFormats wrap Java
classes that Spark cannot run; the data has to be read with Spark's own readers
(``spark.read``, ``spark.readStream``): TODO naming them.

Except ``FlinkKafkaConsumer(topics, schema, properties)``: it becomes a Kafka ``readStream``
(see ``_kafka``). The legacy consumer reads from the consumer group's committed offsets
(falling back to ``auto.offset.reset``, Kafka's default ``latest``) unless
``set_start_from_earliest()``/``latest()``/``timestamp(ms)`` says otherwise; Spark keeps offsets
in the query's checkpoint and never reads committed ones, so without an explicit start the
conversion starts from ``auto.offset.reset`` (NOTE F2S256).
"""

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import call_arg, program, spark_head, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["StreamExecutionEnvironment.add_source", "StreamExecutionEnvironment.create_input"],
    summary="add_source(SourceFunction) / create_input(InputFormat) -> TODO (read with spark.read/readStream)",
    codes=(M.PF_JAVA_CONNECTOR, M.PF_KAFKA_UNSUPPORTED, M.PF_KAFKA_OFFSETS, M.PF_KAFKA_PACKAGE, M.PF_KAFKA_FORMAT),
    examples=[
        Example(
            program(
                "consumer = FlinkKafkaConsumer('events', SimpleStringSchema(), {'bootstrap.servers': 'kafka:9092'})\n"
                "consumer.set_start_from_earliest()\n"
                "env.add_source(consumer).print()\n",
                imports="from pyflink.common import SimpleStringSchema\nfrom pyflink.datastream.connectors.kafka import FlinkKafkaConsumer\n",
            ),
            "from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\n"
            "from pyspark.sql import SparkSession, functions as F\n"
            + spark_head('the source `.add_source()` at line 8 has no DataFrame form (a typed from_collection and a bounded text file source have one)')
            + "\n\ndef print_batch(batch):\n    for record in batch.collect():\n        print(record)\n\n\n"
            + "# NOTE(flink2spark): F2S250 " + K.PACKAGE_NOTE + "\n"
            "# NOTE(flink2spark): F2S253 " + K.MICRO_BATCH_NOTE + "\n"
            "# NOTE(flink2spark): F2S251 " + K.CHECKPOINT_NOTE + "\n"
            "f2s_stream.foreach_batch(\n"
            "    f2s_stream.micro_batches(\n"
            '        env.readStream.format("kafka")\n'
            '        .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '        .option("subscribe", "events")\n'
            '        .option("startingOffsets", "earliest")\n'
            "        .load()\n"
            '        .select(F.col("value").cast("string").alias("value")),\n'
            "        f2s.Types.STRING(),\n"
            "    ),\n"
            "    print_batch,\n"
            ').option("checkpointLocation", f2s_stream.checkpoint("print")).start()\n',
        ),
        Example(
            program("events = env.add_source(consumer, \"events\")\n"),
            spark_program(
                "# TODO(flink2spark): F2S247 add_source(): a Java SourceFunction has no Spark counterpart;"
                " read the data with spark.read (bounded) or spark.readStream (unbounded) by hand\n"
                "events = env.add_source(consumer, \"events\")\n",
                rdd='the source `.add_source()` at line 4 has no DataFrame form (a typed from_collection and a bounded text file source have one)',
            ),
        ),
    ],
    noop=["class Env:\n    def add_source(self, s):\n        return s\n\n\nEnv().add_source(1)\n"],
)


@rule.converter
def convert(ctx):
    method = ctx.site.head.method
    source = call_arg(ctx.site.head.original, 0, "source_func")
    if method == "add_source" and K.is_kafka_source(ctx.resolver, source):
        converted = K.convert_source(ctx, ctx.site.receiver, source)
        return ctx.todo_left() if converted is None else converted
    what = "a Java SourceFunction" if method == "add_source" else "a Java InputFormat"
    return ctx.todo(
        M.PF_JAVA_CONNECTOR,
        f"{method}(): {what} has no Spark counterpart; read the data with spark.read (bounded) or spark.readStream (unbounded) by hand",
    )
