"""Table API objects reached through parameters, attributes and helpers (issue 15): what the
converter must not convert, and marks instead. The conversions that are done are checked
against Flink 2.3 by the fixtures warehouse_stock_job_class, payments_annotated_pipeline and
clickstream_ddl_helpers."""

from flink2spark.transpiler.engine import convert_source as convert

HEAD = "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"


def _codes(result):
    return {m.code for m in result.markers}


def test_parameter_annotated_with_a_type_of_the_programs_own_is_not_converted():
    src = HEAD + (
        "class Catalog:\n    def execute_sql(self, text):\n        return text\n\n\n"
        "def setup(t_env: Catalog):\n    t_env.execute_sql('CREATE TABLE x (a INT) WITH (\\'connector\\' = \\'print\\')')\n\n\n"
        "setup(TableEnvironment.create(EnvironmentSettings.in_batch_mode()))\n"
    )
    result = convert(src)
    assert "t_env: Catalog" in result.output
    assert "t_env.execute_sql('CREATE TABLE x" in result.output  # not converted: the annotation says it is no Flink object
    assert "F2S209" in _codes(result)


def test_helper_called_with_a_table_environment_and_something_else_is_marked():
    src = HEAD + (
        "def create(t_env):\n    t_env.execute_sql(\"CREATE TABLE x (a INT) WITH ('connector' = 'print')\")\n\n\n"
        "create(TableEnvironment.create(EnvironmentSettings.in_batch_mode()))\ncreate(object())\n"
    )
    result = convert(src)
    assert "t_env.execute_sql(" in result.output and ".sql(" not in result.output
    assert {"F2S209"} & _codes(result)


def test_attribute_assigned_two_kinds_is_marked():
    src = HEAD + (
        "class Job:\n"
        "    def __init__(self):\n"
        "        self.t = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n\n"
        "    def reset(self):\n"
        "        self.t = self.t.from_elements([(1,)], ['a'])\n\n"
        "    def run(self):\n"
        "        self.t.execute_sql('SELECT 1').print()\n"
    )
    result = convert(src)
    assert "self.t.execute_sql('SELECT 1').print()" in result.output
    assert {"F2S209"} & _codes(result)


def test_annotations_become_spark_classes_and_plain_code_stays():
    src = (
        "from pyflink.table import EnvironmentSettings, Table, TableEnvironment\n"
        "from pyflink.table.expressions import col\n\n\n"
        "def keep(t: Table) -> Table:\n    return t.select(col('a'))\n\n\n"
        "def size(items: list) -> int:\n    return  len( items )\n\n\n"
        "def main(t_env: TableEnvironment):\n    keep(t_env.from_elements([(1,)], ['a'])).execute().print()\n\n\n"
        "main(TableEnvironment.create(EnvironmentSettings.in_batch_mode()))\n"
    )
    result = convert(src)
    assert "def keep(t: DataFrame) -> DataFrame:" in result.output
    assert "def main(t_env: SparkSession):" in result.output
    assert "def size(items: list) -> int:\n    return  len( items )\n" in result.output  # byte for byte
    assert "pyflink" not in result.output and not result.markers
    assert convert(result.output).output == result.output


def test_table_name_given_to_a_helper():
    src = HEAD + (
        "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n\n\n"
        "def read(name):\n    return t_env.from_path(name)\n\n\n"
        "t_env.execute_sql(\"CREATE TEMPORARY VIEW orders AS SELECT 1 AS a\")\n"
        "n = 'orders'\nread(n).execute().print()\n"
    )
    once = convert(src)
    assert "return t_env.table(name)" in once.output and not [m for m in once.markers if m.severity == "todo"]
    twice = convert(src + "read('other').execute().print()\n")  # two names: which one is not known in the helper
    assert "return t_env.from_path(name)" in twice.output
    assert "F2S300" in _codes(twice)


def test_a_recursive_helper_passing_its_parameter_on_keeps_its_todo():
    src = HEAD + (
        "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n\n\n"
        "def read(name, n):\n    if n:\n        return read(name, n - 1)\n    return t_env.from_path(name)\n\n\n"
        "read('x', 2).execute().print()\n"
    )
    result = convert(src)
    assert "return t_env.from_path(name)" in result.output and "F2S300" in _codes(result)


