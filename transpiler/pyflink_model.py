"""A model of the modern PyFlink DataStream API (``pyflink.datastream``, Flink 1.12-2.3).

Read from the PyFlink 2.3.0 wheel (``datastream/data_stream.py``,
``datastream/stream_execution_environment.py``, ``datastream/connectors/*``): which classes
exist, what each method returns, which names each module exports. The engine uses it to know
which expressions are PyFlink objects; rules never match on a method name alone.

Every public method of the stream classes is listed, converted or not: a method with no rule
gets a TODO saying it has no conversion (with a hint from ``HINTS``), a method that is not in
the model at all gets a TODO saying it is not part of the API.
"""

from __future__ import annotations

from typing import Optional

from flink2spark.transpiler.visitors import nodes, is_method_call
from flink2spark.transpiler import markers as M
from flink2spark.transpiler import table_model as T
from flink2spark.transpiler.generation import SAME, GenerationModel, type_functions

API_NAME = "PyFlink DataStream"
QUALIFIED_PREFIXES = ("pyflink.",)
SHIM_NAME = "datastream"  # flink2spark.runtime.datastream, imported as f2s
KEEP_NAMES = False  # operator names (.name("x")) are dropped, not turned into RDD.setName
RULE_SETS = ("table",)  # the Table API's rules (rules/table/) convert with this generation's
COLUMN_TYPES = frozenset({T.TABLE})  # table.a is a column, as on the DataFrame the table becomes

# Marker codes the engine uses for this generation (see convert.DEFAULT_CODES).
CODES = {
    "unsupported": M.PF_UNSUPPORTED,
    "function": M.PF_FUNCTION,
    "collector": M.PF_STATE,
    "unknown_receiver": M.PF_UNKNOWN_RECEIVER,
    "table_stream": M.PF_TABLE_STREAM,
    "flink_name": M.PF_FLINK_NAME,
    "parallelism": None,  # parallelism changes no result of a converted PyFlink job: dropped silently
}

ENVIRONMENT = "StreamExecutionEnvironment"
DATASTREAM = "DataStream"
KEYED = "KeyedStream"
WINDOWED = "WindowedStream"
ALL_WINDOWED = "AllWindowedStream"
CONNECTED = "ConnectedStreams"
BROADCAST = "BroadcastStream"
BROADCAST_CONNECTED = "BroadcastConnectedStream"
CACHED = "CachedDataStream"
SINK = "DataStreamSink"
RESULT = "JobExecutionResult"
JOB_CLIENT = "JobClient"
CLOSEABLE = "CloseableIterator"
FUTURE = "CompletableFuture"
FILE_SOURCE_BUILDER = "FileSourceBuilder"
FILE_SOURCE = "FileSource"
NUMBER_SEQUENCE = "NumberSequenceSource"
OUTPUT_TAG = "OutputTag"
FILE_SINK_BUILDER = "FileSinkBuilder"  # FileSink.RowFormatBuilder / BulkFormatBuilder
FILE_SINK = "FileSink"
STREAMING_FILE_SINK_BUILDER = "StreamingFileSinkBuilder"
STREAMING_FILE_SINK = "StreamingFileSink"
CHECKPOINT_CONFIG = "CheckpointConfig"
OUTPUT_FILE_CONFIG_BUILDER = "OutputFileConfigBuilder"
OUTPUT_FILE_CONFIG = "OutputFileConfig"
ROLLING_POLICY = "RollingPolicy"
BUCKET_ASSIGNER = "BucketAssigner"
CONFIGURATION = "Configuration"
EXECUTION_CONFIG = "ExecutionConfig"
KAFKA_SOURCE_BUILDER = "KafkaSourceBuilder"
KAFKA_OFFSETS = "KafkaOffsetsInitializer"  # KafkaOffsetsInitializer.earliest()... (read by the source builder)
KAFKA_OFFSETS_METHODS = ("earliest", "latest", "timestamp", "committed_offsets", "offsets")
KAFKA_SOURCE = "KafkaSource"
KAFKA_SINK_BUILDER = "KafkaSinkBuilder"
KAFKA_SINK = "KafkaSink"
KAFKA_RECORD_BUILDER = "KafkaRecordSerializationSchemaBuilder"
KAFKA_RECORD_SCHEMA = "KafkaRecordSerializationSchema"
KAFKA_CONSUMER = "FlinkKafkaConsumer"
KAFKA_PRODUCER = "FlinkKafkaProducer"
SCHEMA = "SerializationSchema"  # (de)serialization schemas of connectors
SCHEMA_BUILDER = "SerializationSchemaBuilder"
TYPE_INFORMATION = "TypeInformation"  # Types.ROW_NAMED(...)/TUPLE(...): a record type (rules/pyflink/type_constants.py)

BASES: dict[str, str] = {KEYED: DATASTREAM, CACHED: DATASTREAM, **T.BASES}
# Types converted to another form than their base type's: a KeyedStream is a pair RDD of
# (key, element), a DataStream an RDD of elements. A name or parameter bound to both has no
# type (its uses cannot be converted one way), not their base type.
OWN_FORM = frozenset({KEYED})
# Attributes the conversion writes on what a Flink object became (an environment becomes a
# SparkSession): none of them exists on the Flink object, so on one they are converted code,
# as in a file whose environment kept its TODO while its uses were converted (a method too:
# ``env.createDataFrame(...)``, a source planned as a DataFrame).
CONVERTED_ATTRIBUTES: dict[str, frozenset] = {ENVIRONMENT: frozenset({"sparkContext", "readStream", "read", "createDataFrame"})}


def table_bridge(resolver, expr):
    """The Table API call the stream ``expr`` may come from (``StreamFacts.table_bridge``)."""
    from flink2spark.rules.pyflink._streams import facts

    return facts(resolver, expr).table_bridge


def stream_kind(resolver, expr) -> str:
    """What besides its type makes a stream converted in another form: read from an unbounded
    source (micro-batches) or timestamped ((timestamp, element) pairs). A prefix of its type's
    name: "unbounded timestamped " or ""."""
    from flink2spark.rules.pyflink._streams import facts

    return facts(resolver, expr).kind

# Operator settings: they return the operator and change nothing in its results.
_SETTINGS = {
    "name": SAME,
    "uid": SAME,
    "set_uid_hash": SAME,
    "set_description": SAME,
    "set_parallelism": SAME,
    "set_max_parallelism": SAME,
    "slot_sharing_group": SAME,
    "set_buffer_timeout": SAME,
    "force_non_parallel": SAME,
    "disable_chaining": SAME,
    "start_new_chain": SAME,
}

