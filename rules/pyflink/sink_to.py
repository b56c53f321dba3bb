"""``stream.sink_to(FileSink.for_row_format(path, Encoder.simple_string_encoder())...build())``
-> ``f2s_io.write_rows(rdd, path, type_info, part_prefix=..., part_suffix=..., bucket=...)``;
a stream the program model plans as a DataFrame -> ``df.write.mode("append").text(path)``
(``DataFrameWriter.text``, no Python per record; ``_sinks.frame_sink``), records other than
strings as Java's ``toString`` by ``F.format_string`` (``+I[a, 1]``, ``(a,1)``, ``1.0E-4``:
``_sinks.frame_lines``).

Flink's row-format ``FileSink`` writes every record as Java's ``toString`` of its Flink type
(strings as they are; ``Types.TUPLE`` -> ``(a,1)``; ``Types.DOUBLE`` -> ``19.0``), UTF-8, one
per line, into part files ``<prefix>-<uuid>-<n><suffix>`` (default prefix ``part``, no suffix)
under ``<path>/<bucket>``: no bucket folder with ``BucketAssigner.base_path_bucket_assigner()``,
``yyyy-MM-dd--HH`` of the processing time by default (``date_time_bucket_assigner``). A bounded
job commits the files when it ends. A DataFrame's lines are written by Spark's text writer in
the same folders, in Spark's part files (``part-00000-<uuid>-c000.txt``): the same records,
not Flink's file names (NOTE F2S241: naming files is not the job's result). An RDD's lines go
through the shim (``flink2spark.runtime.connectors``, imported as ``f2s_io``), which writes them
with ``saveAsTextFile`` and moves the part files to Flink's names. Marked (NOTE): files are one
per Spark partition (the rolling policy, bucket check interval and compaction are dropped); a
date-time bucket is the time the Spark job writes, one for all records.

Left with a TODO: bulk formats (Parquet/Avro/ORC: write a DataFrame by hand), other encoders
or charsets, custom bucket assigners, streams without an output type (Flink would write the
Java ``toString`` of pickled bytes) and every other sink (Kafka, JDBC...: other rules or by hand).
"""

from flink2spark.rules.pyflink import _kafka as K, _sinks as S
from flink2spark.rules.pyflink._common import program, spark_head, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

_IMPORTS = (
    "from pyflink.common import Encoder, Types\n"
    "from pyflink.datastream.connectors.file_system import BucketAssigner, FileSink, OutputFileConfig, RollingPolicy\n"
)

