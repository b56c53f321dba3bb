"""Word count, written by hand in PySpark.

The same job as ``dataset_word_count.py`` (the Flink DataSet program): the number of times
each whitespace-separated word occurs in the text, as ``word,count`` CSV lines.

Usage: dataset_word_count_spark.py TEXT_FILE OUTPUT_DIR
"""

import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F


def main(text_path, output_path):
    spark = SparkSession.builder.appName("word_count").getOrCreate()

    words = spark.read.text(text_path).select(
        F.explode(F.split(F.trim("value"), r"\s+")).alias("word")
    ).where(F.col("word") != "")
    counts = words.groupBy("word").count()
    counts.write.mode("overwrite").csv(output_path)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
