"""Kept TableResults (``result = t_env.execute_sql("SELECT ...")``, ``result = table.execute()``)
and a Table's plan (``explain()``, ``explain_sql()``): what converts and what keeps a TODO.

The conversions that keep Flink's records are measured on Flink 2.3 and Spark by the fixtures
store_sales_report_kept_results and sensor_checks_streaming_kept_results
(tests/test_table_fixtures.py); these tests pin the limits: a result Spark cannot give the same
way keeps its TODO, at the call and at its use.
"""

from __future__ import annotations

import pytest

from flink2spark.transpiler.engine import convert_source

HEAD = (
    "from pyflink.table import EnvironmentSettings, TableEnvironment\n\n"
    "t_env = TableEnvironment.create(EnvironmentSettings.in_{mode}_mode())\n"
    "t_env.execute_sql(\"CREATE VIEW src AS SELECT * FROM (VALUES ('a', 1), ('b', 2), ('a', 3)) AS t(w, n)\")\n"
    "words = t_env.from_path('src')\n"
)


def _convert(body: str, mode: str = "batch"):
    result = convert_source(HEAD.format(mode=mode) + body, "job.py")
    assert result.output is not None, result.markers
    assert convert_source(result.output, "job.py").output == result.output
    return result


def _todos(result) -> list[str]:
    return [m.message for m in result.markers if m.severity == "todo"]


def test_kept_query_results_become_the_dataframe_and_its_show_or_collect():
    result = _convert(
        "result = t_env.execute_sql('SELECT w, n FROM src')\nresult.print()\n"
        "kept = words.execute()\nwith kept.collect() as rows:\n    for row in rows:\n        print(row)\n"
        "listed = words.select(words.w).execute()\nprint(len(list(listed.collect())))\n"
    )
    assert _todos(result) == []
    lines = result.output.splitlines()
    assert 'result = t_env.sql("SELECT w, n FROM src")' in lines
    assert "result.show(2147483647, truncate=False)" in lines
    assert "kept = words" in lines and "with contextlib.nullcontext(kept.collect()) as rows:" in lines
    assert "print(len(list(listed.collect())))" in lines


def test_the_with_of_a_collected_query_is_a_context_manager_on_spark(spark, capsys):
    """``with t_env.execute_sql(q).collect() as rows``: Spark's list is no context manager."""
    result = _convert("with t_env.execute_sql('SELECT w FROM src WHERE n > 1').collect() as rows:\n"
                      "    for row in rows:\n        print(row[0])\n")
    assert _todos(result) == [] and "contextlib.nullcontext(" in result.output
    try:
        exec(compile(result.output, "job.py", "exec"), {"__name__": "job"})
    finally:
        spark.catalog.dropTempView("src")
    assert sorted(capsys.readouterr().out.split()) == ["a", "b"]


@pytest.mark.parametrize("body, todo", [
    # Flink's TableResult can be consumed once: a second use fails on Flink
    ("result = t_env.execute_sql('SELECT w FROM src')\nresult.print()\nresult.print()\n",
     "not kept in a name used once"),
    ("result = words.execute()\nprint(result.get_job_client().get_job_status())\n", "used another way"),
    ("result = t_env.execute_sql('SELECT w FROM src')\nresult.wait()\n", "used another way"),
    ("result = t_env.execute_sql('SELECT w FROM src')\nx = result.print()\n", "print() is used as a value"),
    ("result = t_env.execute_sql('SELECT w FROM src')\nprint(result.get_result_kind())\n", "used another way"),
])
def test_kept_results_used_another_way_keep_their_todo(body, todo):
    result = _convert(body)
    todos = _todos(result)
    assert todos and any(todo in t for t in todos), todos
    assert ".show(" not in result.output and ".execute" in result.output


def test_collect_of_an_updating_query_in_streaming_mode_keeps_a_todo():
    """Flink's collected rows of a GROUP BY in streaming mode are its changes (-U/+U rows too)."""
    result = _convert("counts = t_env.execute_sql('SELECT w, COUNT(*) AS c FROM src GROUP BY w')\n"
                      "for row in counts.collect():\n    print(row)\n", mode="streaming")
    assert any("collect() of an updating table in streaming mode" in t for t in _todos(result))
    assert "counts.collect()" in result.output and "execute_sql" in result.output
    inserts = _convert("hot = t_env.execute_sql('SELECT w FROM src WHERE n > 1')\n"
                       "for row in hot.collect():\n    print(row)\n", mode="streaming")
    assert _todos(inserts) == [] and "for row in hot.collect():" in inserts.output


