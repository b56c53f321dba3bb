"""Dependency and deployment settings of the environment.

* ``add_jars(*jars)`` / ``add_classpaths(*urls)``: Java jars for Flink connectors and formats.
  The converted job runs no Flink operator; jars Spark itself needs are given when the session
  starts (``spark.jars`` / ``spark-submit --jars``): dropped with a NOTE.
* ``add_python_file(path)`` -> ``env.sparkContext.addPyFile(path)``: the module or package is
  shipped to the executors and put on their ``sys.path``. Spark takes ``.py``, ``.zip`` and
  ``.egg`` files; PyFlink also folders: a NOTE says so unless the path is such a file literal.
* ``add_python_archive(path[, target_dir])``: Spark's counterpart is ``spark.archives`` /
  ``--archives path#target_dir`` at submission (it must be set before the session starts).
* ``set_python_requirements(file[, cache_dir])``: install the requirements into the Python the
  executors run (or ship a packed virtualenv with ``spark.archives``).
* ``set_python_executable(python)``: ``spark.pyspark.python`` (``PYSPARK_PYTHON``).

Each of the last three is dropped with a NOTE naming its Spark counterpart.
"""

import libcst as cst

from flink2spark.rules.pyflink._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.convert import REMOVE
from flink2spark.transpiler.registry import Example, Rule

_DROPPED = {
    "add_jars": "Flink jars are not needed by the converted job; give jars Spark needs with spark.jars (--jars) when the session starts",
    "add_classpaths": "Flink classpaths are not needed by the converted job; give jars Spark needs with spark.jars (--jars) when the session starts",
    "add_python_archive": "ship the archive with spark.archives (spark-submit --archives path#target_dir) when the session starts",
    "set_python_requirements": "install the requirements into the executors' Python, or ship a packed virtualenv with spark.archives",
    "set_python_executable": "set spark.pyspark.python (PYSPARK_PYTHON) when submitting the job",
}

rule = Rule(
    __name__,
    matches=[f"StreamExecutionEnvironment.{m}" for m in (*_DROPPED, "add_python_file")],
    summary="add_python_file -> sparkContext.addPyFile; add_jars/add_classpaths/python archives, requirements, executable -> removed with the Spark setting (NOTE)",
    exact=False,
    codes=(M.PF_DEPLOYMENT, M.PF_UNSUPPORTED),
    examples=[
        Example(
            program(
                "env.add_jars('file:///opt/flink-connector.jar')\n"
                "env.add_python_file('helpers.py')\n"
                "env.set_python_executable('python3.11')\n"
            ),
            spark_program(
                "# NOTE(flink2spark): F2S243 add_jars(): Flink jars are not needed by the converted job;"
                " give jars Spark needs with spark.jars (--jars) when the session starts\n"
                'env.sparkContext.addPyFile("helpers.py")\n'
                "# NOTE(flink2spark): F2S243 set_python_executable(): set spark.pyspark.python (PYSPARK_PYTHON)"
                " when submitting the job\n",
                frames=True,
            ),
        ),
        Example(
            program("env.add_python_file(LIBS)\n"),
            spark_program(
                "# NOTE(flink2spark): F2S243 add_python_file(): Spark's addPyFile takes .py, .zip and .egg files,"
                " not folders (zip a package folder first)\n"
                "env.sparkContext.addPyFile(LIBS)\n",
                frames=True,
            ),
        ),
    ],
    noop=["class Env:\n    def add_jars(self, *jars):\n        pass\n\n\nEnv().add_jars('a.jar')\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    if not ctx.is_statement:
        return ctx.todo(M.PF_UNSUPPORTED, f"the result of {seg.method}() is used")
    if seg.method in _DROPPED:
        ctx.note(M.PF_DEPLOYMENT, f"{seg.method}(): {_DROPPED[seg.method]}")
        return REMOVE
    path = ctx.arg(seg, 0, "file_path")
    if path is None or len(seg.original.args) != 1:
        return ctx.todo(M.PF_UNSUPPORTED, "add_python_file() without a single path argument")
    literal = path[0].evaluated_value if isinstance(path[0], cst.SimpleString) else None
    if not (literal and literal.endswith((".py", ".zip", ".egg"))):
        ctx.note(M.PF_DEPLOYMENT, "add_python_file(): Spark's addPyFile takes .py, .zip and .egg files, not folders (zip a package folder first)")
    return ctx.expr("{env}.sparkContext.addPyFile({p})", env=ctx.site.receiver, p=path[1])
