"""A model of PyFlink's Table API (``pyflink.table``, Flink 1.12-2.3): its classes and what
each method returns, read from the PyFlink 2.3.0 wheel (``table/table_environment.py``,
``table/table.py``, ``table/table_result.py``, ``table/statement_set.py``,
``table/table_config.py``).

The Table API is part of the modern PyFlink generation: ``pyflink_model`` merges these tables
into its own, and the rules of ``rules/table/`` convert the constructs. Every public method of
these classes is listed, converted or not, so that a method with no rule gets a TODO saying it
has no conversion, and a name that is not a method of the class one saying so.
"""

from __future__ import annotations

from typing import Optional

TABLE_ENV = "TableEnvironment"
STREAM_TABLE_ENV = "StreamTableEnvironment"
TABLE = "Table"
GROUPED_TABLE = "GroupedTable"
GROUP_WINDOWED_TABLE = "GroupWindowedTable"
WINDOW_GROUPED_TABLE = "WindowGroupedTable"
OVER_WINDOWED_TABLE = "OverWindowedTable"
AGGREGATED_TABLE = "AggregatedTable"
FLAT_AGGREGATE_TABLE = "FlatAggregateTable"
TABLE_RESULT = "TableResult"
STATEMENT_SET = "StatementSet"
TABLE_CONFIG = "TableConfig"
ENV_SETTINGS = "EnvironmentSettings"
ENV_SETTINGS_BUILDER = "EnvironmentSettingsBuilder"  # EnvironmentSettings.new_instance()
TABLE_ITERATOR = "TableResultIterator"
JOB_CLIENT = "TableJobClient"  # TableResult.get_job_client(): a JobClient (pyflink_model.JOB_CLIENT: of execute_async())
JOB_FUTURE = "TableJobFuture"  # its get_job_execution_result(): a CompletableFuture
DATA_TYPE = "DataType"  # DataTypes.ROW(...): a schema (rules/table/schemas.py)
CONNECT_DESCRIPTOR = "ConnectTableDescriptor"  # t_env.connect(...) of Flink 1.9-1.13 (StreamTableDescriptor...)
CONFIGURATION = "Configuration"  # TableConfig.get_configuration(): pyflink.common.Configuration (pyflink_model)
UDF = "UserDefinedFunction"  # what udf()/udtf()/udaf()/udtaf() return (or decorate a def into)  # TableResult.collect(): a CloseableIterator of Rows

SAME = "<same>"  # the method returns its receiver (pyflink_model.SAME)

BASES: dict[str, str] = {STREAM_TABLE_ENV: TABLE_ENV}


def _none(names: str) -> dict[str, Optional[str]]:
    return {name: None for name in names.split()}