def test_a_job_client_keeps_its_todo_with_why():
    result = _convert("r = t_env.execute_sql('SELECT w FROM src')\nprint(r.get_job_client().get_job_id())\n")
    assert any(t.startswith("TableResult.get_job_client().get_job_id(): Spark has no job client") for t in _todos(result))


def test_a_printed_plan_becomes_sparks_explain_with_a_note(spark, capsys):
    result = _convert("print(words.explain())\nprint(t_env.explain_sql('SELECT w FROM src WHERE n > 1'))\n")
    assert _todos(result) == []
    assert [m.code for m in result.markers if m.severity == "note"] == ["F2S316", "F2S316"]
    lines = result.output.splitlines()
    assert "words.explain()" in lines and 't_env.sql("SELECT w FROM src WHERE n > 1").explain()' in lines
    try:
        exec(compile(result.output, "job.py", "exec"), {"__name__": "job"})
    finally:
        spark.catalog.dropTempView("src")
    assert capsys.readouterr().out.count("== Physical Plan ==") == 2


def test_a_printed_plan_with_explain_details_names_them_in_its_note():
    # the details ask Flink for more of its own plan; Spark prints its plan without them
    result = _convert("from pyflink.table import ExplainDetail\nprint(words.explain(ExplainDetail.JSON_EXECUTION_PLAN))\n")
    assert _todos(result) == [] and "words.explain()" in result.output.splitlines()
    notes = [m.message for m in result.markers if m.code == "F2S316"]
    assert len(notes) == 1 and "JSON_EXECUTION_PLAN" in notes[0], notes


@pytest.mark.parametrize("body", [
    "plan = words.explain()\nprint(plan.splitlines()[0])\n",
    "print('plan:', words.explain())\n",
    "print(t_env.explain_sql(\"INSERT INTO src SELECT 'c', 4\"))\n",
    "def print(x):\n    return x\n\nprint(words.explain())\n",
])
def test_a_plan_used_another_way_keeps_its_todo(body):
    result = _convert(body)
    assert any(t.startswith(("explain", "explain_sql")) for t in _todos(result)), _todos(result)
    assert "explain" in result.output and "F2S316" not in result.output


KAFKA = (
    "import sys\n"
    "from pyflink.table import EnvironmentSettings, TableEnvironment\n"
    "t_env = TableEnvironment.create(EnvironmentSettings.in_streaming_mode())\n"
    "t_env.execute_sql(\"CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'src', "
    "'properties.bootstrap.servers' = 'k:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')\")\n"
    "t_env.execute_sql(\"CREATE TABLE out_t (k STRING, v INT) WITH ('connector' = 'print')\")\n"
)


@pytest.mark.parametrize("insert", [
    "t_env.execute_sql('INSERT INTO out_t SELECT k, v FROM src WHERE v > 0')",
    "t_env.from_path('src').execute_insert('out_t')",
])
def test_a_kept_streaming_insert_is_awaited_where_flinks_program_waits(insert):
    """``result = <streaming insert>`` used for more than waiting: the name keeps the started
    StreamingQuery, and ``result.wait()`` awaits it (removing it would end the program while the
    query runs); what Spark has no form for keeps its TODO."""
    source = KAFKA + f"result = {insert}\nif sys.argv[1:] == ['local']:\n    result.wait()\n" \
                     "else:\n    print(result.get_job_client().get_job_status())\n"
    result = convert_source(source, "job.py")
    lines = result.output.splitlines()
    assert "    result.awaitTermination()" in lines and "result = (" in lines
    assert [t.split(":")[0] for t in _todos(result)] == ["TableResult.get_job_client().get_job_status()"]
    # why the status has no Spark form: Flink prints a future's text and its job runs on after
    # the program returns; Spark's status is a dict and its query stops with the driver
    (status,) = _todos(result)
    assert "printed as the Java future's text" in status and "stops when the driver's program returns" in status, status
    waited_only = convert_source(KAFKA + f"result = {insert}\nresult.wait()\n", "job.py").output
    assert ".awaitTermination()" in waited_only and "result" not in waited_only


def test_a_kept_query_whose_use_comes_after_other_statements_run_keeps_its_todo():
    """Flink runs the query at execute_sql(); Spark would run it at show(): an insert between
    them could change what it reads."""
    result = _convert("t_env.execute_sql(\"CREATE TABLE out_t (w STRING) WITH ('connector' = 'blackhole')\")\n"
                      "before = t_env.execute_sql('SELECT w FROM src')\n"
                      "words.select(words.w).execute_insert('out_t').wait()\n"
                      "before.print()\n")
    assert any("statements between the query and the use" in t for t in _todos(result)), _todos(result)
    assert "before.print()" in result.output


