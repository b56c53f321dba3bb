"""JDBC tables -> Spark's JDBC data source (rules/table/_jdbc.py): converted programs run on
Spark against a real database, and what stays a TODO.

The database is Apache Derby, in memory (its embedded driver ships with PySpark's jars, so the
test's Spark JVM has it): the converted job reads a table a test filled and appends rows to
another, and the test reads the rows back with plain JDBC. Flink's side is not run here: Flink
2.3's JDBC connector is a separate jar (flink-connector-jdbc) that this machine does not have,
so the rows expected are written by hand from what the programs ask of Flink: a scan of the
declared columns, and an append-only sink inserting the rows under the DDL's column names.
"""

from __future__ import annotations

import ast
import itertools

import pytest

from test_pyflink_streaming import fake_kafka  # noqa: F401  (a pytest fixture)

from flink2spark.transpiler.engine import convert_source

DRIVER = "org.apache.derby.jdbc.EmbeddedDriver"
_names = itertools.count()


def convert(source: str) -> str:
    out = convert_source(source, "job.py").output
    ast.parse(out)
    return out


def todos(out: str) -> list[str]:
    return [line.strip() for line in out.splitlines() if "TODO(flink2spark)" in line]


@pytest.fixture
def derby(spark):
    """(url of a fresh in-memory Derby database, a function running SQL on it and returning the rows of a query)."""
    url = f"jdbc:derby:memory:f2s{next(_names)};create=true"
    jvm = spark.sparkContext._jvm
    jvm.java.lang.Class.forName(DRIVER)
    connection = jvm.java.sql.DriverManager.getConnection(url)

    def run(sql: str) -> list[tuple]:
        statement = connection.createStatement()
        if not sql.lstrip().upper().startswith("SELECT"):
            statement.execute(sql)
            return []
        result = statement.executeQuery(sql)
        width = result.getMetaData().getColumnCount()
        rows = []
        while result.next():
            rows.append(tuple(result.getString(i + 1) for i in range(width)))
        return rows

    yield url, run
    connection.close()


JOB = '''
from pyflink.table import EnvironmentSettings, TableEnvironment
from pyflink.table.expressions import col

DB_URL = "{url}"


def main():
    t_env = TableEnvironment.create(EnvironmentSettings.in_{mode}_mode())
    t_env.execute_sql(f"""
        CREATE TABLE orders (
            id INT,
            customer STRING,
            amount DECIMAL(10, 2)
        ) WITH (
            'connector' = 'jdbc',
            'url' = '{{DB_URL}}',
            'table-name' = 'ORDERS',
            'driver' = '{driver}',
            'scan.fetch-size' = '100'
        )
    """)
    t_env.execute_sql(f"""
        CREATE TABLE big_orders (
            customer STRING,
            amount DECIMAL(10, 2)
        ) WITH (
            'connector' = 'jdbc',
            'url' = '{{DB_URL}}',
            'table-name' = 'BIG_ORDERS',
            'driver' = '{driver}',
            'sink.buffer-flush.max-rows' = '10',
            'sink.max-retries' = '2'
        )
    """)
    t_env.execute_sql(f"""
        CREATE TABLE customer_totals (
            customer STRING,
            total DECIMAL(10, 2),
            orders BIGINT
        ) WITH (
            'connector' = 'jdbc',
            'url' = '{{DB_URL}}',
            'table-name' = 'CUSTOMER_TOTALS',
            'driver' = '{driver}'
        )
    """)
    {totals}
    t_env.from_path("orders").filter(col("amount") > 20).select(col("customer"), col("amount")) \\
        .execute_insert("big_orders").wait()


main()
'''

TOTALS = {
    "batch": 't_env.execute_sql("INSERT INTO customer_totals SELECT customer, SUM(amount), COUNT(*) '
             'FROM orders GROUP BY customer").wait()',
    "streaming": "",
}


def _database(run) -> None:
    run("CREATE TABLE orders (note VARCHAR(20), amount DECIMAL(10, 2), customer VARCHAR(20), id INT)")  # other order, one more column
    run("INSERT INTO orders VALUES ('a', 12.50, 'ann', 1), ('b', 30.00, 'bob', 2), ('c', 41.25, 'ann', 3), ('d', 5.00, 'cy', 4)")
    # the sinks' columns in another order than the DDL's: rows are written by name
    run("CREATE TABLE big_orders (amount DECIMAL(10, 2), customer VARCHAR(20))")
    run("CREATE TABLE customer_totals (orders BIGINT, customer VARCHAR(20), total DECIMAL(10, 2))")
    run("INSERT INTO big_orders VALUES (99.99, 'kept')")  # appended to, not replaced