METHODS: dict[str, dict[str, Optional[str]]] = {
    TABLE_ENV: {
        "from_elements": TABLE,
        "from_pandas": TABLE,
        "from_path": TABLE,
        "from_descriptor": TABLE,
        "sql_query": TABLE,
        "execute_sql": TABLE_RESULT,
        "create_statement_set": STATEMENT_SET,
        "get_config": TABLE_CONFIG,
        # Flink 1.9-1.13 (removed since): connect() descriptors, scan(), sql_update(), execute(job_name)
        "connect": CONNECT_DESCRIPTOR,
        "scan": TABLE,
        **_none("sql_update execute register_table_source register_table_sink insert_into explain"),
        **_none(
            "create_catalog register_catalog get_catalog load_module unload_module use_modules"
            " create_java_temporary_system_function create_temporary_system_function drop_temporary_system_function"
            " create_java_function drop_function create_java_temporary_function create_temporary_function"
            " drop_temporary_function create_temporary_table create_table list_catalogs list_modules list_full_modules"
            " list_databases list_tables list_views list_materialized_tables list_user_defined_functions list_functions"
            " list_temporary_tables list_temporary_views list_models list_temporary_models drop_temporary_table"
            " drop_table drop_temporary_view drop_view drop_temporary_model drop_model explain_sql get_current_catalog"
            " use_catalog get_current_database use_database create_temporary_view create_view create_model"
            " create_temporary_model add_python_file set_python_requirements add_python_archive load_plan"
            " compile_plan_sql execute_plan register_function register_table register_java_function"
        ),
    },
    STREAM_TABLE_ENV: {
        "from_data_stream": TABLE,
        "from_changelog_stream": TABLE,
        # to a DataStream: the stream graph follows it (pyflink_model.TABLE_BRIDGES; its
        # operators carry TODO F2S210 until the bridges are converted)
        **{name: "DataStream" for name in ("to_data_stream", "to_changelog_stream", "to_append_stream", "to_retract_stream")},
    },
    TABLE: {
        **{
            name: TABLE
            for name in (
                "select alias filter where distinct join left_outer_join right_outer_join full_outer_join join_lateral"
                " left_outer_join_lateral minus minus_all union union_all intersect intersect_all order_by offset fetch"
                " limit add_columns add_or_replace_columns rename_columns drop_columns map flat_map to_changelog"
                " from_changelog"
            ).split()
        },
        "group_by": GROUPED_TABLE,
        "window": GROUP_WINDOWED_TABLE,
        "over_window": OVER_WINDOWED_TABLE,
        "aggregate": AGGREGATED_TABLE,
        "flat_aggregate": FLAT_AGGREGATE_TABLE,
        "execute": TABLE_RESULT,
        "execute_insert": TABLE_RESULT,
        **_none("to_pandas get_schema get_resolved_schema print_schema explain print_explain insert_into"),
    },
    GROUPED_TABLE: {"select": TABLE, "aggregate": AGGREGATED_TABLE, "flat_aggregate": FLAT_AGGREGATE_TABLE},
    GROUP_WINDOWED_TABLE: {"group_by": WINDOW_GROUPED_TABLE},
    WINDOW_GROUPED_TABLE: {"select": TABLE, "aggregate": AGGREGATED_TABLE},
    OVER_WINDOWED_TABLE: {"select": TABLE},
    AGGREGATED_TABLE: {"select": TABLE},
    FLAT_AGGREGATE_TABLE: {"select": TABLE},
    TABLE_RESULT: {
        "print": None,
        "collect": TABLE_ITERATOR,
        "wait": None,
        "get_job_client": JOB_CLIENT,
        **_none("get_table_schema get_resolved_schema get_result_kind"),
    },
    TABLE_ITERATOR: _none("next close"),
    JOB_CLIENT: {"get_job_execution_result": JOB_FUTURE,
                 **_none("get_job_id get_job_status cancel stop_with_savepoint trigger_savepoint get_accumulators")},
    JOB_FUTURE: _none("result cancel cancelled done exception"),
    UDF: _none("alias"),
    DATA_TYPE: _none("not_null nullable"),
    ENV_SETTINGS: _none("get_built_in_catalog_name get_built_in_database_name is_streaming_mode get_configuration to_configuration"),
    ENV_SETTINGS_BUILDER: {
        **{name: SAME for name in ("in_batch_mode in_streaming_mode with_configuration with_built_in_catalog_name"
                                   " with_built_in_database_name use_blink_planner use_old_planner use_any_planner").split()},
        "build": ENV_SETTINGS,
    },
    STATEMENT_SET: {
        "add": SAME,
        "add_insert_sql": SAME,
        "add_insert": SAME,
        "execute": TABLE_RESULT,
        **_none("attach_as_datastream explain print_explain compile_plan"),
    },
    CONNECT_DESCRIPTOR: {
        **{name: SAME for name in "with_format with_schema in_append_mode in_retract_mode in_upsert_mode".split()},
        **_none("create_temporary_table register_table_source register_table_sink register_table_source_and_sink"),
    },
    TABLE_CONFIG: {
        "set": TABLE_CONFIG,
        "get_configuration": CONFIGURATION,
        **_none(
            "get get_local_timezone set_local_timezone get_max_generated_code_length set_max_generated_code_length"
            " set_idle_state_retention get_idle_state_retention add_configuration to_map"
            " get_sql_dialect set_sql_dialect set_python_executable get_python_executable get_default"
        ),
    },
}

