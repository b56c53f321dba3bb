"""Options of ``FileSource.for_record_stream_format(...)`` builders.

* ``process_static_file_set()``: the files present when the job starts, read once; that is
  what a FileSource does without it, and what ``from_source`` converts (``spark.read.text``).
  Nothing to do here: ``from_source`` reads the whole chain.
* ``monitor_continuously(Duration)``: an unbounded source that picks up new files for ever.
  Read by ``env.from_source`` (text lines, one path), it becomes a Structured Streaming file
  source there (``spark.readStream.text(path)``, NOTE F2S257); any other use: TODO.
* ``set_file_enumerator`` / ``set_split_assigner``: Java enumeration and split assignment
  with no Spark counterpart: TODO.
"""

import libcst as cst

from flink2spark.rules.pyflink._common import consumed_by_from_source, from_source_problem, program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

_IMPORTS = (
    "from pyflink.common import Duration, WatermarkStrategy\n"
    "from pyflink.datastream.connectors.file_system import FileSource, StreamFormat\n"
)

rule = Rule(
    __name__,
    matches=[
        "FileSourceBuilder.process_static_file_set",
        "FileSourceBuilder.monitor_continuously",
        "FileSourceBuilder.set_file_enumerator",
        "FileSourceBuilder.set_split_assigner",
    ],
    summary="FileSource builder options: process_static_file_set() and monitor_continuously() read by from_source; others: TODO",
    codes=(M.PF_UNBOUNDED_FILES, M.PF_FILE_UNSUPPORTED),
    examples=[
        Example(
            program(
                "source = FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/in').process_static_file_set().build()\n"
                "env.from_source(source, WatermarkStrategy.no_watermarks(), 'in').print()\n",
                imports=_IMPORTS,
            ),
            # the lines as a DataFrame (the program model's frame form: print has a native form)
            "from pyspark.sql import SparkSession\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            'env.read.text("/in", recursiveFileLookup=True).show(2147483647, truncate=False)\n',
        ),
        Example(
            program(
                "source = (\n"
                "    FileSource.for_record_stream_format(StreamFormat.text_line_format(), '/in')\n"
                "    .monitor_continuously(Duration.of_seconds(10))\n"
                "    .build()\n"
                ")\n",
                imports=_IMPORTS,
            ),
            "# TODO(flink2spark): F2S208 FileSource, StreamFormat from pyflink.datastream.connectors.file_system is still used:"
            " convert the remaining uses by hand\n"
            "from pyflink.datastream.connectors.file_system import FileSource, StreamFormat\n"
            + spark_program(
                "# TODO(flink2spark): F2S246 FileSource.monitor_continuously() other than on a text_line_format source read by"
                " env.from_source(): its Spark counterpart is Structured Streaming, spark.readStream.text(path): port it by hand\n"
                "# TODO(flink2spark): F2S200 a source object used other than as the source of env.from_source(): convert it by hand\n"
                "source = (\n"
                '    FileSource.for_record_stream_format(StreamFormat.text_line_format(), "/in")\n'
                "    .monitor_continuously(f2s.Duration.of_seconds(10))\n"
                "    .build()\n"
                ")\n",
                shim=True,
                frames=True,
            ),
        ),
    ],
    noop=["class Files:\n    def process_static_file_set(self):\n        return self\n\n\nFiles().process_static_file_set()\n"],
)


@rule.converter
def convert(ctx):
    method = ctx.site.head.method
    if method == "process_static_file_set":
        return ctx.keep("a FileSource option: converted (or marked) with the from_source() that reads the source")
    if method == "monitor_continuously":
        if _read_by_from_source(ctx):
            return ctx.keep("a FileSource that monitors its folder: from_source() converts it (Structured Streaming)")
        return ctx.todo(
            M.PF_UNBOUNDED_FILES,
            "FileSource.monitor_continuously() other than on a text_line_format source read by env.from_source():"
            " its Spark counterpart is Structured Streaming, spark.readStream.text(path): port it by hand",
        )
    return ctx.todo(M.PF_FILE_UNSUPPORTED, f"FileSource {method}(): Java file enumeration/split assignment has no Spark counterpart")


def _read_by_from_source(ctx) -> bool:
    """Whether ``<builder>.monitor_continuously(d).build()`` is a source that from_source converts."""
    call = ctx.site.head.original
    attr = ctx.resolver.parent(call)
    build = ctx.resolver.parent(attr) if isinstance(attr, cst.Attribute) and attr.attr.value == "build" else None
    if not isinstance(build, cst.Call):
        return False
    found = consumed_by_from_source(ctx, build)
    return found is not None and from_source_problem(ctx, found[1]) is None
