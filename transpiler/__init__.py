"""The flink2spark conversion engine."""

from flink2spark.transpiler.result import ConversionResult, Marker  # noqa: F401