_DATASTREAM_METHODS: dict[str, Optional[str]] = {
    **_SETTINGS,
    "get_name": None,
    "get_type": None,
    "get_execution_environment": ENVIRONMENT,
    "get_execution_config": None,
    "map": DATASTREAM,
    "flat_map": DATASTREAM,
    "filter": DATASTREAM,
    "process": DATASTREAM,
    "project": DATASTREAM,
    "key_by": KEYED,
    "union": DATASTREAM,
    "connect": CONNECTED,
    "broadcast": BROADCAST,
    "window_all": ALL_WINDOWED,
    "assign_timestamps_and_watermarks": DATASTREAM,
    "get_side_output": DATASTREAM,
    "partition_custom": DATASTREAM,
    "forward": DATASTREAM,
    "rebalance": DATASTREAM,
    "rescale": DATASTREAM,
    "shuffle": DATASTREAM,
    "cache": CACHED,
    "print": SINK,
    "add_sink": SINK,
    "sink_to": SINK,
    "execute_and_collect": CLOSEABLE,
}

# the methods of a WindowedStream and of an AllWindowedStream
_WINDOW_METHODS: dict[str, Optional[str]] = {
    "trigger": SAME,
    "allowed_lateness": SAME,
    "side_output_late_data": SAME,
    "evictor": SAME,
    "reduce": DATASTREAM,
    "aggregate": DATASTREAM,
    "apply": DATASTREAM,
    "process": DATASTREAM,
    "get_execution_environment": ENVIRONMENT,
    "get_input_type": None,
}

