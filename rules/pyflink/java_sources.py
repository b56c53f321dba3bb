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
from flink2spark.rules.pyflink._common import call_arg, program, spark_program
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
            # a streaming DataFrame (the program model's frame form): readStream, the console sink
            "from flink2spark.runtime import streaming as f2s_stream\n"
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "# NOTE(flink2spark): F2S250 " + K.PACKAGE_NOTE + "\n"
            "# NOTE(flink2spark): F2S251 " + K.CHECKPOINT_NOTE + "\n"
            'env.readStream.format("kafka").option("kafka.bootstrap.servers", "kafka:9092").option(\n'
            '    "subscribe", "events"\n'
            ').option("startingOffsets", "earliest").load().select(\n'
            '    F.col("value").cast("string").alias("value")\n'
            ').writeStream.format("console").option("numRows", 2147483647).option(\n'
            '    "truncate", False\n'
            ').option("checkpointLocation", f2s_stream.checkpoint("print")).start()\n',
        ),
        Example(  # an Avro record of frame types: from_avro(...).select("value.*"), a streaming DataFrame of its fields
            program(
                'SCHEMA = \'{"type": "record", "name": "U", "fields": [{"name": "n", "type": "string"}, {"name": "v", "type": "long"}]}\'\n'
                "consumer = FlinkKafkaConsumer('users', AvroRowDeserializationSchema(avro_schema_string=SCHEMA), {'bootstrap.servers': 'kafka:9092'})\n"
                'consumer.set_start_from_earliest()\n'
                'env.add_source(consumer).print()\n',
                imports=(
                'from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer\n'
                'from pyflink.datastream.formats.avro import AvroRowDeserializationSchema\n'
                ),
            ),
            'from flink2spark.runtime import streaming as f2s_stream\n'
            'from pyspark.sql import SparkSession, functions as F\n'
            'from pyspark.sql.avro.functions import from_avro\n'
            '\n'
            'env = SparkSession.builder.getOrCreate()\n'
            'SCHEMA = \'{"type": "record", "name": "U", "fields": [{"name": "n", "type": "string"}, {"name": "v", "type": "long"}]}\'\n'
            '# NOTE(flink2spark): F2S250 the Kafka connector is not part of PySpark: run with spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<your Spark version> and org.apache.spark:spark-avro_2.13:<your Spark version> (from_avro/to_avro)\n'
            '# NOTE(flink2spark): F2S251 streaming query checkpoint: f2s_stream.checkpoint() is a fresh temporary folder per run (the job starts from its starting offsets, as a newly submitted Flink job); set F2S_CHECKPOINT_DIR to a durable folder to resume across runs\n'
            'env.readStream.format("kafka").option("kafka.bootstrap.servers", "kafka:9092").option(\n'
            '    "subscribe", "users"\n'
            ').option("startingOffsets", "earliest").load().select(\n'
            '    from_avro(F.col("value"), SCHEMA).alias("value")\n'
            ').select("value.*").writeStream.format("console").option("numRows", 2147483647).option(\n'
            '    "truncate", False\n'
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