# A table operation followed by one of these is one construct, which the rule of its first call
# converts as a whole: group_by(...).select(...) is one Spark groupBy().agg(), execute().print()
# one show().
CONTINUATIONS: dict[str, frozenset[str]] = {
    GROUPED_TABLE: frozenset({"select", "aggregate", "flat_aggregate"}),
    GROUP_WINDOWED_TABLE: frozenset({"group_by"}),
    WINDOW_GROUPED_TABLE: frozenset({"select", "aggregate"}),
    OVER_WINDOWED_TABLE: frozenset({"select"}),
    AGGREGATED_TABLE: frozenset({"select"}),
    FLAT_AGGREGATE_TABLE: frozenset({"select"}),
    TABLE_RESULT: frozenset({"print", "wait", "collect", "get_job_client"}),
    # result.get_job_client().get_job_execution_result().result(): waits for the job, as wait() does;
    # any other use of the client is one construct too (one TODO: rules/table/result_wait.py)
    JOB_CLIENT: frozenset(METHODS[JOB_CLIENT]),
    JOB_FUTURE: frozenset(METHODS[JOB_FUTURE]),
    # t_env.connect(...).with_format(...).with_schema(...).create_temporary_table("name"): one table
    CONNECT_DESCRIPTOR: frozenset(METHODS[CONNECT_DESCRIPTOR]),
}

_ENVIRONMENTS = {
    "TableEnvironment": TABLE_ENV,
    "StreamTableEnvironment": STREAM_TABLE_ENV,
    "BatchTableEnvironment": TABLE_ENV,  # Flink 1.10-1.13
}
# Qualified names of the calls that create a table environment: each module that exports one.
ENTRY_POINTS: dict[str, str] = {
    f"pyflink.table.{module}{name}.create": typ
    for name, typ in _ENVIRONMENTS.items()
    for module in ("", "table_environment.")
}

# Classes whose name as a type annotation (``def f(t_env: TableEnvironment)``, ``-> Table``) says
# what a parameter holds, and what the annotation becomes in the converted program (a class of
# pyspark.sql): a table environment is a SparkSession, a Table a DataFrame.
ANNOTATION_TYPES: dict[str, str] = {
    f"pyflink.table.{module}{name}": typ
    for name, typ, module in [
        *[(n, t, m) for n, t in _ENVIRONMENTS.items() for m in ("", "table_environment.")],
        *[("Table", TABLE, m) for m in ("", "table.")],
        *[("StatementSet", STATEMENT_SET, m) for m in ("", "statement_set.")],
    ]
}
# A statement set given to a helper is the session it was created on (rules/table/sql.py).
ANNOTATION_CLASSES: dict[str, str] = {TABLE_ENV: "SparkSession", STREAM_TABLE_ENV: "SparkSession", TABLE: "DataFrame",
                                      STATEMENT_SET: "SparkSession"}

_SETTINGS = {"in_batch_mode": ENV_SETTINGS, "in_streaming_mode": ENV_SETTINGS, "new_instance": ENV_SETTINGS_BUILDER}
ENTRY_POINTS.update(
    {f"pyflink.table.{module}EnvironmentSettings.{name}": typ for name, typ in _SETTINGS.items()
     for module in ("", "environment_settings.")}
)

ENTRY_POINTS.update({f"pyflink.table.{module}{name}": UDF for name in ("udf", "udtf", "udaf", "udtaf") for module in ("", "udf.")})

# TableConfig(): Flink 1.9-1.13's table_config argument of TableEnvironment.create
ENTRY_POINTS.update({f"pyflink.table.{module}TableConfig": TABLE_CONFIG for module in ("", "table_config.")})

ENTRY_POINTS.update({f"pyflink.table.{module}DataTypes.ROW": DATA_TYPE for module in ("", "types.")})