METHODS: dict[str, dict[str, Optional[str]]] = {
    ENVIRONMENT: {
        "get_execution_environment": ENVIRONMENT,
        "from_collection": DATASTREAM,
        "from_source": DATASTREAM,
        "add_source": DATASTREAM,
        "create_input": DATASTREAM,
        "set_parallelism": SAME,
        "get_parallelism": None,
        "set_max_parallelism": SAME,
        "get_max_parallelism": None,
        "set_default_local_parallelism": None,
        "get_default_local_parallelism": None,
        "set_runtime_mode": SAME,
        "set_buffer_timeout": SAME,
        "get_buffer_timeout": None,
        "disable_operator_chaining": SAME,
        "is_chaining_enabled": None,
        "is_chaining_of_operators_with_different_max_parallelism_enabled": None,
        "register_slot_sharing_group": SAME,
        "enable_checkpointing": SAME,
        "get_checkpoint_config": CHECKPOINT_CONFIG,
        "get_checkpoint_interval": None,
        "get_checkpointing_mode": None,
        "get_checkpointing_consistency_mode": None,
        "is_unaligned_checkpoints_enabled": None,
        "is_force_unaligned_checkpoints": None,
        "enable_changelog_state_backend": SAME,
        "is_changelog_state_backend_enabled": None,
        "set_default_savepoint_directory": SAME,
        "get_default_savepoint_directory": None,
        "get_config": EXECUTION_CONFIG,
        "configure": None,
        "add_jars": None,
        "add_classpaths": None,
        "add_python_file": None,
        "add_python_archive": None,
        "set_python_executable": None,
        "set_python_requirements": None,
        "register_cached_file": None,
        "get_execution_plan": None,
        "execute": RESULT,
        "execute_async": JOB_CLIENT,
        "close": None,
        "read_text_file": DATASTREAM,  # PyFlink 1.x (removed in 2.0)
        "set_restart_strategy": None,  # PyFlink 1.x
        "get_restart_strategy": None,  # PyFlink 1.x
        "set_stream_time_characteristic": None,  # PyFlink 1.x
        "get_stream_time_characteristic": None,  # PyFlink 1.x
        "set_state_backend": None,  # PyFlink 1.x
    },
    DATASTREAM: _DATASTREAM_METHODS,
    KEYED: {
        "reduce": DATASTREAM,
        "sum": DATASTREAM,
        "min": DATASTREAM,
        "max": DATASTREAM,
        "min_by": DATASTREAM,
        "max_by": DATASTREAM,
        "window": WINDOWED,
        "count_window": WINDOWED,
    },
    WINDOWED: _WINDOW_METHODS,
    ALL_WINDOWED: _WINDOW_METHODS,
    CONNECTED: {"map": DATASTREAM, "flat_map": DATASTREAM, "process": DATASTREAM, "key_by": CONNECTED},
    BROADCAST: {},
    BROADCAST_CONNECTED: {"process": DATASTREAM},
    SINK: {
        k: SAME
        for k in (
            "name",
            "uid",
            "set_uid_hash",
            "set_description",
            "set_parallelism",
            "slot_sharing_group",
            "disable_chaining",
        )
    },
    RESULT: {
        "get_job_id": None,
        "get_net_runtime": None,
        "get_accumulator_result": None,
        "get_all_accumulator_results": None,
        "get_job_execution_result": None,
    },
    JOB_CLIENT: {
        "get_job_id": None,
        "get_job_status": None,
        "cancel": None,
        "stop_with_savepoint": None,
        "trigger_savepoint": None,
        "get_accumulators": None,
        "get_job_execution_result": FUTURE,
    },
    FUTURE: {"cancel": None, "cancelled": None, "done": None, "result": RESULT, "exception": None},
    CLOSEABLE: {"close": None, "next": None},
    FILE_SOURCE_BUILDER: {
        "build": FILE_SOURCE,
        "monitor_continuously": SAME,
        "process_static_file_set": SAME,
        "set_file_enumerator": SAME,
        "set_split_assigner": SAME,
    },
    FILE_SOURCE: {},
    NUMBER_SEQUENCE: {},
    OUTPUT_TAG: {},
    FILE_SINK_BUILDER: {
        "with_bucket_assigner": SAME,
        "with_output_file_config": SAME,
        "with_rolling_policy": SAME,
        "with_bucket_check_interval": SAME,
        "enable_compact": SAME,
        "disable_compact": SAME,
        "build": FILE_SINK,
    },
    FILE_SINK: {},
    # pyflink/datastream/connectors/kafka.py (2.3)
    KAFKA_SOURCE_BUILDER: {
        **{
            m: SAME
            for m in (
                "set_bootstrap_servers set_group_id set_topics set_topic_pattern set_partitions set_starting_offsets"
                " set_unbounded set_bounded set_value_only_deserializer set_client_id_prefix set_property set_properties"
            ).split()
        },
        "build": KAFKA_SOURCE,
    },
    KAFKA_SOURCE: {},
    KAFKA_SINK_BUILDER: {
        **{m: SAME for m in "set_bootstrap_servers set_delivery_guarantee set_transactional_id_prefix set_record_serializer set_property".split()},
        "build": KAFKA_SINK,
    },
    KAFKA_SINK: {},
    KAFKA_RECORD_BUILDER: {
        **{m: SAME for m in "set_topic set_topic_selector set_key_serialization_schema set_value_serialization_schema".split()},
        "build": KAFKA_RECORD_SCHEMA,
    },
    KAFKA_RECORD_SCHEMA: {},
    KAFKA_CONSUMER: {
        m: SAME
        for m in (
            "set_commit_offsets_on_checkpoints set_start_from_earliest set_start_from_latest set_start_from_timestamp"
            " set_start_from_group_offsets disable_filter_restored_partitions_with_subscribed_topics"
        ).split()
    },
    # pyflink/datastream/formats/{json,csv}.py builders (2.3)
    SCHEMA_BUILDER: {
        **{
            m: SAME
            for m in (
                "type_info json_schema fail_on_missing_field ignore_parse_errors with_type_info set_field_delimiter"
                " set_allow_comments set_array_element_delimiter set_quote_character set_escape_character"
                " set_null_literal set_ignore_parse_errors set_line_delimiter disable_quote_character"
            ).split()
        },
        "build": SCHEMA,
    },
    SCHEMA: {},
    TYPE_INFORMATION: {},
    KAFKA_PRODUCER: {
        m: SAME for m in "set_log_failures_only set_flush_on_checkpoint set_write_timestamp_to_kafka ignore_failures_after_transaction_timeout".split()
    },
    STREAMING_FILE_SINK_BUILDER: {
        "with_bucket_assigner": SAME,
        "with_output_file_config": SAME,
        "with_rolling_policy": SAME,
        "with_bucket_check_interval": SAME,
        "build": STREAMING_FILE_SINK,
    },
    STREAMING_FILE_SINK: {},
    OUTPUT_FILE_CONFIG_BUILDER: {"with_part_prefix": SAME, "with_part_suffix": SAME, "build": OUTPUT_FILE_CONFIG},
    OUTPUT_FILE_CONFIG: {"get_part_prefix": None, "get_part_suffix": None},
    ROLLING_POLICY: {},
    BUCKET_ASSIGNER: {},
    # pyflink/common/configuration.py (2.3)
    CONFIGURATION: {
        m: (SAME if m.startswith("set_") else None)
        for m in (
            "get_string set_string parse_list_value get_integer set_integer get_boolean set_boolean get_float"
            " set_float get_bytearray set_bytearray key_set add_all_to_dict add_all contains_key to_dict remove_config"
        ).split()
    },
    # pyflink/datastream/checkpoint_config.py and pyflink/common/execution_config.py (2.3)
    CHECKPOINT_CONFIG: {
        m: (None if m.startswith(("get_", "is_")) else SAME)
        for m in (
            "is_checkpointing_enabled get_checkpointing_mode set_checkpointing_mode get_checkpoint_interval"
            " set_checkpoint_interval get_checkpoint_timeout set_checkpoint_timeout"
            " get_min_pause_between_checkpoints set_min_pause_between_checkpoints get_max_concurrent_checkpoints"
            " set_max_concurrent_checkpoints is_fail_on_checkpointing_errors set_fail_on_checkpointing_errors"
            " get_tolerable_checkpoint_failure_number set_tolerable_checkpoint_failure_number"
            " set_externalized_checkpoint_retention is_externalized_checkpoints_enabled"
            " get_externalized_checkpoint_retention is_unaligned_checkpoints_enabled enable_unaligned_checkpoints"
            " disable_unaligned_checkpoints set_aligned_checkpoint_timeout get_aligned_checkpoint_timeout"
            " set_alignment_timeout get_alignment_timeout set_force_unaligned_checkpoints is_force_unaligned_checkpoints"
            " enable_externalized_checkpoints set_checkpoint_storage set_checkpoint_storage_dir"
        ).split()
    },
    EXECUTION_CONFIG: {
        m: (None if m.startswith(("get_", "is_", "has_")) else SAME)
        for m in (
            "enable_closure_cleaner disable_closure_cleaner is_closure_cleaner_enabled set_auto_watermark_interval"
            " get_auto_watermark_interval set_latency_tracking_interval get_latency_tracking_interval get_parallelism"
            " set_parallelism get_max_parallelism set_max_parallelism get_task_cancellation_interval"
            " set_task_cancellation_interval get_task_cancellation_timeout set_task_cancellation_timeout"
            " enable_force_kryo disable_force_kryo is_force_kryo_enabled enable_generic_types disable_generic_types"
            " has_generic_types_disabled enable_auto_generated_uids disable_auto_generated_uids"
            " has_auto_generated_uids_enabled enable_force_avro disable_force_avro is_force_avro_enabled"
            " enable_object_reuse disable_object_reuse is_object_reuse_enabled get_global_job_parameters"
            " set_global_job_parameters get_default_kryo_serializer_classes get_registered_kryo_types"
            " get_registered_pojo_types is_use_snapshot_compression set_use_snapshot_compression"
        ).split()
    },
    **T.METHODS,  # the Table API's types (transpiler/table_model.py)
}

# Builder types: a call producing one of these, followed by one of the listed methods, is part
# of a larger construct that the rule of the chain's first call converts as a whole. For
# PyFlink these are the operator settings, which the engine drops (MODIFIERS).
CONTINUATIONS: dict[str, frozenset[str]] = {
    DATASTREAM: frozenset(_SETTINGS),
    SINK: frozenset(METHODS[SINK]),
    **T.CONTINUATIONS,
}
# Kafka builder chains are converted where they are read (from_source, sink_to): the chain is
# gathered up to its build() call, whose rule (kafka_builders) checks that.
for _builder in (KAFKA_SOURCE_BUILDER, KAFKA_SINK_BUILDER, KAFKA_RECORD_BUILDER, SCHEMA_BUILDER):
    CONTINUATIONS[_builder] = frozenset(METHODS[_builder])
INCOMPLETE: frozenset[str] = frozenset()

# Continuation methods handled by the engine for any chain (settings of the chain's result).
MODIFIERS = frozenset(_SETTINGS)