@pytest.mark.parametrize("mode", ["batch", "streaming"])
def test_jdbc_source_and_append_sinks_run_on_spark(spark, derby, mode):
    url, run = derby
    _database(run)
    out = convert(JOB.format(url=url, driver=DRIVER, mode=mode, totals=TOTALS[mode]))
    assert todos(out) == [], out
    assert 'read.format("jdbc").option("url", DB_URL).option("dbtable", "ORDERS")' in out
    assert '.option("fetchsize", "100")' in out and "buffer" not in out and "retries" not in out
    assert '.mode("append").save()' in out
    assert "F2S322" in out
    exec(compile(out, "job.py", "exec"), {"__name__": "job"})
    assert sorted(run("SELECT customer, amount FROM big_orders")) == [("ann", "41.25"), ("bob", "30.00"), ("kept", "99.99")]
    totals = sorted(run("SELECT customer, total, orders FROM customer_totals"))
    assert totals == ([("ann", "53.75", "2"), ("bob", "30.00", "1"), ("cy", "5.00", "1")] if mode == "batch" else [])
    # converting the output again changes nothing
    assert convert_source(out, "job.py").output == out


def _table(columns: str, *options: str) -> str:
    extra = "".join(f", {o}" for o in options)
    return (f"CREATE TABLE {{name}} ({columns}) WITH ('connector' = 'jdbc', 'url' = 'jdbc:derby:memory:x', "
            f"'table-name' = 'T'{extra})")


HEAD = "from pyflink.table import EnvironmentSettings, TableEnvironment\n\nt_env = TableEnvironment.create(EnvironmentSettings.in_{mode}_mode())\n"
SRC = "CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'datagen', 'number-of-rows' = '5', 'fields.k.length' = '1')"


@pytest.mark.parametrize("mode, sink, insert, wanted", [
    # Flink's JDBC sink upserts by a primary key (ON CONFLICT / ON DUPLICATE KEY UPDATE...)
    ("batch", _table("k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED"), "SELECT k, COUNT(*) FROM src GROUP BY k",
     "Flink upserts by the key"),
    # an updating table into a sink without a key: Flink refuses it; no Spark form either
    ("streaming", _table("k STRING, n BIGINT"), "SELECT k, COUNT(*) FROM src GROUP BY k", "a table that may be updating"),
    ("batch", _table("k STRING, v INT", "'scan.partition.column' = 'v'", "'scan.partition.num' = '2'",
                     "'scan.partition.lower-bound' = '0'", "'scan.partition.upper-bound' = '9'"),
     "SELECT k, v FROM src", "between the partition bounds"),
    ("batch", _table("k STRING, v INT", "'dialect' = 'x'"), "SELECT k, v FROM src", "JDBC option 'dialect'"),
])
def test_jdbc_sinks_left_as_todo(mode, sink, insert, wanted):
    out = convert(HEAD.format(mode=mode) + f't_env.execute_sql("{SRC}")\n'
                  f't_env.execute_sql("{sink.format(name="dst")}")\n'
                  f't_env.execute_sql("INSERT INTO dst {insert}").wait()\n')
    found = todos(out)
    assert any(wanted in t for t in found), found
    assert 't_env.execute_sql("INSERT INTO dst' in out  # the insert stays for porting by hand
    assert ".write.format(\"jdbc\")" not in out


def test_jdbc_lookup_join_stays_a_todo():
    dim = _table("k STRING, name STRING").format(name="dim")
    out = convert(HEAD.format(mode="streaming") + f't_env.execute_sql("{SRC.replace("v INT", "v INT, pt AS PROCTIME()")}")\n'
                  f't_env.execute_sql("{dim}")\n'
                  't_env.execute_sql("SELECT s.k, d.name FROM src AS s JOIN dim FOR SYSTEM_TIME AS OF s.pt AS d ON s.k = d.k").print()\n')
    assert any("FOR SYSTEM_TIME AS OF" in t for t in todos(out)), todos(out)


def test_jdbc_source_with_computed_columns_is_a_todo():
    table = _table("k STRING, v INT, w AS v * 2").format(name="src")
    out = convert(HEAD.format(mode="batch") + f't_env.execute_sql("{table}")\nt_env.execute_sql("SELECT k, w FROM src").print()\n')
    assert any("computed, metadata or watermark columns" in t for t in todos(out)), todos(out)


def test_generated_reader_and_writer_options_are_spark_jdbc_options(spark, derby):
    # the options the conversion writes are ones Spark's JDBC source knows (a misspelt one fails the read)
    url, run = derby
    run("CREATE TABLE t (k VARCHAR(5), v INT)")
    run("INSERT INTO t VALUES ('a', 1)")
    frame = (spark.read.format("jdbc").option("url", url).option("dbtable", "T").option("driver", DRIVER)
             .option("fetchsize", "100").option("user", "app").option("password", "secret").load())
    assert [tuple(r) for r in frame.collect()] == [("a", 1)]
    frame.write.format("jdbc").option("url", url).option("dbtable", "T").option("driver", DRIVER).mode("append").save()
    assert sorted(run("SELECT k, v FROM t")) == [("a", "1"), ("a", "1")]


