"""``env.read_text_file(path[, charset_name])`` (PyFlink 1.x; removed in 2.0) ->
``env.read.text(path)`` where the program model plans the stream as a DataFrame (its
consumers have native forms: ``_frames.text_source_shape``), else
``env.read.text(path).rdd.map(lambda row: row.value)``.

Flink 1.x reads the file, or the files of the folder (``TextInputFormat``: lines without
their ``\\n``/``\\r\\n`` terminator; files starting with ``.`` or ``_`` skipped, as Spark
does). The one difference: Flink does not descend into subfolders by default, Spark's file
listing does; a NOTE says so. A charset other than UTF-8 stays with a TODO.
"""

import libcst as cst

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.rules.pyflink._streams import facts
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["StreamExecutionEnvironment.read_text_file"],
    summary="read_text_file(path) (PyFlink 1.x) -> read.text(path).rdd.map(lambda row: row.value)",
    exact=False,
    codes=(M.PF_TEXT_FOLDERS, M.PF_FILE_UNSUPPORTED),
    examples=[
        Example(
            program("lines = env.read_text_file('/data/in.txt')\nlines.map(lambda s: s.upper()).print()\n"),
            'from pyspark.sql import SparkSession, functions as F\n'
            '\n'
            'env = SparkSession.builder.getOrCreate()\n'
            "# NOTE(flink2spark): F2S249 read_text_file(): a folder's subfolders are read too (Flink 1.x read only the files directly in it)\n"
            'lines = env.read.text("/data/in.txt")\n'
            "# NOTE(flink2spark): F2S264 str.upper() as F.upper: Spark's case mapping follows a newer Unicode than Python 3.11's (14.0): 55 characters map differently (unassigned in 14.0, and ƛ ɤ ꟓ ꟕ)\n"
            'lines.select(F.upper(F.col("value")).alias("value")).show(2147483647, truncate=False)\n',
        ),
        Example(  # a DataFrame of the lines (the program model's frame form)
            program("env.read_text_file('/data/in.txt').map(lambda s: s + '!', output_type=Types.STRING()).print()\n",
                    imports="from pyflink.common import Types\n"),
            "from pyspark.sql import SparkSession, functions as F\n\n"
            "env = SparkSession.builder.getOrCreate()\n"
            "# NOTE(flink2spark): F2S249 read_text_file(): a folder's subfolders are read too (Flink 1.x read only"
            " the files directly in it)\n"
            'env.read.text("/data/in.txt").select(\n'
            '    F.concat(F.col("value"), F.lit("!")).alias("value")\n'
            ").show(2147483647, truncate=False)\n",
        ),
    ],
    noop=["class Env:\n    def read_text_file(self, p):\n        return p\n\n\nEnv().read_text_file('x')\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    path = ctx.arg(seg, 0, "file_path")
    charset = ctx.arg(seg, 1, "charset_name")
    if path is None or any(a.star for a in seg.original.args):
        return ctx.todo(M.PF_FILE_UNSUPPORTED, "read_text_file() without a path argument")
    if charset is not None:
        text = charset[0].evaluated_value if isinstance(charset[0], cst.SimpleString) else None
        if text is None or text.upper().replace("-", "") != "UTF8":
            return ctx.todo(M.PF_FILE_UNSUPPORTED, "read_text_file(charset): Spark's text source reads UTF-8 only")
    ctx.note(M.PF_TEXT_FOLDERS, "read_text_file(): a folder's subfolders are read too (Flink 1.x read only the files directly in it)")
    if facts(ctx.resolver, seg.original).frame is not None:  # a DataFrame of the lines (the program model's plan)
        return ctx.expr("{env}.read.text({p})", env=ctx.site.receiver, p=path[1])
    return ctx.expr("{env}.read.text({p}).rdd.map(lambda row: row.value)", env=ctx.site.receiver, p=path[1])
