"""Shared pytest fixtures.

``spark`` / ``sc``: one SparkSession for the whole test session (``local[2]``, UI off,
4 shuffle partitions).  Other test modules rely on these two fixture names.
``state_store_reset``: puts back the session's state store provider after a test that runs
``f2s_stream.rolling_reduce`` (which selects the RocksDB one).

Rules run in strict mode (``F2S_STRICT_RULES=1``, transpiler/results.py): a rule result the
engine refuses (``None``: a construct left as it is with nothing said) raises
``RuleContractError`` instead of leaving TODO F2S008, so any test that reaches it fails. The
variable reaches the CLI's worker processes too.
"""

import os
import sys

import pytest

from flink2spark.transpiler.results import STRICT_ENV

os.environ[STRICT_ENV] = "1"


@pytest.fixture(scope="session")
def spark():
    # Python workers must run the venv interpreter (pyspark, the editable flink2spark install).
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("flink2spark-tests")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "4")
        .getOrCreate()
    )
    session.sparkContext.setLogLevel("ERROR")
    yield session
    session.stop()


@pytest.fixture(scope="session")
def sc(spark):
    return spark.sparkContext


@pytest.fixture
def state_store_reset(spark):
    key = "spark.sql.streaming.stateStore.providerClass"
    before = spark.conf.get(key, None)
    yield
    if before is None:
        spark.conf.unset(key)
    else:
        spark.conf.set(key, before)