# What the Table API's modules export (their __all__ in PyFlink 2.3): names a star import brings.
EXPORTS: dict[str, tuple[str, ...]] = {
    "pyflink.table": tuple(
        "AggregateFunction AsyncScalarFunction ChangelogMode CompiledPlan DataTypes DataView EnvironmentSettings"
        " ExplainDetail Expression FormatDescriptor FunctionContext GroupWindowedTable GroupedTable ListView MapView"
        " Module ModuleEntry OverWindowedTable PlanReference ResultKind Row RowKind ScalarFunction Schema SqlDialect"
        " StatementSet StreamTableEnvironment Table TableAggregateFunction TableConfig TableDescriptor TableEnvironment"
        " TableFunction TablePipeline TableResult TableSchema UserDefinedType WindowGroupedTable".split()
    ) + ("BatchTableEnvironment", "CsvTableSink", "CsvTableSource", "TableSink", "TableSource", "WriteMode"),  # 1.9-1.13
    "pyflink.table.expressions": tuple(
        "CURRENT_RANGE CURRENT_ROW UNBOUNDED_RANGE UNBOUNDED_ROW and_ array atan2 call call_sql col concat concat_ws"
        " convert_tz current_database current_date current_time current_timestamp current_watermark date_format"
        " descriptor e from_unixtime if_then_else json json_array json_array_agg json_object json_object_agg"
        " json_string lit local_time local_timestamp log map_ negative not_ null_of or_ pi rand rand_integer range_ row"
        " row_interval source_watermark temporal_overlaps timestamp_diff to_date to_timestamp to_timestamp_ltz"
        " unix_timestamp uuid with_columns without_columns".split()
    ),
    # Flink 1.9-1.13 (removed since): what their star imports brought besides
    "pyflink.table.descriptors": ("Avro", "Csv", "CustomConnectorDescriptor", "CustomFormatDescriptor",
                                  "Elasticsearch", "FileSystem", "HBase", "Json", "Kafka", "OldCsv", "Rowtime",
                                  "Schema"),
    "pyflink.table.window": ("GroupWindow", "Over", "OverWindow", "Session", "Slide", "Tumble"),
    "pyflink.table.udf": ("AggregateFunction", "AsyncScalarFunction", "FunctionContext", "ScalarFunction",
                          "TableAggregateFunction", "TableFunction", "udaf", "udf", "udtaf", "udtf"),
}

HINTS = {
    "Table.explain": "Spark shows a query's plan with DataFrame.explain()",
    "TableResult.get_job_client": "Spark has no job client: a converted query or write has run to its end where it is "
                                  "called, so there is no job status, id or cancel() to ask for (a streaming query's "
                                  "StreamingQuery has id, status and stop())",
    "TableEnvironment.register_catalog": "a catalog's tables are not converted yet: Spark reads a JDBC database's tables "
                                         "one by one with spark.read.format('jdbc') (url = the catalog's base url and "
                                         "database, dbtable, user, password) and declares other catalogs in the "
                                         "session's settings (spark.sql.catalog.<name>)",
    "Table.print_schema": "Spark prints a DataFrame's schema with DataFrame.printSchema()",
    TABLE_CONFIG: "set Spark settings with SparkSession.builder.config(...) or spark.conf.set(...)",
}

# Method names only the Table API has: a call to one on a receiver of unknown type in a PyFlink
# file is marked.
DISTINCTIVE_METHODS = frozenset(
    {"execute_sql", "sql_query", "from_elements", "from_pandas", "from_path", "execute_insert", "add_insert_sql",
     "create_statement_set", "create_temporary_view", "create_temporary_system_function", "left_outer_join_lateral",
     "join_lateral", "add_or_replace_columns", "flat_aggregate", "over_window", "create_temporary_table",
     "create_temporary_function", "add_configuration", "from_data_stream", "to_data_stream", "to_append_stream",
     "to_retract_stream", "to_changelog_stream", "sql_update", "register_table_sink", "register_table_source",
     "get_job_client", "register_function", "register_java_function", "set_string", "set_integer", "set_boolean",
     "insert_into"}
)