BUILDER = (
    "def ddl(name, path, sep=None):\n"
    "    text = \"CREATE TABLE \" + name + \" (a INT) WITH ('connector' = 'filesystem', 'path' = '\" + path + \"', \"\n"
    "    text += \"'format' = 'csv'\"\n"
    "    text += \", 'csv.field-delimiter' = '\" + sep + \"'\" if sep is not None else ''\n"
    "    return text + ')'\n\n\n"
    "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n"
)


def test_sql_built_by_concatenation_is_read_per_call():
    """Each call's text: its constants in place, its sep chosen by the `is not None` test, the
    caller's other names as placeholders of an f-string (a fixture, parcel_returns_ddl_builder,
    runs the same shape on Flink and Spark)."""
    result = convert(HEAD + "import sys\n\n" + BUILDER + "t_env.execute_sql(ddl('a', '/in', ';'))\n"
                     "t_env.execute_sql(ddl('b', sys.argv[1]))\nt_env.execute_sql('INSERT INTO b SELECT a FROM a')\n")
    assert not [m for m in result.markers if m.severity == "todo"], result.output
    assert "path '/in'" in result.output and "sep ';'" in result.output
    assert "f\"CREATE TABLE b (a INT) USING csv OPTIONS (path '{sys.argv[1]}'" in result.output
    assert "sep" not in result.output.split("CREATE TABLE b")[1].split("\n")[0]  # the clause left out for None
    assert convert(result.output).output == result.output


def test_sql_whose_text_depends_on_an_argument_not_known_keeps_its_todo():
    """The delimiter clause is there or not by what the call passes: a value read at run time
    (os.environ.get may give None) leaves the text unknown, and the TODO at the call."""
    result = convert(HEAD + "import os\n\n" + BUILDER + "t_env.execute_sql(ddl('a', '/in', os.environ.get('SEP')))\n")
    assert "t_env.execute_sql(ddl('a', '/in', os.environ.get('SEP')))" in result.output
    assert "F2S320" in _codes(result)
    assert "depends on whether sep is None, given os.environ.get('SEP') by this call" in result.output


def test_text_built_in_a_branch_is_not_followed():
    """`+=` inside an if: whether it runs is not known when converting."""
    src = HEAD + (
        "import sys\n\n\n"
        "def ddl(name):\n"
        "    text = 'CREATE TABLE ' + name + \" (a INT) WITH ('connector' = 'print'\"\n"
        "    if len(sys.argv) > 2:\n        text += \", 'print-identifier' = 'x'\"\n"
        "    return text + ')'\n\n\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\nt_env.execute_sql(ddl('a'))\n"
    )
    result = convert(src)
    assert "t_env.execute_sql(ddl('a'))" in result.output and "F2S320" in _codes(result)
    assert "ddl() builds text in statements that run or not" in result.output


def test_create_table_named_by_a_helpers_parameter_keeps_its_todo():
    """The helper's DDL names the table its caller gives: whether the program reads it (a csv
    table read with STRING columns needs Flink's '' for an empty field) or only writes it is not
    followed, so no Spark form is chosen for it."""
    src = HEAD + (
        "def register(t_env, name, path):\n"
        "    t_env.execute_sql(f\"CREATE TABLE {name} (id INT, tag STRING) WITH ('connector' = 'filesystem', "
        "'path' = '{path}', 'format' = 'csv')\")\n\n\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n"
        "register(t_env, 'a', '/data/a')\nt_env.execute_sql('SELECT id, tag FROM a').print()\n"
    )
    result = convert(src)
    assert "t_env.execute_sql(f\"CREATE TABLE {name} (id INT, tag STRING)" in result.output
    assert "F2S321" in _codes(result) and "whose name is given by name" in result.output
    assert convert(result.output).output == result.output


def test_create_table_named_by_a_local_bound_to_a_literal_is_that_table():
    """`table_name = "events"; f"CREATE TABLE {table_name} ..."`: the table is events (its reads
    are followed), while the path stays a placeholder of the converted f-string."""
    src = HEAD + (
        "def create_events(t_env, path):\n"
        "    table_name = 'events'\n"
        "    t_env.execute_sql(f\"CREATE TABLE {table_name} (id INT) WITH ('connector' = 'filesystem', "
        "'path' = '{path}', 'format' = 'csv')\")\n\n\n"
        "t_env = TableEnvironment.create(EnvironmentSettings.in_batch_mode())\n"
        "create_events(t_env, '/data/e')\nt_env.from_path('events').execute().print()\n"
    )
    result = convert(src)
    assert not [m for m in result.markers if m.severity == "todo"], result.output
    assert "CREATE TABLE events (id INT) USING csv OPTIONS (path '{path}'" in result.output
