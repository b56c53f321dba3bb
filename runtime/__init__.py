"""Runtime shims imported by converted programs (on the driver and on Spark executors).

Submodules depend only on the standard library and PySpark, never on the converter's own
dependencies (libcst, black), so the package can be shipped with ``spark-submit --py-files``.

- :mod:`flink2spark.runtime.dataset`: legacy Flink DataSet Python API helpers for what Spark has
  no construct for (Flink iterators, broadcast sets, leftover WriteMode/Order constants); prints,
  file sinks and CSV sources are converted to Spark's own.
- :mod:`flink2spark.runtime.datastream`: PyFlink DataStream API helpers (PyFlink's Row and
  type information, print formats, rolling/final keyed reductions, open/close around partitions).
- :mod:`flink2spark.runtime.connectors`: PyFlink row-format file sinks written with Flink's
  bucket folders and part-file names (``write_rows``), imported as ``f2s_io``.
"""
