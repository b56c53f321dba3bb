"""``use_catalog``/``use_database`` and catalog DDL: Flink's built-in catalog and database are the
Spark session's own; what names another catalog keeps a TODO that says why.

Fixture ledger_default_catalog_batch (recorded on Flink 2.3) runs the built-in names on both
engines; these tests pin the limits.
"""

from __future__ import annotations

import pytest

from flink2spark.transpiler.engine import convert_source

HEAD = (
    "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"
    "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n"
)


def _convert(body: str, head: str = HEAD):
    result = convert_source(head + body, "job.py")
    assert result.output is not None, result.markers
    assert convert_source(result.output, "job.py").output == result.output
    return result


def _todos(result) -> list[str]:
    return [m.message for m in result.markers if m.severity == "todo"]


def test_the_built_in_catalog_and_database_are_the_sessions(spark, capsys):
    result = _convert("t_env.use_catalog('default_catalog')\nt_env.use_database('default_database')\n"
                      "t_env.from_elements([('a', 1)], ['w', 'n']).execute().print()\n")
    assert _todos(result) == [] and "use_catalog" not in result.output and "use_database" not in result.output
    exec(compile(result.output, "job.py", "exec"), {"__name__": "job"})
    assert "|a  |1  |" in capsys.readouterr().out.splitlines()


def test_back_to_the_built_in_catalog_after_another_is_sparks_session_catalog():
    result = _convert("t_env.use_catalog('lake')\nt_env.use_catalog('default_catalog')\n"
                      "t_env.use_database('default_database')\n")
    assert [t.split(":")[0] for t in _todos(result)] == ["use_catalog('lake')", "use_database('default_database')"]
    assert 't_env.catalog.setCurrentCatalog("spark_catalog")' in result.output.splitlines()


def test_a_database_the_program_switches_to_and_back():
    result = _convert("t_env.use_database('staging')\nt_env.use_database('default_database')\n")
    assert [t.split(":")[0] for t in _todos(result)] == ["use_database('staging')"]
    assert 't_env.catalog.setCurrentDatabase("default")' in result.output.splitlines()


@pytest.mark.parametrize("body, todo", [
    ("name = input()\nt_env.use_catalog(name)\n", "use_catalog() of a name not known when converting"),
    ("t_env.use_catalog('default_catalog') or print()\n", "the result of use_catalog() is used"),
    ("t_env.execute_sql(\"CREATE CATALOG lake WITH ('type' = 'iceberg', 'catalog-type' = 'hadoop')\")\n",
     "execute_sql(): CREATE CATALOG lake: Spark declares another catalog"),
    ("t_env.execute_sql('CREATE DATABASE IF NOT EXISTS lake.bronze')\n", "execute_sql(): CREATE DATABASE is not converted"),
])
def test_what_names_another_catalog_keeps_a_todo(body, todo):
    result = _convert(body)
    assert len(_todos(result)) == 1 and _todos(result)[0].startswith(todo), _todos(result)


def test_renamed_built_in_catalog_keeps_its_todo():
    head = ("from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"
            "settings = EnvironmentSettings.new_instance().in_batch_mode().with_built_in_catalog_name('main').build()\n"
            "t_env = TableEnvironment.create(settings)\n")
    result = _convert("t_env.use_catalog('default_catalog')\n", head)
    assert any(t.startswith("use_catalog() of a name not known when converting, or with the built-in") for t in _todos(result))


def test_a_use_catalog_method_of_another_object_passes_unchanged():
    source = HEAD + ("class Warehouse:\n    def use_catalog(self, name):\n        return name\n\n\n"
                     "Warehouse().use_catalog('default_catalog')\n")
    result = convert_source(source, "job.py")
    assert "Warehouse().use_catalog('default_catalog')\n" in result.output


def test_a_registered_jdbc_catalog_keeps_a_todo_saying_how_spark_reads_its_tables():
    result = _convert("from pyflink.table.catalog import JdbcCatalog\n\n"
                      "catalog = JdbcCatalog('pg', 'shop', 'etl', 'secret', 'jdbc:postgresql://db:5432')\n"
                      "t_env.register_catalog('pg', catalog)\nt_env.use_catalog('pg')\n")
    todos = _todos(result)
    assert any(t.startswith("TableEnvironment.register_catalog() has no conversion: a catalog's tables are not converted "
                            "yet: Spark reads a JDBC database's tables") for t in todos), todos
    assert any(t.startswith("use_catalog('pg'): a catalog other than Flink's built-in one") for t in todos), todos