@pytest.mark.parametrize("columns, wanted", [
    # Flink's JDBC sink takes an updating table when it has a primary key (it upserts each change)
    ("k STRING, n BIGINT, PRIMARY KEY (k) NOT ENFORCED", "a 'jdbc' table with PRIMARY KEY (k) takes them in Flink"),
    # and refuses it without one (JdbcDynamicTableSink.getChangelogMode)
    ("k STRING, n BIGINT", "a 'jdbc' table without PRIMARY KEY: Flink refuses the job (\"please declare primary key"),
])
def test_an_updating_stream_into_a_jdbc_table_says_what_flink_does(columns, wanted):
    kafka = ("CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'src', "
             "'properties.bootstrap.servers' = 'k:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')")
    out = convert(HEAD.format(mode="streaming") + f't_env.execute_sql("{kafka}")\n'
                  f't_env.execute_sql("{_table(columns).format(name="dst")}")\n'
                  't_env.execute_sql("INSERT INTO dst SELECT k, COUNT(*) FROM src GROUP BY k").wait()\n')
    found = todos(out)
    assert any("into 'dst': " + wanted in t for t in found), found
    assert not any("takes inserts only" in t for t in found), found


STREAM_JOB = '''
from pyflink.datastream import StreamExecutionEnvironment
from pyflink.table import EnvironmentSettings, StreamTableEnvironment


def create_fares_sink(t_env):
    table_name = "paid_fares"
    t_env.execute_sql(f"""
        CREATE TABLE {{table_name}} (
            ride_id INT,
            zone STRING,
            fare DOUBLE
        ) WITH (
            'connector' = 'jdbc',
            'url' = '{url}',
            'table-name' = '{{table_name}}',
            'driver' = '{driver}'
        )
    """)
    return table_name


def main():
    env = StreamExecutionEnvironment.get_execution_environment()
    t_env = StreamTableEnvironment.create(env, environment_settings=EnvironmentSettings.in_streaming_mode())
    t_env.execute_sql("CREATE TABLE rides (ride_id INT, zone STRING, fare DOUBLE, pickup_ms BIGINT) WITH ("
                      "'connector' = 'kafka', 'properties.bootstrap.servers' = 'broker:9092', 'topic' = 'rides', "
                      "'scan.startup.mode' = 'earliest-offset', 'format' = 'json')")
    sink = create_fares_sink(t_env)
    t_env.execute_sql(f"INSERT INTO {{sink}} SELECT ride_id, UPPER(zone), fare FROM rides WHERE fare > 0").wait()


main()
'''


def test_a_stream_into_a_jdbc_table_without_key_appends_each_micro_batch(spark, derby, fake_kafka, state_store_reset):
    # Flink's JDBC sink of an insert-only query into a table without PRIMARY KEY inserts each row
    # (JdbcDynamicTableSink: append mode); Spark writes each micro-batch with its JDBC writer. The
    # sink's options name the helper's local table_name, a constant: the write carries its value.
    url, run = derby
    run("CREATE TABLE paid_fares (fare DOUBLE, zone VARCHAR(20), ride_id INT)")
    run("INSERT INTO paid_fares VALUES (1.5, 'KEPT', 0)")  # appended to, not replaced
    publish, _, _, drain = fake_kafka
    publish("rides", ['{"ride_id": 1, "zone": "north", "fare": 12.5, "pickup_ms": 1}',
                      '{"ride_id": 2, "zone": "south", "fare": 0.0, "pickup_ms": 2}',
                      '{"ride_id": 3, "zone": "east", "fare": 7.25, "pickup_ms": 3}'])
    out = convert(STREAM_JOB.format(url=url, driver=DRIVER))
    assert todos(out) == [], out
    assert ".writeStream.foreachBatch(" in out and '.option("dbtable", "paid_fares")' in out
    exec(compile(out, "job.py", "exec"), {"__name__": "job"})
    drain(spark)
    assert sorted(run("SELECT ride_id, zone, fare FROM paid_fares")) == [("0", "KEPT", "1.5"), ("1", "NORTH", "12.5"),
                                                                        ("3", "EAST", "7.25")]
    assert convert_source(out, "job.py").output == out


def test_a_stream_into_a_jdbc_table_with_a_key_stays_a_todo():
    kafka = ("CREATE TABLE src (k STRING, v INT) WITH ('connector' = 'kafka', 'topic' = 'src', "
             "'properties.bootstrap.servers' = 'k:9092', 'scan.startup.mode' = 'earliest-offset', 'format' = 'json')")
    out = convert(HEAD.format(mode="streaming") + f't_env.execute_sql("{kafka}")\n'
                  f't_env.execute_sql("{_table("k STRING, v INT, PRIMARY KEY (k) NOT ENFORCED").format(name="dst")}")\n'
                  't_env.execute_sql("INSERT INTO dst SELECT k, v FROM src").wait()\n')
    assert any("Flink upserts by the key" in t for t in todos(out)), todos(out)
    assert "foreachBatch" not in out
