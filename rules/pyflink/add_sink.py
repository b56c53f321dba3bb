"""``stream.add_sink(sink_function)``: the SinkFunction API (Java sinks wrapped by PyFlink).

``StreamingFileSink.for_row_format(path, Encoder.simple_string_encoder())...build()`` writes
the same records as ``FileSink`` and converts the same way (see ``sink_to``), with its own part
names ``<prefix>-<subtask>-<counter><suffix>``: ``f2s_io.write_rows(rdd, path, type_info, ...,
part_names="subtask")`` (a DataFrame: ``df.write.mode("append").text(path)``, Spark's names). Recorded on Flink 2.3: it commits part files only at checkpoints, so a
bounded job without checkpointing leaves them hidden as in-progress files; the converted job
writes them committed (NOTE F2S241 says so). ``FlinkKafkaProducer`` converts as
``sink_to(KafkaSink)`` does (rules/pyflink/_kafka.py: of a DataFrame ``writeStream``/``write``
``.format("kafka")``). Every other SinkFunction (JDBC, RabbitMQ, Elasticsearch...) wraps a Java
sink that Spark cannot run: TODO to write the RDD/DataFrame with Spark's own writer by hand.
"""

from flink2spark.rules.pyflink import _sinks as S
from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.add_sink"],
    summary="add_sink(FlinkKafkaProducer) of a DataFrame -> writeStream.format('kafka') (bounded: write.format('kafka')), else as sink_to(KafkaSink); add_sink(StreamingFileSink.for_row_format(...)...) -> f2s_io.write_rows(...) (a DataFrame: df.write.mode('append').text(path), Spark's part-file names; other than strings F.format_string of Java's toString); other SinkFunctions: TODO",
    exact=False,
    codes=(M.PF_PART_FILES, M.PF_TIME_BUCKET, M.PF_FILE_UNSUPPORTED, M.PF_JAVA_CONNECTOR, M.PF_UNSUPPORTED)
    + (M.PF_KAFKA_UNSUPPORTED, M.PF_KAFKA_PACKAGE, M.PF_MICRO_BATCH, M.PF_CHECKPOINT),
    examples=[
        Example(  # FlinkKafkaConsumer to FlinkKafkaProducer of a streaming DataFrame: readStream, Columns, writeStream.format("kafka")
            program(
                "READING = Types.ROW_NAMED(['id', 'v'], [Types.STRING(), Types.INT()])\n"
                "consumer = FlinkKafkaConsumer('in', JsonRowDeserializationSchema.builder().type_info(READING).build(), {'bootstrap.servers': 'kafka:9092'})\n"
                'consumer.set_start_from_earliest()\n'
                "env.add_source(consumer).filter(lambda r: r['v'] > 0).add_sink(\n"
                "    FlinkKafkaProducer('out', CsvRowSerializationSchema.Builder(READING).build(), {'bootstrap.servers': 'kafka:9092'})\n"
                ')\n'
                'env.execute()\n',
                imports="from pyflink.common import Types\n"
                "from pyflink.datastream.connectors.kafka import FlinkKafkaConsumer, FlinkKafkaProducer\n"
                "from pyflink.datastream.formats.csv import CsvRowSerializationSchema\n"
                "from pyflink.datastream.formats.json import JsonRowDeserializationSchema\n",
            ),
            'from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\n'
            'from pyspark.sql import SparkSession, functions as F\n'
            '\n'
            'env = SparkSession.builder.getOrCreate()\n'
            'READING = f2s.Types.ROW_NAMED(["id", "v"], [f2s.Types.STRING(), f2s.Types.INT()])\n'
            '# NOTE(flink2spark): F2S255 Flink\'s JSON deserializer fails the job on a malformed record and coerces mismatched values ("7" -> 7, 2.5 -> 2 for INT); Spark\'s from_json gives null fields there\n'
            '# NOTE(flink2spark): F2S250 the Kafka connector is not part of PySpark: run with spark-submit --packages org.apache.spark:spark-sql-kafka-0-10_2.13:<your Spark version>\n'
            '# NOTE(flink2spark): F2S251 streaming query checkpoint: f2s_stream.checkpoint() is a fresh temporary folder per run (the job starts from its starting offsets, as a newly submitted Flink job); set F2S_CHECKPOINT_DIR to a durable folder to resume across runs\n'
            'env.readStream.format("kafka").option("kafka.bootstrap.servers", "kafka:9092").option(\n'
            '    "subscribe", "in"\n'
            ').option("startingOffsets", "earliest").load().select(\n'
            '    F.from_json(F.col("value").cast("string"), "`id` STRING, `v` INT").alias("value")\n'
            ').select("value.*").where(\n'
            '    F.coalesce(F.col("v"), F.raise_error(F.lit("TypeError: > of None"))) > 0\n'
            ').select(f2s_stream.flink_csv(READING).alias("value")).writeStream.format(\n'
            '    "kafka"\n'
            ').option("kafka.bootstrap.servers", "kafka:9092").option("topic", "out").option(\n'
            '    "checkpointLocation", f2s_stream.checkpoint("kafka-out")\n'
            ').start()\n'
            'f2s_stream.await_termination(env)\n',
        ),
        Example(
            program(
                "words = env.from_collection(['a'], type_info=Types.STRING())\n"
                "words.add_sink(\n"
                "    StreamingFileSink.for_row_format('/out', Encoder.simple_string_encoder())\n"
                "    .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner())\n"
                "    .build()\n"
                ")\n",
                imports="from pyflink.common import Encoder, Types\n"
                "from pyflink.datastream.connectors.file_system import BucketAssigner, StreamingFileSink\n",
            ),
            S.FRAME_HEAD  # a DataFrame of strings (the program model's frame form): DataFrameWriter.text
            + 'words = env.createDataFrame(["a"], "string")\n'
            "# NOTE(flink2spark): F2S241 StreamingFileSink: the same records in the same folders, in Spark's part"
            " files (part-00000-<uuid>-c000.txt, one per non-empty Spark partition, and _SUCCESS), not Flink's"
            " part-file names <prefix>-<subtask>-<counter><suffix>, written committed; Flink commits them only at"
            " checkpoints (a bounded job without checkpointing leaves them hidden, .<prefix>-0-0<suffix>.inprogress.<uuid>)\n"
            'words.write.mode("append").text("/out")\n',
        ),
        Example(
            program(
                "env.from_collection(['a'], type_info=Types.STRING()).add_sink(producer)\n",
                imports="from pyflink.common import Types\n",
            ),
            spark_program(
                "# TODO(flink2spark): F2S247 a sink other than a row-format FileSink/StreamingFileSink: write the"
                " RDD/DataFrame with Spark by hand\n"
                "env.sparkContext.parallelize([\"a\"]).add_sink(producer)\n",
                rdd='`.add_sink()` at line 5 has no DataFrame form',
            ),
        ),
    ],
    noop=["class Stream:\n    def add_sink(self, sink):\n        return sink\n\n\nStream().add_sink(print)\n"],
)


rule.converter(S.convert_sink)
