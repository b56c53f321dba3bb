"""Rules for the modern PyFlink DataStream API (pyflink.datastream), one module per rule.

Bounded jobs become batch PySpark: streams are RDDs of the Python objects PyFlink's Python
operators see, keyed streams are pair RDDs (``RDD.keyBy``), and ``flink2spark.runtime.datastream``
(imported as ``f2s``) supplies what Spark has no counterpart for (Flink's print format, rolling
keyed reductions, PyFlink's Row and type information).
"""
