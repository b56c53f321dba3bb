"""Kafka source and sink objects: ``KafkaSource.builder()...build()``, ``KafkaSink.builder()...
build()`` (with ``KafkaRecordSerializationSchema.builder()...build()``), the legacy
``FlinkKafkaConsumer(...)`` (and its ``set_start_from_*()`` statements) and
``FlinkKafkaProducer(...)``, and ``KafkaOffsetsInitializer.X(...)`` kept in a variable that
only a converted source reads.

Their (de)serialization schemas (``SimpleStringSchema()``, JSON/CSV/Avro row schemas) too.
They are converted where they are read (``from_source``/``add_source``: a Kafka
``readStream``; ``sink_to``/``add_sink``: a Kafka write, see ``_kafka``). Written in that call,
nothing happens here; kept in a variable whose only use is that call (for a consumer, also
``consumer.set_start_from_*()`` statements, which become ``startingOffsets``), the assignment
and those statements are dropped. Any other use, or settings with no Spark counterpart, stay
with a TODO.
"""

import libcst as cst

from flink2spark.rules.pyflink import _kafka as K
from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import pyflink_model as P
from flink2spark.transpiler.registry import Example, Rule

_CONSUMER_METHODS = sorted(P.METHODS[P.KAFKA_CONSUMER])
_PRODUCER_METHODS = sorted(P.METHODS[P.KAFKA_PRODUCER])

# A Kafka source built where the conversion cannot follow it: kept as written, under a TODO
KEPT_SOURCE = (
    "source = (\n"
    "    KafkaSource.builder()\n"
    '    .set_bootstrap_servers("kafka:9092")\n'
    '    .set_topics("a")\n'
    "    .set_value_only_deserializer(SimpleStringSchema())\n"
    "    .build()\n"
    ")\n"
    "print(source)\n"
)

rule = Rule(
    __name__,
    matches=[
        "KafkaSourceBuilder.builder",
        "KafkaSinkBuilder.builder",
        "KafkaRecordSerializationSchemaBuilder.builder",
        "flink.FlinkKafkaConsumer",
        "flink.FlinkKafkaProducer",
        "flink.SimpleStringSchema",
        "flink.ByteArraySchema",
        "flink.RowFieldExtractorSchema",
        "flink.AvroRowSerializationSchema",
        "flink.AvroRowDeserializationSchema",
        *[f"flink.{m}" for m in P.KAFKA_OFFSETS_METHODS],
        "SerializationSchemaBuilder.builder",
        "SerializationSchemaBuilder.Builder",
        *[f"FlinkKafkaConsumer.{m}" for m in _CONSUMER_METHODS],
        *[f"FlinkKafkaProducer.{m}" for m in _PRODUCER_METHODS],
    ],
    summary="Kafka source/sink objects read by from_source/add_source/sink_to/add_sink: the variable holding one is dropped",
    codes=(M.PF_KAFKA_UNSUPPORTED,),
    examples=[
        Example(
            program(
                KEPT_SOURCE,
                imports="from pyflink.common import SimpleStringSchema\nfrom pyflink.datastream.connectors.kafka import KafkaSource\n",
            ),
            "# TODO(flink2spark): F2S208 SimpleStringSchema from pyflink.common is still used: convert the remaining uses by hand\n"
            "from pyflink.common import SimpleStringSchema\n"
            "# TODO(flink2spark): F2S208 KafkaSource from pyflink.datastream.connectors.kafka is still used: convert the remaining uses by hand\n"
            "from pyflink.datastream.connectors.kafka import KafkaSource\n"
            + spark_program(
                "# TODO(flink2spark): F2S252 a Kafka object used other than as the source/sink of one"
                " from_source/add_source/sink_to/add_sink: convert it by hand\n"
                + KEPT_SOURCE,
                frames=True,
            ),
        ),
    ],
    noop=["class KafkaSource:\n    @staticmethod\n    def builder():\n        return None\n\n\nKafkaSource.builder()\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if seg.method.startswith(("set_", "disable_", "ignore_")):  # a consumer/producer method
        value = ctx.resolver.single_value(seg.original.func.value) if hasattr(seg.original.func.value, "value") else None
        consumer = value is not None and ctx.resolver.type_of(value) == P.KAFKA_CONSUMER
        if consumer and ctx.is_statement and K.check_object(K._Checking(ctx), value) is None:
            return ctx.keep("a setting of a Kafka consumer: read (and dropped) with the consumer where the source reads it")
        return ctx.todo(M.PF_KAFKA_UNSUPPORTED, f"{seg.method}() of a Kafka consumer/producer that is not converted: port it by hand")
    if ctx.resolver.type_of(ctx.outer) in (P.SCHEMA, P.SCHEMA_BUILDER):
        K.drop_schema(ctx, ctx.outer)  # a variable read only by a converted Kafka source/sink
        return ctx.keep("a Kafka (de)serialization schema: converted (or marked) with the Kafka source/sink that reads it")
    if ctx.resolver.type_of(ctx.outer) == P.KAFKA_OFFSETS:
        value = ctx.outer
        parent = ctx.resolver.parent(value)
        if isinstance(parent, cst.IfExp):  # offsets = A.earliest() if c else A.latest()
            value = parent
        K.drop_schema(ctx, value)  # a variable read only by a converted Kafka source
        return ctx.keep("Kafka starting offsets: converted (or marked) with the Kafka source that reads them")
    problem = K.check_object(ctx, ctx.outer)
    if problem is not None:
        return ctx.todo(M.PF_KAFKA_UNSUPPORTED, problem)
    return ctx.keep("a Kafka source/sink or its builder: converted with the from_source()/add_source()/sink_to()/add_sink() that reads it")