def test_print_of_an_insert_result_is_the_write_with_a_note():
    """``execute_sql("INSERT ...").print()`` / ``execute_insert(sink).print()``: Flink 2.3 waits for
    the job, then prints -1 (fixture dock_returns_insert_print records it); the write stays, the
    line is a NOTE F2S328, not a record Spark invents."""
    result = _convert("t_env.execute_sql(\"CREATE TABLE sink_t (w STRING, n INT) WITH ('connector' = 'blackhole')\")\n"
                      "t_env.execute_sql('INSERT INTO sink_t SELECT w, n FROM src WHERE n > 1').print()\n"
                      "words.execute_insert('sink_t').print()\n")
    assert _todos(result) == []
    assert [m.code for m in result.markers if m.severity == "note"] == ["F2S328", "F2S328"]
    lines = result.output.splitlines()
    assert 't_env.sql("SELECT w, n FROM src WHERE n > 1").write.format("noop").mode(' in lines
    assert 'words.write.format("noop").mode("overwrite").save()' in lines
    assert ".print()" not in result.output


@pytest.mark.parametrize("body", [
    "shown = t_env.execute_sql('INSERT INTO sink_t SELECT w, n FROM src').print()\n",
    "shown = words.execute_insert('sink_t').print()\n",
    "t_env.execute_sql('INSERT INTO sink_t SELECT w, n FROM src').collect()\n",
])
def test_an_insert_result_used_another_way_than_a_print_statement_keeps_its_todo(body):
    result = _convert("t_env.execute_sql(\"CREATE TABLE sink_t (w STRING, n INT) WITH ('connector' = 'blackhole')\")\n" + body)
    assert len(_todos(result)) == 1 and not any(m.code == "F2S328" for m in result.markers)


STREAM_LOOP_HEAD = KAFKA.replace("import sys\n", "")


@pytest.mark.parametrize("loop, why", [
    ("for row in t_env.from_path('src').execute().collect():\n    if row[1] > 9:\n        break\n    print(row[0])\n",
     "holds a break"),
    ("total = 0\nfor row in t_env.from_path('src').execute().collect():\n    total += row[1]\n    print(total)\n",
     "binds 'total'"),
    ("result = t_env.from_path('src').execute()\nwith result.collect() as rows:\n    for row in rows:\n        del row\n",
     "holds a del"),
    ("for row in t_env.from_path('src').execute().collect():\n    print(row.get_row_kind(), row[0])\n",
     "calls get_row_kind() of a Flink Row"),
    ("for row in t_env.execute_sql('SELECT k, v FROM src').collect():\n    print(row[0])\nprint(row)\n",
     "binds 'row'"),
    ("result = t_env.from_path('src').execute()\nwith result.collect() as rows:\n    print('first')\n    for row in rows:\n"
     "        print(row[0])\n", "holds more than a for loop"),
])
def test_a_streaming_collect_loop_that_cannot_run_per_micro_batch_keeps_its_todo(loop, why):
    """The loop over a streaming query's rows becomes a foreachBatch function only when its body
    runs the same per row there: a break ends Flink's loop, an accumulator bound outside would be
    a local of the function, a Row's row kind is Flink's."""
    result = convert_source(STREAM_LOOP_HEAD + loop, "job.py")
    assert any(why in t for t in _todos(result)), _todos(result)
    assert "foreachBatch(for_each_batch)" not in result.output


def test_a_streaming_collect_loop_runs_per_micro_batch_with_module_names():
    """A body reading module-level names and binding its own locals converts: the loop is the
    body of for_each_batch over batch.collect() (run against Spark by the fixtures
    orders_kafka_collect_loop and sensor_alerts_kafka_sql_collect)."""
    result = convert_source(STREAM_LOOP_HEAD + "LIMIT = 3\nfor row in t_env.from_path('src').execute().collect():\n"
                            "    big = row[1] > LIMIT\n    print(row[0], big)\n", "job.py")
    assert _todos(result) == []
    assert "def for_each_batch(batch, batch_id):\n    for row in batch.collect():\n        big = row[1] > LIMIT\n" in result.output
    assert [m.code for m in result.markers if m.code == "F2S337"] == ["F2S337"]
