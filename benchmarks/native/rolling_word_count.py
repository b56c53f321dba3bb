"""Rolling word count (PyFlink DataStream, STREAMING mode).

Reads text lines from a file and keeps a running count per word with a keyed reduce: in
STREAMING mode the reduce emits the word's updated count for every occurrence, so a word seen
n times gives the records ``word,1`` .. ``word,n``. Every update is written by a FileSink.

Usage: rolling_word_count.py TEXT_FILE OUTPUT_DIR
"""

import sys

from pyflink.common import Encoder, Types, WatermarkStrategy
from pyflink.datastream import RuntimeExecutionMode, StreamExecutionEnvironment
from pyflink.datastream.connectors.file_system import (
    BucketAssigner,
    FileSink,
    FileSource,
    OutputFileConfig,
    StreamFormat,
)


def split_words(line):
    for word in line.split():
        yield word, 1


def main(text_path, output_dir):
    env = StreamExecutionEnvironment.get_execution_environment()
    env.set_runtime_mode(RuntimeExecutionMode.STREAMING)

    lines = env.from_source(
        FileSource.for_record_stream_format(StreamFormat.text_line_format(), text_path).build(),
        WatermarkStrategy.no_watermarks(),
        "lines",
    )
    counts = (
        lines.flat_map(split_words, output_type=Types.TUPLE([Types.STRING(), Types.LONG()]))
        .key_by(lambda pair: pair[0], key_type=Types.STRING())
        .reduce(lambda a, b: (a[0], a[1] + b[1]))
    )
    counts.map(lambda pair: "%s,%d" % pair, output_type=Types.STRING()).sink_to(
        FileSink.for_row_format(output_dir, Encoder.simple_string_encoder())
        .with_bucket_assigner(BucketAssigner.base_path_bucket_assigner())
        .with_output_file_config(OutputFileConfig.builder().with_part_prefix("counts").build())
        .build()
    )

    env.execute("rolling_word_count")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
