"""``t_env.use_catalog(name)`` / ``t_env.use_database(name)``.

Flink's built-in catalog and database, ``default_catalog`` and ``default_database``, are where a
program's tables live until it switches: the Spark session's are ``spark_catalog`` and
``default``, where its tables and temporary views live. A switch to them when the program never
names another catalog (database) is no switch: removed. One back to them after another
(``use_catalog("lakehouse")`` ... ``use_catalog("default_catalog")``) is
``spark.catalog.setCurrentCatalog("spark_catalog")`` / ``setCurrentDatabase("default")``.
Another catalog (``CREATE CATALOG ... WITH ('type' = 'iceberg')``, a ``JdbcCatalog``) is declared
to Spark in the session's settings before it starts, with its own package, and its tables are
written by its own rules (Iceberg's upserts of a PRIMARY KEY table): a TODO saying so.
"""

from flink2spark.rules.table._common import program, spark_program
from flink2spark.rules.table._program import tables
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule
from flink2spark.transpiler.results import REMOVE

rule = Rule(
    __name__,
    matches=["TableEnvironment.use_catalog", "TableEnvironment.use_database"],
    summary="use_catalog('default_catalog')/use_database('default_database') -> removed (or Spark's built-in "
            "catalog/database after another); other catalogs: TODO",
    codes=(M.TB_UNSUPPORTED, M.TB_CONNECTOR),
    examples=[
        Example(
            program("t_env.use_catalog('default_catalog')\nt_env.use_database('default_database')\n"
                    "t_env.from_elements([(1,)], ['a']).execute().print()\n"),
            spark_program('t_env.createDataFrame([(1,)], ["a"]).show(2147483647, truncate=False)\n'),
        ),
    ],
    noop=['import duckdb\n\ncon = duckdb.connect()\ncon.execute("USE memory")\n'],
)

# Flink's built-in names -> the Spark session's
_BUILT_IN = {"use_catalog": ("default_catalog", "spark_catalog", "setCurrentCatalog"),
             "use_database": ("default_database", "default", "setCurrentDatabase")}


@rule.converter
def convert(ctx):
    method = ctx.site.head.method
    built_in, spark_name, setter = _BUILT_IN[method]
    model = tables(ctx.resolver)
    args = ctx.site.head.original.args
    name = model.name(args[0].value) if len(args) == 1 and args[0].keyword is None else None
    names = model.current_names(method)
    if name is None or names is None:
        return ctx.todo(M.TB_UNSUPPORTED, f"{method}() of a name not known when converting, or with the built-in "
                        "catalog/database renamed (EnvironmentSettings.with_built_in_*_name)")
    if not ctx.is_statement:
        return ctx.todo(M.TB_UNSUPPORTED, f"the result of {method}() is used")
    catalogs = model.current_names("use_catalog") or frozenset()
    if name == built_in and (method == "use_catalog" or catalogs <= {"default_catalog"}):
        if names <= {built_in}:
            return REMOVE  # the program never leaves the built-in catalog (database)
        return ctx.expr("{env}.catalog.%s(%r)" % (setter, spark_name), env=ctx.site.receiver)
    if method == "use_catalog":
        return ctx.todo(M.TB_CONNECTOR, f"use_catalog({name!r}): a catalog other than Flink's built-in one; {CATALOG_WHY}")
    others = sorted(catalogs - {"default_catalog"})
    return ctx.todo(M.TB_CONNECTOR, f"use_database({name!r}): " + (
        f"a database of catalog {others[0]!r} (see its use_catalog TODO)" if others else
        "a database other than Flink's built-in default_database: CREATE DATABASE and the tables of another "
        "database are not converted yet"))


CATALOG_WHY = ("Spark declares another catalog in the session's settings before it starts (spark.sql.catalog.<name> = "
               "its implementation class, with its package) and writes its tables by that catalog's rules: port it by hand")
