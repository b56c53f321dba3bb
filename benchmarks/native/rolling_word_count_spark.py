"""Rolling word count, written by hand in PySpark.

The same job as ``rolling_word_count.py`` (the Flink program in STREAMING mode): for every
occurrence of a word in the text, in file order, the word's count so far (``word,1`` ..
``word,n``). The source order is the line's position (``monotonically_increasing_id`` grows
with the file offset across partitions) and the word's position in its line; the running
count is a window function over that order.

Usage: rolling_word_count_spark.py TEXT_FILE OUTPUT_DIR
"""

import sys

from pyspark.sql import SparkSession, Window
from pyspark.sql import functions as F


def main(text_path, output_dir):
    spark = SparkSession.builder.appName("rolling_word_count").getOrCreate()

    lines = spark.read.text(text_path).withColumn("line_no", F.monotonically_increasing_id())
    words = lines.select(
        "line_no", F.posexplode(F.split(F.trim("value"), r"\s+")).alias("pos", "word")
    ).where(F.col("word") != "")
    in_source_order = Window.partitionBy("word").orderBy("line_no", "pos")
    counts = words.select("word", F.row_number().over(in_source_order).alias("count"))
    counts.select(F.concat_ws(",", "word", "count")).write.mode("overwrite").text(output_dir)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
