"""``stream.add_sink(sink_function)``: the SinkFunction API (Java sinks wrapped by PyFlink).

``StreamingFileSink.for_row_format(path, Encoder.simple_string_encoder())...build()`` writes
the same records as ``FileSink`` and converts the same way (see ``sink_to``), with its own part
names ``<prefix>-<subtask>-<counter><suffix>``: ``f2s_io.write_rows(rdd, path, type_info, ...,
part_names="subtask")``. Recorded on Flink 2.3: it commits part files only at checkpoints, so a
bounded job without checkpointing leaves them hidden as in-progress files; the converted job
writes them committed (NOTE F2S241 says so). Every other SinkFunction (Kafka producers,
JDBC, RabbitMQ, Elasticsearch...) wraps a Java sink that Spark cannot run: TODO to write the
RDD/DataFrame with Spark's own writer by hand.
"""

from flink2spark.rules.pyflink import _sinks as S
from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.add_sink"],
    summary="add_sink(StreamingFileSink.for_row_format(...)...) -> f2s_io.write_rows(...) (a DataFrame: f2s_io.write_text, other than strings F.format_string of Java's toString); other SinkFunctions: TODO",
    exact=False,
    codes=(M.PF_PART_FILES, M.PF_TIME_BUCKET, M.PF_FILE_UNSUPPORTED, M.PF_JAVA_CONNECTOR, M.PF_UNSUPPORTED)
    + (M.PF_KAFKA_UNSUPPORTED, M.PF_KAFKA_PACKAGE, M.PF_MICRO_BATCH, M.PF_CHECKPOINT),
    examples=[
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
            "# NOTE(flink2spark): F2S241 StreamingFileSink: parts <prefix>-<n>-0<suffix>, one per non-empty Spark"
            " partition, written committed; Flink commits them only at checkpoints (a bounded job without"
            " checkpointing leaves them hidden, .<prefix>-0-0<suffix>.inprogress.<uuid>)\n"
            'f2s_io.write_text(words, "/out", part_names="subtask")\n',
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
