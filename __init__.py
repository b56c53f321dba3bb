"""flink2spark: rewrite Apache Flink Python programs into PySpark.

Kept import-light on purpose: converted programs import ``flink2spark.runtime``
on Spark executors, which must not pull in libcst or black.
"""

__version__ = "0.1.0"