def api_name_of(typ: Optional[str], method: Optional[str] = None) -> str:
    """"PyFlink Table" for a type of the Table API (or, for an unknown receiver, a method only
    the Table API has), API_NAME otherwise: the API messages name."""
    if typ in T.METHODS or (typ is None and method in T.DISTINCTIVE_METHODS):
        return "PyFlink Table"
    return API_NAME


supertypes, method_return = type_functions(BASES, METHODS)


def call_return(receiver: str, method: str, call, ret: Optional[str]) -> Optional[str]:
    """The return type of a call when it depends on the arguments: ``broadcast()`` without
    state descriptors is a DataStream (every element to every instance), with them a
    BroadcastStream (for ``connect``)."""
    if method == "broadcast" and is_stream(receiver) and not call.args:
        return DATASTREAM
    return ret


def is_stream(t: Optional[str]) -> bool:
    return t is not None and DATASTREAM in supertypes(t)


_ENV = "StreamExecutionEnvironment.get_execution_environment"
# Qualified names of module-level callables (and constructors) and what they return.
ENTRY_POINTS = {
    f"pyflink.datastream.{_ENV}": ENVIRONMENT,
    f"pyflink.datastream.stream_execution_environment.{_ENV}": ENVIRONMENT,
    # Flink 1.9-1.13's batch environment, given to BatchTableEnvironment.create(env): its settings
    # (set_parallelism...) are those of the stream environment
    "pyflink.dataset.ExecutionEnvironment.get_execution_environment": ENVIRONMENT,
    "pyflink.dataset.execution_environment.ExecutionEnvironment.get_execution_environment": ENVIRONMENT,
    "pyflink.datastream.connectors.file_system.FileSource.for_record_stream_format": FILE_SOURCE_BUILDER,
    "pyflink.datastream.connectors.FileSource.for_record_stream_format": FILE_SOURCE_BUILDER,
    "pyflink.datastream.connectors.number_seq.NumberSequenceSource": NUMBER_SEQUENCE,
    "pyflink.datastream.connectors.NumberSequenceSource": NUMBER_SEQUENCE,
    "pyflink.datastream.OutputTag": OUTPUT_TAG,
    "pyflink.datastream.output_tag.OutputTag": OUTPUT_TAG,
    **{
        f"pyflink.datastream.connectors.{module}{cls}.{method}": builder
        for module in ("file_system.", "")
        for cls, builder in (("FileSink", FILE_SINK_BUILDER), ("StreamingFileSink", STREAMING_FILE_SINK_BUILDER))
        for method in ("for_row_format", "for_bulk_format")
    },
    **{
        f"pyflink.datastream.connectors.{module}FileSource.for_bulk_file_format": FILE_SOURCE_BUILDER
        for module in ("file_system.", "")
    },
    **{
        f"pyflink.datastream.connectors.{module}{name}": typ
        for module in ("file_system.", "")
        for name, typ in (
            ("OutputFileConfig.builder", OUTPUT_FILE_CONFIG_BUILDER),
            ("OutputFileConfig", OUTPUT_FILE_CONFIG),
            ("RollingPolicy.default_rolling_policy", ROLLING_POLICY),
            ("RollingPolicy.on_checkpoint_rolling_policy", ROLLING_POLICY),
            ("BucketAssigner.base_path_bucket_assigner", BUCKET_ASSIGNER),
            ("BucketAssigner.date_time_bucket_assigner", BUCKET_ASSIGNER),
        )
    },
    "pyflink.common.Configuration": CONFIGURATION,
    "pyflink.common.configuration.Configuration": CONFIGURATION,
}

ENTRY_POINTS.update(T.ENTRY_POINTS)
ANNOTATION_TYPES = T.ANNOTATION_TYPES
ANNOTATION_CLASSES = T.ANNOTATION_CLASSES
ENTRY_POINTS.update(
    {
        f"pyflink.datastream.connectors.{module}{name}": typ
        for module in ("kafka.", "")
        for name, typ in (
            ("KafkaSource.builder", KAFKA_SOURCE_BUILDER),
            ("KafkaSink.builder", KAFKA_SINK_BUILDER),
            ("KafkaRecordSerializationSchema.builder", KAFKA_RECORD_BUILDER),
            ("FlinkKafkaConsumer", KAFKA_CONSUMER),
            ("FlinkKafkaProducer", KAFKA_PRODUCER),
            *[(f"KafkaOffsetsInitializer.{m}", KAFKA_OFFSETS) for m in KAFKA_OFFSETS_METHODS],
        )
    }
)
# AsyncDataStream's calls (rules/pyflink/async_io.py): they read the stream given as their
# first argument and return a DataStream
ASYNC_WAITS = ("unordered_wait", "ordered_wait", "unordered_wait_with_retry", "ordered_wait_with_retry")
ASYNC_CALLS = {f"pyflink.datastream{sub}.AsyncDataStream.{m}": m for sub in ("", ".async_data_stream") for m in ASYNC_WAITS}
ENTRY_POINTS.update({q: DATASTREAM for q in ASYNC_CALLS})
_SCHEMA_MODULES = ("common.", "common.serialization.", "datastream.formats.json.", "datastream.formats.csv.", "datastream.formats.avro.")
ENTRY_POINTS.update(
    {
        f"pyflink.{module}{name}": typ
        for module in _SCHEMA_MODULES
        for name, typ in (
            ("SimpleStringSchema", SCHEMA),
            ("ByteArraySchema", SCHEMA),
            ("RowFieldExtractorSchema", SCHEMA),
            ("AvroRowSerializationSchema", SCHEMA),
            ("AvroRowDeserializationSchema", SCHEMA),
            *[(f"Json{k}Schema.{b}", SCHEMA_BUILDER) for k in ("RowSerialization", "RowDeserialization") for b in ("builder", "Builder")],
            *[(f"Csv{k}Schema.Builder", SCHEMA_BUILDER) for k in ("RowSerialization", "RowDeserialization")],
        )
    }
)

# Record types a constant may name (rules/pyflink/type_constants.py). Not Types.ROW: its last name
# is DataTypes.ROW's (rules/table/schemas.py), which the dispatch table keys by.
ENTRY_POINTS.update(
    {f"pyflink.common.{module}Types.{kind}": TYPE_INFORMATION for module in ("", "typeinfo.") for kind in ("ROW_NAMED", "TUPLE")}
)

