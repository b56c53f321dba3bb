"""Helpers shared by DataSet rules (not a rule: it defines no ``rule``)."""

from __future__ import annotations

HEAD = "from flink.plan.Environment import get_environment\n\nenv = get_environment()\n"
SPARK_HEAD = "from pyspark.sql import SparkSession\n\nenv = SparkSession.builder.getOrCreate()\n"
SHIM_IMPORT = "from flink2spark.runtime import dataset as f2s\n"


def program(body: str, imports: str = "") -> str:
    """A small DataSet program for rule examples."""
    return imports + HEAD + body


def spark_program(body: str, imports: str = "", shim: bool = False) -> str:
    """The expected conversion of ``program`` (imports sorted as the import mechanism adds them)."""
    head = SPARK_HEAD
    if shim:
        head = SHIM_IMPORT + head
    return imports + head + body


FRAME_HEAD = "from pyspark.sql import SparkSession, functions as F\n\nenv = SparkSession.builder.getOrCreate()\n"


def frame_program(body: str) -> str:
    """The expected conversion of ``program`` to DataFrames (rules/dataset/_frames.py)."""
    return FRAME_HEAD + body
