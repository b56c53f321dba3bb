"""The engine's own placeholders never reach an output (transpiler/engine.py ``_PLACEHOLDER``).

A table's options are read with markers (``__f2s_0__``) standing for the Python values a program
computes (a path parameter, say); each write puts the value back. A table declared in each
branch of an ``if`` (``if output_path is not None: <file table> else: <print table>``) lost its
first declaration's values: the canal-json write wrote to a folder named ``__f2s_0__``.
"""

from __future__ import annotations

from flink2spark.transpiler import engine
from flink2spark.transpiler.engine import convert_source

BRANCHES = '''import sys
from pyflink.table import EnvironmentSettings, TableEnvironment, TableDescriptor, Schema, DataTypes, FormatDescriptor
from pyflink.table.expressions import col


def run(output_path):
    t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())
    tab = t_env.from_elements([("a", 1), ("b", 2)], ["word", "n"])
    if output_path is not None:
        t_env.create_temporary_table(
            'sink',
            TableDescriptor.for_connector('filesystem')
                .schema(Schema.new_builder().column('word', DataTypes.STRING()).column('n', DataTypes.BIGINT()).build())
                .option('path', output_path)
                .format(FormatDescriptor.for_format('canal-json').build())
                .build())
    else:
        t_env.create_temporary_table(
            'sink',
            TableDescriptor.for_connector('print')
                .schema(Schema.new_builder().column('word', DataTypes.STRING()).column('n', DataTypes.BIGINT()).build())
                .build())
    tab.select(col('word'), col('n')).execute_insert('sink').wait()


if __name__ == '__main__':
    run(sys.argv[1] if len(sys.argv) > 1 else None)
'''


def test_a_table_declared_in_each_branch_writes_to_its_own_path(tmp_path, spark):
    result = convert_source(BRANCHES, "job.py")
    assert result.status == "converted", result.output
    assert "__f2s_" not in result.output
    assert '.write.mode("append").text(output_path)' in result.output
    namespace: dict = {}
    exec(compile(result.output, "job.py", "exec"), namespace)
    namespace["run"](str(tmp_path / "words"))
    written = sorted(line for p in (tmp_path / "words").glob("part-*") for line in p.read_text().splitlines())
    assert len(written) == 2 and all('"type":"INSERT"' in line for line in written), written


def test_a_leaked_placeholder_keeps_the_file_and_says_so(monkeypatch):
    format_changed = engine.FMT.format_changed
    monkeypatch.setattr(engine.FMT, "format_changed", lambda *a: format_changed(*a) + "\nLEAK = '__f2s_3__'\n")
    result = convert_source(BRANCHES, "job.py")
    assert "__f2s_3__" not in (result.output or "")
    assert any(m.code == "F2S005" for m in result.markers)


def test_a_placeholder_of_the_program_itself_is_kept():
    source = BRANCHES + "\nNAME = '__f2s_0__'\n"
    result = convert_source(source, "job.py")
    assert result.status == "converted" and "NAME = '__f2s_0__'" in result.output


def test_a_table_put_in_sql_text_is_no_catalog_table():
    """``"... FROM %s" % table`` names a Table of the program (its marker ``__f2s_t0__`` in the
    model): not a table of Flink's catalog, so no TODO F2S335 naming the marker in streaming mode."""
    source = (
        "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n"
        "orders = t_env.from_elements([(1, 'a'), (4, 'b')], ['id', 'item'])\n"
        "t_env.execute_sql(\"CREATE TABLE small (id BIGINT, item STRING) WITH ('connector' = 'print')\")\n"
        "t_env.execute_sql(\"INSERT INTO small SELECT * FROM %s WHERE id <= 3\" % orders).wait()\n"
    )
    result = convert_source(source, "job.py")
    assert result.status == "converted", [m.message for m in result.markers]
    assert "__f2s_" not in result.output and "F2S335" not in result.output