NUMBER_SEQUENCE_SOURCES = {
    "pyflink.datastream.connectors.number_seq.NumberSequenceSource",
    "pyflink.datastream.connectors.NumberSequenceSource",
}
ROWS = {"pyflink.common.Row", "pyflink.common.types.Row"}
# PyFlink basic types (Types.X()) -> the Spark SQL type that holds their Python values with the same
# meaning (a FLOAT is a 32-bit value, CHAR a one-character str): Kafka schemas, stream records,
# the columns of a Table made of a stream
SPARK_TYPES = {"STRING": "STRING", "CHAR": "STRING", "BOOLEAN": "BOOLEAN", "BYTE": "TINYINT", "SHORT": "SMALLINT",
               "INT": "INT", "LONG": "BIGINT", "FLOAT": "FLOAT", "DOUBLE": "DOUBLE"}
OUTPUT_TAGS = {"pyflink.datastream.OutputTag", "pyflink.datastream.output_tag.OutputTag"}
RUNTIME_MODES = {
    f"{prefix}.RuntimeExecutionMode.{mode}": mode.lower()
    for prefix in ("pyflink.datastream", "pyflink.datastream.execution_mode")
    for mode in ("BATCH", "STREAMING", "AUTOMATIC")
}

TEXT_LINE_FORMAT = {
    "pyflink.datastream.connectors.file_system.StreamFormat.text_line_format",
    "pyflink.datastream.connectors.StreamFormat.text_line_format",
}
NO_WATERMARKS = {
    "pyflink.common.WatermarkStrategy.no_watermarks",
    "pyflink.common.watermark_strategy.WatermarkStrategy.no_watermarks",
}
WATERMARK_STRATEGIES = {"pyflink.common.WatermarkStrategy", "pyflink.common.watermark_strategy.WatermarkStrategy"}
TYPES = {"pyflink.common.Types", "pyflink.common.typeinfo.Types"}

# What each PyFlink module exports to a star import (``__all__``, read from PyFlink 2.3.0).
# A star import from a module not listed stays, with a TODO.
EXPORTS: dict[str, tuple[str, ...]] = {
    "pyflink.datastream": (
        "AggregateFunction",
        "AsyncDataStream",
        "AsyncFunction",
        "AsyncRetryPredicate",
        "AsyncRetryStrategy",
        "BroadcastConnectedStream",
        "BroadcastProcessFunction",
        "BroadcastStream",
        "CheckpointConfig",
        "CheckpointStorage",
        "CheckpointingMode",
        "CoFlatMapFunction",
        "CoMapFunction",
        "CoProcessFunction",
        "ConnectedStreams",
        "CountWindow",
        "CustomCheckpointStorage",
        "CustomStateBackend",
        "DataStream",
        "DataStreamSink",
        "EmbeddedRocksDBStateBackend",
        "ExternalizedCheckpointRetention",
        "FileSystemCheckpointStorage",
        "FilterFunction",
        "FlatMapFunction",
        "GlobalWindow",
        "HashMapStateBackend",
        "JobManagerCheckpointStorage",
        "KeySelector",
        "KeyedBroadcastProcessFunction",
        "KeyedCoProcessFunction",
        "KeyedProcessFunction",
        "KeyedStream",
        "MapFunction",
        "MemorySize",
        "MergingWindowAssigner",
        "OutputTag",
        "Partitioner",
        "PredefinedOptions",
        "ProcessFunction",
        "ProcessWindowFunction",
        "ReduceFunction",
        "RuntimeContext",
        "RuntimeExecutionMode",
        "SinkFunction",
        "SlotSharingGroup",
        "SourceFunction",
        "StateBackend",
        "StreamExecutionEnvironment",
        "TimeDomain",
        "TimeWindow",
        "TimerService",
        "Trigger",
        "TriggerResult",
        "Window",
        "WindowAssigner",
        "WindowFunction",
        "WindowedStream",
    ),
    "pyflink.common": (
        "AssignerWithPeriodicWatermarksWrapper",
        "ByteArraySchema",
        "CompletableFuture",
        "ConfigOption",
        "ConfigOptions",
        "Configuration",
        "DeserializationSchema",
        "Duration",
        "Encoder",
        "ExecutionConfig",
        "InputDependencyConstraint",
        "Instant",
        "JobClient",
        "JobExecutionResult",
        "JobID",
        "JobStatus",
        "RestartStrategies",
        "RestartStrategyConfiguration",
        "Row",
        "RowKind",
        "SerializationSchema",
        "SimpleStringSchema",
        "Time",
        "TypeInformation",
        "TypeSerializer",
        "Types",
        "WatermarkStrategy",
    ),
    "pyflink.common.typeinfo": ("TypeInformation", "Types"),
    "pyflink.table.expressions": (
        "if_then_else", "lit", "col", "range_", "and_", "or_", "not_", "UNBOUNDED_ROW", "UNBOUNDED_RANGE",
        "CURRENT_ROW", "CURRENT_RANGE", "current_database", "current_date", "current_time",
        "current_timestamp", "current_watermark", "local_time", "local_timestamp", "temporal_overlaps",
        "date_format", "timestamp_diff", "array", "row", "map_", "row_interval", "pi", "e", "rand",
        "rand_integer", "atan2", "negative", "concat", "concat_ws", "uuid", "null_of", "log", "with_columns",
        "without_columns", "json", "json_string", "json_object", "json_object_agg", "json_array",
        "json_array_agg", "call", "call_sql", "source_watermark", "to_timestamp_ltz", "from_unixtime",
        "to_date", "to_timestamp", "convert_tz", "unix_timestamp", "descriptor",
    ),
    "pyflink.common.types": ("Row", "RowKind"),
    "pyflink.datastream.functions": (
        "AggregateFunction",
        "AllWindowFunction",
        "AsyncFunction",
        "AsyncFunctionDescriptor",
        "AsyncRetryPredicate",
        "AsyncRetryStrategy",
        "BaseBroadcastProcessFunction",
        "BroadcastProcessFunction",
        "CoFlatMapFunction",
        "CoMapFunction",
        "CoProcessFunction",
        "FilterFunction",
        "FlatMapFunction",
        "KeySelector",
        "KeyedBroadcastProcessFunction",
        "KeyedCoProcessFunction",
        "KeyedProcessFunction",
        "MapFunction",
        "Partitioner",
        "ProcessAllWindowFunction",
        "ProcessFunction",
        "ProcessWindowFunction",
        "ReduceFunction",
        "RuntimeContext",
        "SinkFunction",
        "SourceFunction",
        "TimerService",
        "WindowFunction",
    ),
    "pyflink.datastream.connectors.file_system": (
        "BucketAssigner",
        "BulkFormat",
        "FileCompactStrategy",
        "FileCompactor",
        "FileEnumeratorProvider",
        "FileSink",
        "FileSource",
        "FileSourceBuilder",
        "FileSplitAssignerProvider",
        "OutputFileConfig",
        "RollingPolicy",
        "StreamFormat",
        "StreamingFileSink",
    ),
    "pyflink.datastream.connectors.number_seq": ("NumberSequenceSource",),
    "pyflink.datastream.window": (
        "ContinuousEventTimeTrigger",
        "ContinuousProcessingTimeTrigger",
        "CountSlidingWindowAssigner",
        "CountTrigger",
        "CountTumblingWindowAssigner",
        "CountWindow",
        "CountWindowSerializer",
        "DynamicEventTimeSessionWindows",
        "DynamicProcessingTimeSessionWindows",
        "EventTimeSessionWindows",
        "EventTimeTrigger",
        "GlobalWindow",
        "GlobalWindowSerializer",
        "GlobalWindows",
        "MergingWindowAssigner",
        "NeverTrigger",
        "ProcessingTimeSessionWindows",
        "ProcessingTimeTrigger",
        "PurgingTrigger",
        "SessionWindowTimeGapExtractor",
        "SlidingEventTimeWindows",
        "SlidingProcessingTimeWindows",
        "TimeWindow",
        "TimeWindowSerializer",
        "Trigger",
        "TriggerResult",
        "TumblingEventTimeWindows",
        "TumblingProcessingTimeWindows",
        "Window",
        "WindowAssigner",
    ),
    "pyflink.datastream.state": (
        "AggregatingState",
        "AggregatingStateDescriptor",
        "BroadcastState",
        "ListState",
        "ListStateDescriptor",
        "MapState",
        "MapStateDescriptor",
        "OperatorStateStore",
        "ReadOnlyBroadcastState",
        "ReducingState",
        "ReducingStateDescriptor",
        "StateTtlConfig",
        "ValueState",
        "ValueStateDescriptor",
    ),
    "pyflink.common.watermark_strategy": (
        "Any",
        "AssignerWithPeriodicWatermarksWrapper",
        "Duration",
        "Optional",
        "TimestampAssigner",
        "WatermarkStrategy",
        "abc",
        "get_gateway",
    ),
    "pyflink.datastream.stream_execution_environment": ("StreamExecutionEnvironment",),
    "pyflink.datastream.connectors": ("DeliveryGuarantee", "Sink", "Source"),
}
EXPORTS.update(T.EXPORTS)  # the Table API's modules (transpiler/table_model.py)