rule = Rule(
    __name__,
    matches=["DataStream.sink_to"],
    summary="sink_to(KafkaSink) of a DataFrame -> writeStream.format('kafka') (bounded: write.format('kafka')); sink_to(FileSink.for_row_format(path, simple_string_encoder())...) -> f2s_io.write_rows(rdd, path, type, ...); a DataFrame: df.write.mode('append').text(path) (Spark's part-file names; other than strings: F.format_string of Java's toString)",
    exact=False,
    codes=(M.PF_PART_FILES, M.PF_TIME_BUCKET, M.PF_FILE_UNSUPPORTED, M.PF_JAVA_CONNECTOR, M.PF_UNSUPPORTED)
    + (M.PF_KAFKA_UNSUPPORTED, M.PF_KAFKA_PACKAGE, M.PF_MICRO_BATCH, M.PF_CHECKPOINT),
    examples=[
        Example(  # an unbounded stream planned as a streaming DataFrame: writeStream.format("kafka") of the value column
            program(
                "source = KafkaSource.builder().set_bootstrap_servers('kafka:9092').set_topics('words').set_value_only_deserializer(SimpleStringSchema()).build()\n"
                "words = env.from_source(source, WatermarkStrategy.no_watermarks(), 'words')\n"
                "words.map(lambda w: w + '!', output_type=Types.STRING()).sink_to(\n"
                "    KafkaSink.builder().set_bootstrap_servers('kafka:9092').set_record_serializer(\n"
                "        KafkaRecordSerializationSchema.builder().set_topic('upper').set_value_serialization_schema(SimpleStringSchema()).build()\n"
                "    ).build()\n"
                ")\n"
                "env.execute()\n",
                imports="from pyflink.common import SimpleStringSchema, Types, WatermarkStrategy\n"
                "from pyflink.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink, KafkaSource\n",
            ),
            "from flink2spark.runtime import streaming as f2s_stream\nfrom pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "# NOTE(flink2spark): F2S250 " + K.PACKAGE_NOTE + "\n"
            'words = (\n    env.readStream.format("kafka")\n    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("subscribe", "words")\n    .option("startingOffsets", "earliest")\n    .load()\n'
            '    .select(F.col("value").cast("string").alias("value"))\n)\n'
            "# NOTE(flink2spark): F2S251 " + K.CHECKPOINT_NOTE + "\n"
            "# NOTE(flink2spark): F2S250 " + K.PACKAGE_NOTE + "\n"
            'words.select(F.concat(F.col("value"), F.lit("!")).alias("value")).writeStream.format(\n'
            '    "kafka"\n'
            ').option("kafka.bootstrap.servers", "kafka:9092").option("topic", "upper").option(\n'
            '    "checkpointLocation", f2s_stream.checkpoint("kafka-upper")\n'
            ").start()\n"
            "f2s_stream.await_termination(env)\n",
        ),
        Example(  # a bounded frame (a typed from_collection): one batch write.format("kafka")
            program(
                "words = env.from_collection(['a', 'b'], type_info=Types.STRING())\n"
                "words.map(lambda w: w + '!', output_type=Types.STRING()).sink_to(\n"
                "    KafkaSink.builder().set_bootstrap_servers('kafka:9092').set_record_serializer(\n"
                "        KafkaRecordSerializationSchema.builder().set_topic('t').set_value_serialization_schema(SimpleStringSchema()).build()\n"
                "    ).build()\n"
                ")\n",
                imports="from pyflink.common import SimpleStringSchema, Types\n"
                "from pyflink.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink\n",
            ),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'words = env.createDataFrame(["a", "b"], "string")\n'
            "# NOTE(flink2spark): F2S250 " + K.PACKAGE_NOTE + "\n"
            'words.select(F.concat(F.col("value"), F.lit("!")).alias("value")).write.format(\n'
            '    "kafka"\n'
            ').option("kafka.bootstrap.servers", "kafka:9092").option("topic", "t").save()\n',
        ),
        Example(
            program(
                "env.from_collection(['a']).map(lambda s: s.encode(), output_type=Types.PRIMITIVE_ARRAY(Types.BYTE())).sink_to(\n"
                "    KafkaSink.builder().set_bootstrap_servers('kafka:9092').set_record_serializer(\n"
                "        KafkaRecordSerializationSchema.builder().set_topic('t')\n"
                "        .set_key_serialization_schema(ByteArraySchema())\n"
                "        .set_value_serialization_schema(ByteArraySchema()).build()\n"
                "    ).build()\n"
                ")\n",
                imports="from pyflink.common import ByteArraySchema, Types\n"
                "from pyflink.datastream.connectors.kafka import KafkaRecordSerializationSchema, KafkaSink\n",
            ),
            "from flink2spark.runtime import datastream as f2s, streaming as f2s_stream\n"
            "from pyspark.sql import SparkSession, functions as F\n"
            + spark_head("the source `.from_collection()` at line 6 has no type_info (no DataFrame schema)")
            + "# NOTE(flink2spark): F2S250 the Kafka connector is not part of PySpark: run with spark-submit --packages"
            " org.apache.spark:spark-sql-kafka-0-10_2.13:<your Spark version>\n"
            "(\n"
            "    f2s_stream.to_dataframe(\n"
            '        env.sparkContext.parallelize(["a"]).map(lambda s: s.encode()),\n'
            "        f2s.Types.PRIMITIVE_ARRAY(f2s.Types.BYTE()),\n"
            "    )\n"
            '    .select(F.col("value").alias("key"), F.col("value").alias("value"))\n'
            '    .write.format("kafka")\n'
            '    .option("kafka.bootstrap.servers", "kafka:9092")\n'
            '    .option("topic", "t")\n'
            "    .save()\n"
            ")\n",
        ),
        Example(
            program(
                "lines = env.from_collection(['a', 'b'], type_info=Types.STRING())\n"
                "sink = (\n"
                "    FileSink.for_row_format('/out', Encoder.simple_string_encoder())\n"
                "    .with_output_file_config(OutputFileConfig.builder().with_part_prefix('pre').with_part_suffix('.txt').build())\n"
                "    .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner())\n"
                "    .with_rolling_policy(RollingPolicy.default_rolling_policy())\n"
                "    .build()\n"
                ")\n"
                "# write them\n"
                "lines.sink_to(sink)\n",
                imports=_IMPORTS,
            ),
            S.FRAME_HEAD  # a DataFrame of strings (the program model's frame form): DataFrameWriter.text
            + 'lines = env.createDataFrame(["a", "b"], "string")\n'
            "# write them\n"
            "# NOTE(flink2spark): F2S241 FileSink: the same records in the same folders, in Spark's part files"
            " (part-00000-<uuid>-c000.txt, one per non-empty Spark partition, and _SUCCESS), not Flink's part-file"
            " names <prefix>-<uuid>-<n><suffix> (its OutputFileConfig's part prefix and suffix are not applied) nor its rolling policy's split of records into files\n"
            'lines.write.mode("append").text("/out")\n',
        ),
        Example(  # a DataFrame of tuples (Rows, basic values): Java's toString of each record by F.format_string
            program(
                "pairs = env.from_collection([('a', 1.5)], Types.TUPLE([Types.STRING(), Types.DOUBLE()]))\n"
                "pairs.sink_to(FileSink.for_row_format('/out', Encoder.simple_string_encoder())\n"
                "              .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner()).build())\n",
                imports=_IMPORTS,
            ),
            "from pyspark.sql import SparkSession, functions as F\n\nenv = SparkSession.builder.getOrCreate()\n"
            + 'pairs = env.createDataFrame([("a", 1.5)], "f0 STRING, f1 DOUBLE")\n'
            "# NOTE(flink2spark): F2S241 FileSink: the same records in the same folders, in Spark's part files"
            " (part-00000-<uuid>-c000.txt, one per non-empty Spark partition, and _SUCCESS), not Flink's part-file"
            " names <prefix>-<uuid>-<n><suffix> nor its rolling policy's split of records into files\n"
            'pairs.select(F.format_string("(%s,%s)", "f0", "f1").alias("value")).write.mode(\n'
            '    "append"\n'
            ').text("/out")\n',
        ),
        Example(
            program(
                "env.from_collection([1]).map(str, output_type=Types.STRING()).sink_to(\n"
                "    FileSink.for_row_format('/out', Encoder.simple_string_encoder()).build()\n"
                ")\n",
                imports=_IMPORTS,
            ),
            S.IO_IMPORT
            + "from pyspark.sql import SparkSession, functions as F\n\nenv = SparkSession.builder.getOrCreate()\n"
            + (
                "# NOTE(flink2spark): F2S242 date-time buckets: every record goes to the bucket of the time the Spark"
                " job writes; Flink used each record's processing time (a job crossing the hour splits there)\n"
                "# NOTE(flink2spark): F2S241 FileSink: the same records in the same folders, in Spark's part files"
                " (part-00000-<uuid>-c000.txt, one per non-empty Spark partition, and _SUCCESS), not Flink's part-file"
                " names <prefix>-<uuid>-<n><suffix> nor its rolling policy's split of records into files\n"
                'env.createDataFrame([1], "bigint").select(\n'
                '    F.col("value").cast("string").alias("value")\n'
                ').write.mode("append").text("/out" + "/" + f2s_io.date_time_bucket())\n'
            ),
        ),
        Example(
            program(
                "env.from_collection([1]).sink_to(FileSink.for_row_format('/out', Encoder.simple_string_encoder()).build())\n",
                imports=_IMPORTS,
            ),
            "# TODO(flink2spark): F2S208 Encoder from pyflink.common is still used: convert the remaining uses by hand\n"
            "from pyflink.common import Encoder\n\n"
            "# TODO(flink2spark): F2S208 FileSink from pyflink.datastream.connectors.file_system is still used:"
            " convert the remaining uses by hand\n"
            "from pyflink.datastream.connectors.file_system import FileSink\n"
            + spark_program(
                "# TODO(flink2spark): F2S240 a file sink of a stream without output_type: Flink writes the Java"
                " toString of the pickled bytes ([B@...), not the values; give the last operator output_type=Types.STRING()\n"
                "env.sparkContext.parallelize([1]).sink_to(\n"
                "    FileSink.for_row_format(\"/out\", Encoder.simple_string_encoder()).build()\n"
                ")\n",
                rdd='the source `.from_collection()` at line 6 has no type_info (no DataFrame schema)',
            ),
        ),
    ],
    noop=["class Writer:\n    def sink_to(self, sink):\n        return sink\n\n\nWriter().sink_to(print)\n"],
)


rule.converter(S.convert_sink)
