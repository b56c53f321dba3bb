"""Word count with the legacy Flink DataSet Python API.

flink2spark quickstart demo: convert it with

    flink2spark convert examples/word_count.py > word_count_spark.py

and run the result with PySpark (python word_count_spark.py). The last step sorts the (small) result in a
single group reduce so the printed output is always in the same order.
"""
from flink.plan.Environment import get_environment
from flink.functions.GroupReduceFunction import GroupReduceFunction


class Adder(GroupReduceFunction):
    """Sums the (count, word) pairs of one word."""

    def reduce(self, iterator, collector):
        count, word = iterator.next()
        count += sum([x[0] for x in iterator])
        collector.collect((count, word))


class SortedByCount(GroupReduceFunction):
    """Emits all counts, most frequent first, ties in alphabetical order."""

    def reduce(self, iterator, collector):
        for count, word in sorted(iterator, key=lambda t: (-t[0], t[1])):
            collector.collect((count, word))


env = get_environment()

lines = env.from_elements(
    "The cat sat on the mat",
    "The dog sat on the log",
    "A cat and a dog")

lines \
    .flat_map(lambda line, c: [(1, word) for word in line.lower().split()]) \
    .group_by(1) \
    .reduce_group(Adder(), combinable=True) \
    .reduce_group(SortedByCount()) \
    .output()

env.execute(local=True)