# User function base classes this rule set converts: qualified name -> (kind, method).
# Other PyFlink function classes (ProcessFunction, CoMapFunction, AggregateFunction, ...) are
# not listed: their classes stay as they are, with their PyFlink base and its TODO.
FUNCTION_CLASSES: dict[str, tuple[str, str]] = {}
for _name, _method in {
    "MapFunction": "map",
    "FlatMapFunction": "flat_map",
    "FilterFunction": "filter",
    "ReduceFunction": "reduce",
    "KeySelector": "get_key",
}.items():
    for _module in ("pyflink.datastream.functions", "pyflink.datastream"):
        FUNCTION_CLASSES[f"{_module}.{_name}"] = (_name, _method)

# The Table API's Python function classes (rules/table/udf.py, udtf.py): their bases are dropped
# (Spark's UDFs take any callable and class).
for _name, _method in {"ScalarFunction": "eval", "AsyncScalarFunction": "eval", "TableFunction": "eval",
                       "AggregateFunction": "accumulate", "TableAggregateFunction": "accumulate"}.items():
    for _module in ("pyflink.table.udf", "pyflink.table"):
        FUNCTION_CLASSES[f"{_module}.{_name}"] = (f"Table{_name}", _method)
# pyflink.table.functions (Flink's built-in Python aggregates) imports AggregateFunction from pyflink.table
FUNCTION_CLASSES["pyflink.table.functions.AggregateFunction"] = FUNCTION_CLASSES["pyflink.table.AggregateFunction"]

# Methods of those classes only Flink calls: the types of an aggregate function's result and
# accumulator (rules/table/udaf.py reads get_result_type() for the UDF's returnType; Spark calls
# neither). They go with the base, unless the program calls them itself.
FLINK_ONLY_METHODS: dict[str, frozenset[str]] = {
    kind: frozenset({"get_result_type", "get_accumulator_type"})
    for kind in ("TableAggregateFunction", "TableTableAggregateFunction")
}

# Event time and windows (rules/pyflink/timestamps.py, windows.py): their PyFlink bases are dropped too.
FUNCTION_CLASSES["pyflink.common.watermark_strategy.TimestampAssigner"] = ("TimestampAssigner", "extract_timestamp")
for _name, _method in {
    "ProcessWindowFunction": "process",
    "ProcessAllWindowFunction": "process",
    "WindowFunction": "apply",
    "AllWindowFunction": "apply",
}.items():
    for _module in ("pyflink.datastream.functions", "pyflink.datastream"):
        FUNCTION_CLASSES[f"{_module}.{_name}"] = (_name, _method)
for _module in ("pyflink.datastream.window", "pyflink.datastream"):
    FUNCTION_CLASSES[f"{_module}.SessionWindowTimeGapExtractor"] = ("SessionWindowTimeGapExtractor", "extract")

# PyFlink function methods yield or return their results: there are no collectors.
COLLECTOR_METHODS: dict[str, dict[str, tuple[int, bool]]] = {}


# How each operator calls its user function (see functions.Convention): no collectors.
def _conventions():
    from flink2spark.transpiler.functions import Convention

    return {
        "map": Convention("map", 1, False),
        "flat_map": Convention("flat_map", 1, False),
        "filter": Convention("filter", 1, False),
        "reduce": Convention("reduce", 2, False),
        "key": Convention("get_key", 1, False),
    }


CONVENTIONS = _conventions()

# RuntimeContext methods a converted open() may call (answered by f2s.RuntimeContext); any
# other use of the runtime context (state, metrics, accumulators...) leaves a TODO.
RUNTIME_CONTEXT_METHODS = frozenset(
    {
        "get_task_name",
        "get_number_of_parallel_subtasks",
        "get_max_number_of_parallel_subtasks",
        "get_index_of_this_subtask",
        "get_attempt_number",
        "get_task_name_with_subtasks",
        "get_job_parameter",
    }
)

