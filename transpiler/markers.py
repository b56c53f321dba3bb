"""Stable marker codes.

Every NOTE/TODO comment the tool writes and every finding ``check`` prints carries one
of these codes. Codes are never reused or renumbered; retired codes stay listed.

* ``F2S0xx``: input and engine errors.
* ``F2S1xx``: DataSet API (legacy ``flink.plan``) constructs.
* ``F2S2xx``: modern PyFlink DataStream API (``pyflink.datastream``) constructs.
* ``F2S8xx``: API generations that are recognised but not converted yet.
* ``F2S9xx``: findings of ``flink2spark check``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Code:
    code: str
    severity: str  # "note" | "todo" | "error"
    title: str


CODES: dict[str, Code] = {}


def _code(code: str, severity: str, title: str) -> str:
    CODES[code] = Code(code, severity, title)
    return code


# Input and engine errors
SYNTAX_ERROR = _code("F2S001", "error", "the file does not parse as Python 3")
PYTHON2 = _code("F2S002", "error", "Python 2 syntax (print statement, exec statement, backticks...)")
NOT_TEXT = _code("F2S003", "error", "the file is not UTF-8 text (binary or another encoding)")
EMPTY_FILE = _code("F2S004", "error", "the file is empty")
INVALID_OUTPUT = _code("F2S005", "todo", "a rewrite produced invalid code and was dropped")
IO_ERROR = _code("F2S006", "error", "the file could not be read or written")
ENGINE_ERROR = _code("F2S007", "error", "the converter failed on this file (a flink2spark bug: please report it)")
NO_RESULT = _code("F2S008", "todo", "a conversion rule gave no result for this call (a flink2spark bug: please report it)")
GUARDED_IMPORT = _code("F2S010", "note", "a Flink import guarded by try/except ImportError was converted: the fallback no longer runs")
TYPE_ONLY_IMPORT = _code("F2S011", "todo", "a Flink import under `if TYPE_CHECKING:`: annotations still name Flink types")
MOCKED_FLINK = _code("F2S012", "todo", "the module replaces Flink modules in sys.modules (a test of Flink code): left as is")
LONG_CHAIN = _code("F2S013", "todo", "a call chain too long to convert (libcst parses it in time growing faster than its length): the file is left as is")

# DataSet API
DS_UNSUPPORTED = _code("F2S100", "todo", "DataSet construct with no conversion")
DS_FUNCTION = _code("F2S101", "todo", "user function whose kind (lambda, def, Flink function class) is not known")
DS_COLLECTOR = _code("F2S102", "todo", "collector used other than as collector.collect(value)")
DS_SPLIT_CHAIN = _code("F2S103", "todo", "join/cross/co_group builder split across statements")
DS_STAR_IMPORT = _code("F2S104", "todo", "star import from a Flink module")
DS_PARALLELISM = _code("F2S105", "note", "parallelism setting dropped; Spark sizes partitions itself")
DS_EXEC_RESULT = _code("F2S106", "todo", "the JobExecutionResult of execute() is used")
DS_ITERATOR = _code("F2S107", "todo", "Flink iterator used in a way the conversion cannot follow")
DS_PARTITION = _code("F2S108", "note", "partition boundaries differ from Flink's")
DS_CONTEXT = _code("F2S109", "todo", "runtime context used without a broadcast set")
DS_RETRIES = _code("F2S110", "note", "execution retries map to Spark task retries (spark.task.maxFailures)")
DS_UNKNOWN_TYPE = _code("F2S111", "todo", "read_csv field types not given as flink.plan.Constants")
DS_FLINK_NAME = _code("F2S112", "todo", "a Flink name is still used here")
DS_UNKNOWN_RECEIVER = _code("F2S114", "todo", "a DataSet API method called on something whose type could not be followed")
DS_PROJECTION = _code("F2S115", "note", "project_first/project_second without indexes")
DS_SORT_ORDER = _code("F2S113", "note", "group sort order: Flink compared serialized bytes, Spark compares values")
DS_FILE_FOLDER = _code("F2S117", "note", "write_text/write_csv: Spark writes a folder of part files where Flink wrote one file")
DS_CSV_READER = _code("F2S116", "note", "read_csv by Spark's CSV reader: input Flink rejects is read as nulls; BOOL fields read true/false only")
DS_COMBINED_SUM = _code("F2S273", "note", "reduce_group(combinable=True) of a first-record-plus-sum function as reduceByKey: pairwise sums combined before the shuffle; floats may differ in the last digits, a group of one record skips the function")
DS_FRAME_SUM = _code("F2S280", "note", "a DataSet per-key sum of a 64-bit integer field as Spark's sum on a DataFrame: past 64 bits the Spark job fails (ANSI overflow) where Python's int goes on")

# PyFlink DataStream API
PF_UNSUPPORTED = _code("F2S200", "todo", "PyFlink construct with no conversion")
PF_FUNCTION = _code("F2S201", "todo", "PyFlink user function whose kind (lambda, def, function class) is not known")
PF_STATE = _code("F2S202", "todo", "PyFlink function uses its runtime context for state, timers or metrics")
PF_OPEN_CLOSE = _code("F2S203", "note", "open()/close() of a PyFlink function run once per Spark partition")
PF_RUNTIME_MODE = _code("F2S204", "todo", "runtime mode (STREAMING/BATCH) of a keyed aggregation could not be determined")
PF_RDD = _code("F2S205", "note", "PyFlink streams become RDDs: Python functions over records need the RDD API (not on Spark Connect); the NOTE names the first operator, source or stream use, and its line, that keeps the program on RDDs")
PF_EXEC_RESULT = _code("F2S206", "todo", "the JobExecutionResult of a PyFlink execute() is used")
PF_PRINT_TYPE = _code("F2S207", "note", "execute_and_collect(): the stream's type could not be followed; values taken as they are (print() needs no type)")
PF_FLINK_NAME = _code("F2S208", "todo", "a PyFlink name is still used here")
PF_UNKNOWN_RECEIVER = _code("F2S209", "todo", "a PyFlink DataStream method called on something whose type could not be followed")
PF_TABLE_STREAM = _code("F2S210", "todo", "a DataStream that comes from the Table API (to_data_stream and the like): converted with the Table API part")
PF_MAP_ORDER = _code("F2S211", "note", "Types.MAP values with keys of other types than strings, numbers and booleans: Flink hands Python dicts in Java HashMap key order, the converted program keeps their Python order")
PF_ARRAY_PRINT = _code("F2S212", "note", "print() of a Java array (Types.PRIMITIVE_ARRAY/BASIC_ARRAY): Flink prints its identity ([B@1b2c3d), Spark its values")
# PyFlink event time and windows (F2S220-F2S229)
PF_EVENT_TIME = _code("F2S220", "todo", "PyFlink event time, watermark strategy or window construct not converted")
PF_PROCESSING_TIME = _code("F2S221", "note", "processing time depends on the wall clock: Spark's results may differ from any Flink run")
PF_LATENESS = _code("F2S222", "note", "late elements: the conversion's windows fire once, at the end of the bounded input, with every record (where Flink's watermark can make a record late: F2S270)")
PF_WINDOW_ORDER = _code("F2S223", "note", "window contents reach the window function in another order than Flink's")
# PyFlink process functions, state, timers, side outputs, connect, broadcast, partitioning (F2S230-F2S239)
PF_PROCESS = _code("F2S230", "todo", "PyFlink process function, state, connected or broadcast construct not converted")
PF_EVENT_TIMERS = _code("F2S231", "note", "event-time timers fire at the end of the bounded input (Flink: when a periodic watermark passes them)")
PF_PROCESSING_TIMERS = _code("F2S232", "note", "processing-time timers follow the wall clock; those pending at the end of input do not fire (STREAMING)")
PF_STATE_TTL = _code("F2S233", "note", "state TTL is not applied: state never expires during the job")
PF_BROADCAST_ORDER = _code("F2S234", "note", "broadcast elements reach each parallel instance before its data elements (Flink: in no set order)")
PF_PARTITIONING = _code("F2S235", "note", "Flink partitioning replaced by Spark's: same elements, their order and print prefixes may differ")
PF_INSTANCES = _code("F2S236", "note", "per-instance (non-keyed) function state: Spark partitions stand for Flink's parallel instances")
PF_ASYNC_ORDER = _code("F2S238", "note", "unordered_wait(): results in the order of the input elements (Flink: in the order the requests complete)")
PF_INPUT_ORDER = _code("F2S237", "note", "state fed by union()/connect(): the inputs' elements arrive in another order than Flink's (which no run fixes)")

# PyFlink file sinks and sources, generic sinks/sources, environment settings (F2S240-F2S249)
PF_FILE_UNSUPPORTED = _code("F2S240", "todo", "PyFlink file sink/source option with no exact Spark counterpart")
PF_PART_FILES = _code("F2S241", "note", "FileSink: one part file per Spark partition; the rolling policy does not split them")
PF_TIME_BUCKET = _code("F2S242", "note", "FileSink date-time buckets: one bucket from the time the Spark job writes")
PF_DEPLOYMENT = _code("F2S243", "note", "PyFlink dependency/deployment setting dropped: give Spark its equivalent")
PF_CHECKPOINTING = _code("F2S244", "note", "checkpointing settings dropped: a bounded Spark job has no checkpoints")
PF_ASYNC = _code("F2S245", "note", "execute_async(): the converted job runs synchronously")
PF_UNBOUNDED_FILES = _code("F2S246", "todo", "unbounded file source: needs Structured Streaming")
PF_JAVA_CONNECTOR = _code("F2S247", "todo", "Java SourceFunction/SinkFunction/InputFormat: no Spark counterpart")
PF_CONFIG = _code("F2S248", "note", "Flink configuration setting dropped: it changes no result of the converted job")
PF_TEXT_FOLDERS = _code("F2S249", "note", "read_text_file(): Spark also reads the files in subfolders of a folder")

# PyFlink Kafka and unbounded programs -> Structured Streaming (F2S250-F2S261)
PF_KAFKA_PACKAGE = _code("F2S250", "note", "Kafka: the Spark Kafka connector (and spark-avro for Avro) must be given to spark-submit --packages")
PF_CHECKPOINT = _code("F2S251", "note", "streaming query checkpoint location: a fresh folder per run unless F2S_CHECKPOINT_DIR is set")
PF_KAFKA_UNSUPPORTED = _code("F2S252", "todo", "Kafka source/sink option or schema with no exact Spark counterpart")
PF_MICRO_BATCH = _code("F2S253", "note", "Python operators on an unbounded stream run per micro-batch (foreachBatch)")
PF_UNBOUNDED_STATE = _code("F2S254", "todo", "keyed/stateful operation on an unbounded stream: port it to a streaming aggregation or transformWithState")
PF_KAFKA_FORMAT = _code("F2S255", "note", "Kafka record format: Spark's JSON/CSV functions differ from Flink's schemas in edge cases")
PF_KAFKA_OFFSETS = _code("F2S256", "note", "Kafka starting offsets / consumer group behave differently in Spark")
PF_MONITOR_INTERVAL = _code("F2S257", "note", "monitored file source: Spark looks for new files at each micro-batch, not at Flink's interval")
PF_ROLLING_STATE = _code("F2S258", "note", "keyed rolling aggregation on an unbounded stream: transformWithState (RocksDB state store, pyarrow, pandas, protobuf); results per micro-batch")
PF_STREAMING_TIMERS = _code("F2S260", "note", "timers on an unbounded stream: transformWithState fires them between micro-batches, when Spark's watermark (or clock) has passed them")
PF_STREAMING_COUNT_WINDOWS = _code("F2S261", "note", "count windows on an unbounded stream: transformWithState keeps each key's windows and element count (RocksDB state store, pyarrow, pandas, protobuf)")
PF_STREAMING_PROCESS = _code("F2S259", "note", "keyed process function on an unbounded stream: transformWithState keeps its keyed state (RocksDB state store, pyarrow, pandas, protobuf); results per micro-batch")
PF_ROLLING_FILES = _code("F2S265", "note", "rolling keyed aggregation of a text file source's lines in Spark's read order: Flink's order of several files' records differs")
PF_ROLLING_ORDER = _code("F2S277", "note", "rolling keyed aggregation of a DataFrame over the source order: with parallelism > 1 Flink's order of a key's records, and so its running values, may differ")
PF_FINAL_ORDER = _code("F2S288", "note", "BATCH keyed reduction of a DataFrame that keeps a key's first or last element (or the earlier of ties) in the source order: Flink sorts a key's records by key before reducing them and does not promise their order")

# PyFlink KeyedProcessFunction as a Spark StatefulProcessor (transformWithState) on a DataFrame (F2S266-F2S269)
PF_TWS_ORDER = _code("F2S266", "note", "transformWithState: a key's rows reach handleInputRows together, in no set order (Flink: one by one, in arrival order)")
PF_TWS_TIMERS = _code("F2S267", "note", "event-time timers as processing-time timers of a batch transformWithState: they fire after their key's rows when due by the job's clock (Flink: all at the end of the input)")
PF_TWS_MAP_ORDER = _code("F2S262", "note", "MapState keys()/values()/items() in Spark's iteration order (Flink: its state backend's), where the program's results can depend on it")
PF_TWS_SOURCE_ORDER = _code("F2S291", "note", "transformWithState of a keyed map/flat_map with state: a key's rows reach handleInputRows in the source's order (one partition, coalesce(1)), as Flink's at parallelism 1; Spark keeps that order (one shuffle block, a stable sort by key) without promising it")
PF_TWS_TTL = _code("F2S263", "note", "state TTL as transformWithState's ttlDurationMs: expiry by the micro-batch's processing time (Flink: the time of each access)")
PF_COLUMN_NOTE = _code("F2S264", "note", "a record function translated to Columns with a Spark built-in that differs from Python on the values the note names (str.upper()/lower() of characters newer than Python 3.11's Unicode)")
# PyFlink event-time windows over DataFrames: groupBy(key, F.window(...)) (F2S270-F2S271)
PF_FRAME_LATE = _code("F2S270", "note", "event-time window (DataFrame or the shim's RDD windows): Flink's periodic watermark may drop records of an out-of-order bounded input (or fire a window again within the allowed lateness) that the conversion counts once")
PF_STREAM_WATERMARK = _code("F2S272", "note", "event-time window on an unbounded stream (withWatermark, append mode): Flink's periodic per-partition watermark and Spark's per-micro-batch one drop different late records")
PF_FRAME_WINDOW_ORDER = _code("F2S271", "note", "window function run per (key, window) with applyInPandas: elements in timestamp order, Flink gives arrival order")

# PyFlink's Table API and SQL (rules/table/)
TB_UNSUPPORTED = _code("F2S300", "todo", "Table API construct with no conversion yet")
TB_EXPRESSION = _code("F2S301", "todo", "Table API expression with no exact Spark Column form")
TB_SQL = _code("F2S302", "todo", "Flink SQL with no same-meaning Spark SQL")
TB_CHANGELOG = _code("F2S303", "note", "streaming mode: Flink prints every change (+I/-U/+U/-D) of an updating table, Spark its final rows")
TB_CONFIG = _code("F2S304", "note", "Table API configuration dropped: it changes no result of the converted job")
TB_CONNECTOR = _code("F2S305", "todo", "Table connector or format with no exact Spark counterpart")
TB_KAFKA = _code("F2S307", "note", "Kafka table: Spark's Kafka source/sink and json functions differ from Flink's connector in edge cases")
TB_STREAMING = _code("F2S308", "note", "streaming query: Structured Streaming moves its watermark and gives results per micro-batch; its checkpoint is a fresh folder per run")
TB_ORDER = _code("F2S306", "note", "rows in another order than Flink prints them (results are the same as a set)")
TB_GENERATED = _code("F2S310", "note", "random datagen fields: Spark's generator gives values of the same kinds and ranges, not Flink's values")
TB_LEGACY = _code("F2S309", "note", "Flink 1.9-1.13 Table API (connect(), insert_into, execute(job)) converted as its modern form: see the message")
TB_LIFECYCLE = _code("F2S311", "note", "a Python function's open()/close(): run once per Spark Python worker or task, not per Flink subtask")
TB_JSON = _code("F2S312", "note", "JSON_VALUE/JSON_QUERY: a number with a fraction or an exponent reads as Spark's double text (1.5), Flink's decimal text (1.50); RETURNING INT/DOUBLE/BOOLEAN: Flink fails the job on a value of another JSON type, Spark casts it")
TB_PARSE = _code("F2S313", "note", "TO_TIMESTAMP, TO_DATE, UNIX_TIMESTAMP, FLOOR(ts TO MONTH/QUARTER/YEAR): Flink reads some text Spark's parser does not (a day past the month's end, text after the pattern), or Flink 2.3 gives a wrong value for rare input (see the message)")
TB_LISTAGG = _code("F2S314", "note", "LISTAGG: a group's values joined in the order they reach the aggregate, which may differ from Flink's")
TB_PARTITION_NAME = _code("F2S330", "note", "partitioned filesystem table: the folder of a NULL or '' partition value is __HIVE_DEFAULT_PARTITION__ in Spark, Flink's 'partition.default-name' (__DEFAULT_PARTITION__) in Flink")
TB_FILE_FORMAT = _code("F2S315", "note", "file table format option: Flink fails the job on records Spark's reader reads with NULLs (records missing a field)")
TB_PLAN = _code("F2S316", "note", "explain(): the plan printed is Spark's (debug output, not a result of the job)")
TB_LATE = _code("F2S317", "note", "event-time window over a stream's rowtime: records behind Flink's watermark are dropped in streaming mode, Spark's batch window counts them")
TB_FLOAT_SUM = _code("F2S318", "note", "SUM of a FLOAT: Flink adds 32-bit floats in arrival order, Spark doubles cast back to FLOAT (the last digits may differ)")
TB_UPDATING = _code("F2S319", "note", "updating streaming query (an aggregation without a window) in Spark's update output mode: each micro-batch gives the new rows of the groups it changed, Flink every change (-U/+U) as records arrive")
TB_HELPER_SQL = _code("F2S320", "todo", "SQL text a helper function builds: which text depends on a value the call gives that is known only when the job runs")
TB_TABLE_NAME = _code("F2S321", "todo", "CREATE TABLE of a table named by a value known only where the statement is called (a helper's parameter): its Spark form depends on how the program uses that table")
TB_JDBC = _code("F2S322", "note", "JDBC table: the database's JDBC driver must be on Spark's classpath (spark-submit --jars or --packages)")
TB_OVER_BATCH = _code("F2S325", "note", "over_window() in batch mode: Flink 2.3 refuses the Table API's over windows there; the conversion gives what Flink's SQL OVER gives in batch mode")
TB_FIRST_VALUE = _code("F2S326", "note", "FIRST_VALUE/LAST_VALUE aggregate: the first/last value of a group in the order its rows reach Spark's aggregate, which may differ from Flink's arrival order")
TB_OVER_LATE = _code("F2S323", "note", "over window ordered by a rowtime in streaming mode: Flink drops the records at or behind its watermark (with a watermark of no delay, a record with the time of an earlier one; which ones depends on timing), Spark's window keeps them")
TB_STREAM_JOIN = _code("F2S327", "note", "join of a stream: Spark's stream-static join reads the bounded table again each micro-batch (Flink once); a left/right outer join gives the final rows, Flink rows with NULLs it retracts when the match arrives")
TB_PROCTIME = _code("F2S332", "note", "processing-time window on a Kafka stream: PROCTIME() is the micro-batch's time (current_timestamp()) with a watermark of no delay; a window is emitted when a later micro-batch runs, not by the wall clock")
TB_NAN_EXTREME = _code("F2S329", "note", "MIN/MAX of a FLOAT/DOUBLE (or of a value of unknown type): the same result unless the column holds NaN; with NaN Flink's result depends on the order rows come (a group whose first value is NaN gives NaN, a later NaN is skipped), Spark's MAX is NaN and its MIN skips NaN")
TB_INSERT_PRINT = _code("F2S328", "note", "print() of an INSERT's TableResult: Flink prints -1 (job metadata, not a record) once the job ends; Spark's write has ended there and prints nothing")
TB_ROWTIME_ZONE = _code("F2S324", "note", "TIMESTAMP(3) watermark column of a stream read as a TIMESTAMP in the Spark session time zone: the same values and windows while that zone keeps one offset over the data (UTC, a fixed offset), not across a daylight-saving change")
TB_CATALOG_TABLE = _code("F2S334", "note", "a table the program reads or writes by name without declaring it (a Flink catalog's): Spark reads/writes the table or view of that name in its session catalog, which must hold it as Flink's catalog does")
TB_CATALOG_STREAM = _code("F2S335", "todo", "a table the program does not declare, read or written in streaming mode: whether it is bounded and which changes it takes are its catalog's, not known when converting")
TB_STREAM_COLLECT = _code("F2S337", "note", "the rows of a streaming query's collect() iterated in a for loop: the loop body runs in a foreachBatch function for each row of a micro-batch; rows come per micro-batch (in no set order within one), Flink's one by one; the loop never ends in either; a checkpoint folder is needed; a Row printed whole reads Row(name=value, ...) in Spark, <Row(value, ...)> in Flink")
TB_STREAM_TABLE = _code("F2S343", "note", "a table of an unbounded DataStream (Kafka, monitored files): the stream's elements, after its Python operators, become the rows of a streaming DataFrame micro-batch by micro-batch (f2s_stream.table: mapInArrow, pyarrow needed on the driver and the workers); same rows")
TB_DATE_BEFORE_1970 = _code("F2S348", "note", "CAST of a TIMESTAMP to DATE, CEIL(ts TO WEEK/MONTH/QUARTER/YEAR), FLOOR(ts TO WEEK): the same values from 1970 on and for midnight; Flink 2.3 takes the next day for a time before 1970 that is not midnight (1969-12-31 23:59:59.5 is 1970-01-01), Spark the calendar date")
TB_ASYNC = _code("F2S345", "note", "async Python function (AsyncScalarFunction, async def): Spark awaits each row's call in turn (asyncio.run), Flink several at once with a timeout; Flink 2.3 was seen giving rows the results of later rows' arguments")

# Generations recognised but not converted yet
JYTHON_UNSUPPORTED = _code("F2S801", "todo", "Jython streaming API: not converted yet")
PYFLINK_UNSUPPORTED = _code("F2S802", "todo", "modern PyFlink API: not converted yet")

# check findings
CHECK_IMPORT = _code("F2S900", "todo", "Flink import")
CHECK_TODO = _code("F2S901", "todo", "unresolved flink2spark TODO marker")


def severity(code: str) -> str:
    return CODES[code].severity
