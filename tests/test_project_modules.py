"""Names a program imports from a module of its own project (transpiler/project.py), and tables it
reads or writes without declaring them (a Flink catalog's: NOTE F2S334 / TODO F2S335).

Fixtures ``venue_report_sibling_ddl`` and ``shop_catalog_module_tables`` (tests/test_table_fixtures.py)
run such programs on Flink 2.3 and, converted, on Spark; these tests check the edges: which
module-level values are read, what a file converted alone gives, and parallel runs.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from flink2spark.transpiler.engine import convert_source

JOB = '''from pyflink.table import EnvironmentSettings, TableEnvironment

from {module} import ORDERS_DDL, ORDERS_TABLE

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.execute_sql(ORDERS_DDL)
t_env.from_path(ORDERS_TABLE).execute().print()
'''

DDL = '''ORDERS_TABLE = "web_orders"
ORDERS_DDL = """
    CREATE TABLE web_orders (order_id INT, item STRING)
    WITH ('connector' = 'filesystem', 'path' = 'orders.csv', 'format' = 'csv')
"""
'''


def _convert(folder: Path, job: str = JOB.format(module="orders_ddl"), name: str = "job.py") -> str:
    path = folder / name
    path.write_text(job)
    return convert_source(job, str(path)).output


def test_a_string_constant_of_a_module_next_to_the_file_is_read(tmp_path):
    (tmp_path / "orders_ddl.py").write_text(DDL)
    out = _convert(tmp_path)
    assert "TODO" not in out
    assert '.schema(\n    "order_id INT, item STRING"\n).load("orders.csv")' in out
    assert 'createOrReplaceTempView("web_orders")' in out and "t_env.table(ORDERS_TABLE)" in out
    assert convert_source(out, str(tmp_path / "job.py")).output == out


def test_a_package_module_imported_relatively_is_read(tmp_path):
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "ddl").mkdir()
    (tmp_path / "pkg" / "ddl" / "__init__.py").write_text(DDL)
    (tmp_path / "pkg" / "jobs").mkdir()
    out = _convert(tmp_path / "pkg" / "jobs", JOB.format(module="..ddl"))
    assert "TODO" not in out and 'createOrReplaceTempView("web_orders")' in out


def test_without_the_module_the_conversion_is_the_single_files(tmp_path):
    alone = convert_source(JOB.format(module="orders_ddl"), "<string>").output
    assert "F2S302 execute_sql() of SQL text not known" in alone
    assert _convert(tmp_path) == alone  # no orders_ddl.py next to it


def test_values_the_module_does_not_bind_once_to_a_literal_are_not_read(tmp_path):
    for module in (
        DDL + "ORDERS_DDL = ORDERS_DDL.replace('orders', 'sales')\n",  # bound twice
        DDL.replace('ORDERS_DDL = """', 'ORDERS_DDL = f"""{ORDERS_TABLE}'),  # an f-string: the module computes it
        DDL + "from settings import *\n",  # a star import may bind it again
        DDL + "if True:\n    ORDERS_DDL = ''\n",  # bound again in a block
        DDL + "def reset():\n    global ORDERS_DDL\n    ORDERS_DDL = ''\n",
    ):
        (tmp_path / "orders_ddl.py").write_text(module)
        out = _convert(tmp_path)
        assert "F2S302 execute_sql() of SQL text not known" in out and "web_orders\")" not in out.split("t_env.table")[0], module


def test_the_module_is_read_again_when_it_changes(tmp_path):
    (tmp_path / "orders_ddl.py").write_text(DDL)
    first = _convert(tmp_path)
    (tmp_path / "orders_ddl.py").write_text(DDL.replace("orders.csv", "orders-2026.csv"))
    second = _convert(tmp_path)
    assert '"orders.csv"' in first and '"orders-2026.csv"' in second


def test_parallel_conversion_of_a_project_is_deterministic(tmp_path):
    src = tmp_path / "src"
    src.mkdir()
    (src / "orders_ddl.py").write_text(DDL)
    for i in range(3):
        (src / f"job{i}.py").write_text(JOB.format(module="orders_ddl"))
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        subprocess.run([sys.executable, "-m", "flink2spark.cli", "convert", str(src), "--out", str(out), "--jobs", jobs,
                        "--quiet"], check=True, env={**os.environ})
        outs.append({p.name: p.read_text() for p in sorted(out.iterdir())})
    assert outs[0] == outs[1]
    assert outs[0]["orders_ddl.py"] == DDL  # no Flink code: copied as it is
    assert all("TODO" not in outs[0][f"job{i}.py"] for i in range(3))


CATALOG_JOB = '''from pyflink.table import EnvironmentSettings, TableEnvironment

t_env = TableEnvironment.create(EnvironmentSettings.{mode}())
t_env.from_path("shop_orders").execute_insert("order_copy").wait()
'''


def test_an_undeclared_table_is_the_session_catalogs_in_batch_mode_only():
    batch = convert_source(CATALOG_JOB.format(mode="in_batch_mode"), "job.py")
    assert [m.code for m in batch.markers] == ["F2S334", "F2S334"]
    assert 't_env.table("shop_orders").write.insertInto("order_copy")' in batch.output
    streaming = convert_source(CATALOG_JOB.format(mode="in_streaming_mode"), "job.py")
    assert {m.code for m in streaming.markers} == {"F2S335"}
    assert ".execute_insert(" in streaming.output  # left as it is, with its TODO


UDFS = '''from pyflink.table import DataTypes
from pyflink.table.udf import udf
{imports}

@udf(result_type=DataTypes.STRING())
def shout(s):
    return s.upper()
'''

UDF_JOB = '''from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import call, col

from words_udfs import shout

t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
t_env.create_temporary_system_function("shout", shout)
t_env.from_elements([("hi",)], ["w"]).select(call("shout", col("w")), shout(col("w"))).execute().print()
'''


def test_a_udf_of_a_module_of_the_project_is_called_by_its_imported_name(tmp_path):
    alone = convert_source(UDF_JOB, "<string>").output
    assert 'F2S301 select(): call("shout", ...) has no known Spark equivalent' in alone
    for imports in ("", "\nfrom job import helper\n"):  # the module importing the program back: no loop
        (tmp_path / "words_udfs.py").write_text(UDFS.format(imports=imports))
        out = _convert(tmp_path, UDF_JOB)
        assert "TODO" not in out, out
        assert '    shout(F.col("w")).alias("_c0"), shout(F.col("w")).alias("_c1")\n' in out
    (tmp_path / "words_udfs.py").write_text(UDFS.format(imports="").replace("@udf(", "@other("))
    assert _convert(tmp_path, UDF_JOB) == alone.replace("<string>", "")  # not a Flink UDF there: as alone


def test_in_place_reads_the_modules_as_they_were_before_the_run(tmp_path):
    """--in-place rewrites files once all are converted: a UDF module converted (and rewritten)
    before the program that imports it is still read as the Flink module it was."""
    (tmp_path / "a_udfs.py").write_text(UDFS.format(imports=""))
    (tmp_path / "z_job.py").write_text(UDF_JOB.replace("words_udfs", "a_udfs"))
    for jobs in ("1", "2"):
        subprocess.run([sys.executable, "-m", "flink2spark.cli", "convert", str(tmp_path), "--in-place", "--jobs", jobs,
                        "--quiet"], check=True, env={**os.environ})
        job = (tmp_path / "z_job.py").read_text()
        assert "TODO" not in job and 'shout(F.col("w")).alias("_c0")' in job
        assert "@F.udf(returnType=T.StringType())" in (tmp_path / "a_udfs.py").read_text()
        (tmp_path / "a_udfs.py").write_text(UDFS.format(imports=""))
        (tmp_path / "z_job.py").write_text(UDF_JOB.replace("words_udfs", "a_udfs"))