# PyFlink names that map one to one onto a runtime-shim name (rewritten wherever they remain).
NAME_MAP = {
    **{f"{m}.Row": ("flink2spark.runtime.datastream", "Row") for m in ("pyflink.common", "pyflink.common.types")},
    **{
        f"{m}.RowKind": ("flink2spark.runtime.datastream", "RowKind")
        for m in ("pyflink.common", "pyflink.common.types")
    },
    **{t: ("flink2spark.runtime.datastream", "Types") for t in TYPES},
    **{
        f"{m}.RuntimeContext": ("flink2spark.runtime.datastream", "RuntimeContext")
        for m in ("pyflink.datastream", "pyflink.datastream.functions")
    },
}

# Event time (runtime/windows.py, re-exported by the datastream shim).
NAME_MAP.update(
    {
        **{f"{m}.{name}": ("flink2spark.runtime.datastream", name) for m in ("pyflink.common", "pyflink.common.time") for name in ("Duration", "Time", "Instant")},
        **{f"{m}.WatermarkStrategy": ("flink2spark.runtime.datastream", "WatermarkStrategy") for m in ("pyflink.common", "pyflink.common.watermark_strategy")},
        # window assigners and windows (rules/pyflink/windows.py)
        **{
            f"{m}.{name}": ("flink2spark.runtime.datastream", name)
            for m in ("pyflink.datastream.window", "pyflink.datastream")
            for name in (
                "TumblingEventTimeWindows", "SlidingEventTimeWindows", "EventTimeSessionWindows", "DynamicEventTimeSessionWindows",
                "TumblingProcessingTimeWindows", "SlidingProcessingTimeWindows", "ProcessingTimeSessionWindows",
                "DynamicProcessingTimeSessionWindows", "CountTumblingWindowAssigner", "CountSlidingWindowAssigner", "SessionWindowTimeGapExtractor", "TimeWindow", "CountWindow",
            )
        },
        **{
            f"{m}.{name}": ("flink2spark.runtime.datastream", name)
            for m in ("pyflink.datastream.functions", "pyflink.datastream")
            for name in ("ProcessWindowFunction", "ProcessAllWindowFunction")
        },
        # triggers (rules/pyflink/window_functions.py): the shim's, and the base of the user's
        **{
            f"pyflink.datastream.window.{name}": ("flink2spark.runtime.datastream", name)
            for name in (
                "GlobalWindows", "GlobalWindow", "Trigger", "TriggerResult", "EventTimeTrigger", "ContinuousEventTimeTrigger",
                "ProcessingTimeTrigger", "ContinuousProcessingTimeTrigger", "PurgingTrigger", "CountTrigger", "NeverTrigger",
            )
        },
        **{f"pyflink.datastream.{name}": ("flink2spark.runtime.datastream", name) for name in ("GlobalWindow", "Trigger", "TriggerResult")},
    }
)
# Process functions, state, timers, side outputs, connected streams (runtime/process.py,
# re-exported by the datastream shim): the user's classes keep these bases as shim classes.
_PROCESS_NAMES = {
    "pyflink.datastream": (
        "ProcessFunction", "KeyedProcessFunction", "CoMapFunction", "CoFlatMapFunction", "CoProcessFunction",
        "KeyedCoProcessFunction", "BroadcastProcessFunction", "KeyedBroadcastProcessFunction", "Partitioner",
        "TimeDomain", "OutputTag", "AggregateFunction",
    ),
    "pyflink.datastream.functions": (
        "ProcessFunction", "KeyedProcessFunction", "CoMapFunction", "CoFlatMapFunction", "CoProcessFunction",
        "KeyedCoProcessFunction", "BroadcastProcessFunction", "KeyedBroadcastProcessFunction", "Partitioner",
        "AggregateFunction",
    ),
    "pyflink.datastream.time_domain": ("TimeDomain",),
    "pyflink.datastream.output_tag": ("OutputTag",),
    "pyflink.datastream.state": (
        "ValueStateDescriptor", "ListStateDescriptor", "MapStateDescriptor", "ReducingStateDescriptor",
        "AggregatingStateDescriptor", "StateTtlConfig",
    ),
}
NAME_MAP.update({f"{m}.{n}": ("flink2spark.runtime.datastream", n) for m, names in _PROCESS_NAMES.items() for n in names})
# Async I/O (runtime/async_io.py, re-exported by the datastream shim)
NAME_MAP.update(
    {
        f"{m}.{n}": ("flink2spark.runtime.datastream", n)
        for m in ("pyflink.datastream", "pyflink.datastream.functions")
        for n in ("AsyncFunction", "AsyncRetryStrategy")
    }
)
NAME_MAP["pyflink.datastream.async_retry_predicates"] = ("flink2spark.runtime.datastream", "async_retry_predicates")
# The base classes of process functions (a user class derives from one of these).
PROCESS_FUNCTIONS = {
    f"{m}.{n}": n for m in ("pyflink.datastream", "pyflink.datastream.functions") for n in _PROCESS_NAMES["pyflink.datastream"][:8]
}
# RuntimeContext methods creating keyed state (functions on a keyed stream only).
STATE_METHODS = frozenset({"get_state", "get_list_state", "get_map_state", "get_reducing_state", "get_aggregating_state"})

# Method names only PyFlink's DataStream API has: in a PyFlink file, a call to one on a
# receiver whose type is unknown is marked, never left silently.
# PyFlink calls with no conversion that no rule reads: each gets TODO F2S200 with this reason
# where it stands (besides the TODO on its import).
UNCONVERTED_CALLS: dict[str, str] = {}

# a stream from the Table API stays one through AsyncDataStream's calls
STREAM_ARGUMENT_CALLS = {q: (0, "data_stream") for q in ASYNC_CALLS}

# StreamTableEnvironment methods that turn a Table into a DataStream: a stream that comes from
# one belongs to the Table API part of a program, which is not converted yet (TODO F2S210).
TABLE_BRIDGES = frozenset({"to_data_stream", "to_append_stream", "to_retract_stream", "to_changelog_stream"})

DISTINCTIVE_METHODS = frozenset(
    {
        "from_collection",
        "from_source",
        "add_source",
        "set_runtime_mode",
        "flat_map",
        "key_by",
        "min_by",
        "max_by",
        "window_all",
        "count_window",
        "assign_timestamps_and_watermarks",
        "get_side_output",
        "sink_to",
        "add_sink",
        "execute_and_collect",
        "side_output_late_data",
        "allowed_lateness",
        "partition_custom",
        "slot_sharing_group",
        "set_uid_hash",
        "enable_checkpointing",
    }
) | T.DISTINCTIVE_METHODS

