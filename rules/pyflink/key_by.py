"""``key_by(key_selector)`` -> ``RDD.keyBy(key)``: a keyed stream is a pair RDD.

The key selector is a lambda, a def, any callable or a ``KeySelector`` class
(``Cls().get_key``); ``key_type`` only types the key inside Flink and is dropped. The operators
of a keyed stream unwrap it: ``reduce``/``sum``/... reduce per key, ``map``/``filter``/``print``
work on its ``values()``.
"""

from flink2spark.rules.pyflink._common import as_stream, program, spark_program
from flink2spark.transpiler import markers as M
from flink2spark.transpiler.registry import Example, Rule

rule = Rule(
    __name__,
    matches=["DataStream.key_by"],
    summary="key_by(selector) -> RDD.keyBy(selector) (pair RDD)",
    codes=(M.PF_FUNCTION,),
    examples=[
        Example(
            program(
                "\n\nclass ByFirst(KeySelector):\n    def get_key(self, value):\n        return value[0]\n\n\n"
                "pairs = env.from_collection([('a', 1)])\n"
                "a = pairs.key_by(lambda p: p[0], key_type=Types.STRING())\n"
                "b = pairs.key_by(ByFirst())\n",
                imports="from pyflink.common import Types\nfrom pyflink.datastream import KeySelector\n",
            ),
            spark_program(
                "\n\nclass ByFirst:\n    def get_key(self, value):\n        return value[0]\n\n\n"
                'pairs = env.sparkContext.parallelize([("a", 1)])\n'
                "a = pairs.keyBy(lambda p: p[0])\n"
                "b = pairs.keyBy(ByFirst().get_key)\n"
            ),
        ),
    ],
    noop=["class Table:\n    def key_by(self, f):\n        return self\n\n\nTable().key_by(len)\n"],
)


@rule.converter
def convert(ctx):
    seg = ctx.site.head
    fn = ctx.function(seg, "key")
    if fn is None:
        return None
    return ctx.expr("{ds}.keyBy({fn})", ds=as_stream(ctx, ctx.site.receiver, ctx.site.receiver_type), fn=fn)
