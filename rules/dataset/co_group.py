"""``co_group(other).where(k1).equal_to(k2).using(f)`` -> ``keyBy`` + ``RDD.cogroup`` + ``flatMap``.

``f`` is called once per key present on either side, with both sides' values (one may be
empty): Spark's ``cogroup`` gives exactly those groups. ``CoGroupFunction.co_group`` methods are
rewritten into generators; lambdas take the pair of groups.
"""

from flink2spark.rules.dataset._common import program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataSet.co_group"],
    summary="co_group().where().equal_to().using(f) -> keyBy + RDD.cogroup + values().flatMap(f)",
    codes=(M.DS_SPLIT_CHAIN,),
    examples=[
        Example(
            program(
                "\n\nclass Unvisited(CoGroupFunction):\n"
                "    def co_group(self, iterator1, iterator2, collector):\n"
                "        if not list(iterator2):\n"
                "            for page in iterator1:\n"
                "                collector.collect(page)\n\n\n"
                "pages = env.from_elements(('a', 1))\nvisits = env.from_elements(('a',))\n"
                "lonely = pages.co_group(visits).where(0).equal_to(0).using(Unvisited())\n",
                imports="from flink.functions.CoGroupFunction import CoGroupFunction\n",
            ),
            spark_program(
                "\n\nclass Unvisited:\n"
                "    def co_group(self, iterator1, iterator2):\n"
                "        if not list(iterator2):\n"
                "            for page in iterator1:\n"
                "                yield page\n\n\n"
                'pages = env.sparkContext.parallelize([("a", 1)])\nvisits = env.sparkContext.parallelize([("a",)])\n'
                "lonely = (\n    pages.keyBy(lambda t: t[0])\n    .cogroup(visits.keyBy(lambda t: t[0]))\n    .values()\n"
                "    .flatMap(lambda groups: Unvisited().co_group(*groups))\n)\n"
            ),
        ),
    ],
    noop=["class Team:\n    def co_group(self, other):\n        return self\n\n\nTeam().co_group(Team())\n"],
)


@rule.converter
def convert(ctx):
    site = ctx.site
    where, equal_to, using = site.segment("where"), site.segment("equal_to"), site.segment("using")
    if where is None or equal_to is None or using is None:
        return ctx.todo(M.DS_SPLIT_CHAIN, "co_group() must be followed by .where(...).equal_to(...).using(...) in the same expression")
    other = ctx.arg(site.head, 0)
    if other is None:
        return ctx.todo(M.DS_UNSUPPORTED, "co_group() without the other data set")
    k1, k2 = ctx.key(where), ctx.key(equal_to)
    fn = ctx.function(using, "co_group", packed=True, pack_name="groups")
    if k1 is None or k2 is None or fn is None:
        return ctx.todo_left()
    return ctx.expr(
        "{a}.keyBy({k1}).cogroup({b}.keyBy({k2})).values().flatMap({fn})", a=site.receiver, b=other[1], k1=k1, k2=k2, fn=fn
    )