# Why a construct is not converted, or what to use instead: shown after "has no conversion".
# Looked up by "Type.method", then by type, then by method. Only methods with no rule reach it.
HINTS = {
    "StreamExecutionEnvironment.get_execution_plan": "Spark shows a query's plan with DataFrame.explain()",
    "DataStream.project": "select the fields with a map(); on a DataFrame, select()",
    "DataStream.cache": "on Spark, cache() or persist() the DataFrame/RDD the stream became",
    "StreamExecutionEnvironment.register_cached_file": "ship the file with spark-submit --files and read it with SparkFiles.get()",
    RESULT: "Spark's write and collect return no job result; take what you need from the Spark job",
    **T.HINTS,
}

ANY_CALLABLE = True  # PyFlink takes any callable (``callable(func)``): builtins pass as they are


def check_class(info, resolver) -> None:
    """A converted function class may use its runtime context in ``open()`` only for task
    information (``RUNTIME_CONTEXT_METHODS``); state, metrics and the like leave the class as
    it is (``info.convertible = False``, with the reason)."""
    import libcst as cst

    from flink2spark.transpiler.functions import _method, names_in

    opener = _method(info.node, "open")
    if opener is None or len(opener.params.params) < 2:
        return
    context = opener.params.params[1].name.value
    allowed_uses = 0
    for call in (c for c in nodes(opener.body, cst.Call) if is_method_call(c, context)):
        method = call.func.attr.value  # type: ignore[attr-defined]
        if method in STATE_METHODS:
            info.uses_state = True  # converted on keyed streams only (rules/pyflink/process.py)
            allowed_uses += 1
            continue
        if method not in RUNTIME_CONTEXT_METHODS:
            what = "keyed state" if "state" in method else f"{context}.{method}()"
            info.convertible = False
            info.reason = f"open() calls {context}.{method}(): {what} is not converted yet"
            return
        allowed_uses += 1
    if sum(1 for n in names_in(opener.body) if n.value == context) != allowed_uses:
        info.convertible = False
        info.reason = f"open() keeps or passes on its runtime context '{context}'"



def spark_name(resolver, name: str):
    """``Row`` in a program with no RDD (``StreamGraph.rdd_free``: no DataStream, the Table API
    alone, its rows what UDFs return or yield; or streams that are all DataFrames, its rows data
    of ``createDataFrame``) is Spark's ``pyspark.sql.Row``, which Spark builds a struct or a row of by position
    as Flink does; with streams it stays the shim's (PyFlink's row kinds and print format)."""
    from flink2spark.rules.pyflink._streams import graph

    if name in ROWS and graph(resolver).rdd_free:
        return "pyspark.sql", "Row"
    if name in FRAME_WINDOW_NAMES and graph(resolver).rdd_free:  # window functions per (key, window): applyInPandas
        return "flink2spark.runtime.frame_windows", FRAME_WINDOW_NAMES[name]
    if name in FRAME_PROCESS_NAMES and graph(resolver).rdd_free:  # a ProcessFunction with side outputs: a tagged frame
        return "flink2spark.runtime.frame_process", FRAME_PROCESS_NAMES[name]
    return None


# Bases and annotations of window functions in a program whose streams are all DataFrames: the
# small classes of runtime/frame_windows.py (no emulated window operator behind them)
FRAME_WINDOW_NAMES = {
    **{f"{m}.{n}": n for m in ("pyflink.datastream", "pyflink.datastream.functions") for n in ("AggregateFunction", "ProcessWindowFunction")},
    **{f"{m}.TimeWindow": "TimeWindow" for m in ("pyflink.datastream", "pyflink.datastream.window")},  # annotations
}


# A ProcessFunction's, CoMapFunction's, CoFlatMapFunction's base and OutputTags in a program whose streams are all DataFrames:
# the small classes of runtime/frame_process.py (rules/pyflink/_side_outputs.py)
FRAME_PROCESS_NAMES = {
    **{f"{m}.{n}": n for m in ("pyflink.datastream", "pyflink.datastream.functions") for n in ("ProcessFunction", "CoMapFunction", "CoFlatMapFunction")},
    **{q: "OutputTag" for q in OUTPUT_TAGS},
}


# Objects only Flink reads, whose constructors, factories and builder methods have no effect:
# type information, watermark strategies, durations and times, window assigners and triggers,
# state descriptors, output tags. An assignment of one that the converted program no longer
# reads (its from_source, window or state call became Spark's own) goes (transpiler/unread.py).
_WINDOW_VALUES = tuple(n for n in EXPORTS["pyflink.datastream.window"] if n not in ("TriggerResult", "Window", "TimeWindow", "CountWindow", "GlobalWindow"))
_STATE_VALUES = ("ValueStateDescriptor", "ListStateDescriptor", "MapStateDescriptor", "ReducingStateDescriptor",
                 "AggregatingStateDescriptor", "StateTtlConfig")
FLINK_VALUES = frozenset({
    *TYPES, "pyflink.common.typeinfo", "pyflink.common.TypeInformation",
    *WATERMARK_STRATEGIES, "pyflink.common.Duration", "pyflink.common.time.Duration",
    "pyflink.common.Time", "pyflink.common.time.Time",
    *OUTPUT_TAGS,
    *(f"{m}.{n}" for m in ("pyflink.datastream.window", "pyflink.datastream") for n in _WINDOW_VALUES),
    *(f"{m}.{n}" for m in ("pyflink.datastream.state", "pyflink.datastream") for n in _STATE_VALUES),
})


# What the engine reads of this generation (transpiler/generation.py): the constants above of
# the required fields' names, and of these optional ones.
MODEL = GenerationModel.of(
    globals(),
    "ANY_CALLABLE", "check_class", "FLINK_ONLY_METHODS", "CODES", "HINTS", "UNCONVERTED_CALLS", "KEEP_NAMES", "OWN_FORM",
    "CONVERTED_ATTRIBUTES", "call_return", "stream_kind", "table_bridge", "TABLE_BRIDGES", "RULE_SETS", "COLUMN_TYPES",
    "api_name_of", "spark_name", "ANNOTATION_TYPES", "ANNOTATION_CLASSES", "FLINK_VALUES",
)
