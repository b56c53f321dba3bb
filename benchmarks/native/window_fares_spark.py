"""Taxi fares per pickup zone and 15-minute event-time window, written by hand in PySpark.

The same job as ``window_fares.py`` (the Flink program): rides from CSV text lines
``ride_id,zone,pickup_ms,fare_cents``; per zone and tumbling 15-minute window of the pickup
time, the number of rides, their total and their highest fare; text lines
``zone,window_start_ms,rides,total_cents,max_cents`` under OUTPUT_DIR.

Usage: window_fares_spark.py RIDES_CSV OUTPUT_DIR
"""

import sys

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

RIDE_SCHEMA = "ride_id LONG, zone STRING, pickup_ms LONG, fare_cents LONG"


def main(rides_path, output_dir):
    spark = SparkSession.builder.appName("window_fares").getOrCreate()

    rides = spark.read.csv(rides_path, schema=RIDE_SCHEMA)
    fares = rides.groupBy(
        "zone", F.window(F.timestamp_millis("pickup_ms"), "15 minutes").alias("window")
    ).agg(
        F.count("*").alias("rides"),
        F.sum("fare_cents").alias("total_cents"),
        F.max("fare_cents").alias("max_cents"),
    )
    fares.select(
        F.concat_ws(
            ",",
            "zone",
            F.unix_millis("window.start"),
            "rides",
            "total_cents",
            "max_cents",
        )
    ).write.mode("overwrite").text(output_dir)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
