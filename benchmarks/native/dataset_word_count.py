################################################################################
# Word count (DataSet API).
#
# Reads a text file, splits its lines into (word, 1) pairs, sums the counts of
# each word with a combinable group reduce and writes "word,count" lines.
#
# Usage: dataset_word_count.py <text file> <output file>
################################################################################
import sys

from flink.plan.Environment import get_environment
from flink.plan.Constants import WriteMode
from flink.functions.FlatMapFunction import FlatMapFunction
from flink.functions.GroupReduceFunction import GroupReduceFunction


class Tokenizer(FlatMapFunction):
    def flat_map(self, value, collector):
        for word in value.split():
            collector.collect((word, 1))


class Adder(GroupReduceFunction):
    def reduce(self, iterator, collector):
        word, count = iterator.next()
        count += sum([x[1] for x in iterator])
        collector.collect((word, count))


def main(text_path, output_path):
    env = get_environment()

    counts = env.read_text(text_path) \
        .flat_map(Tokenizer()) \
        .group_by(0) \
        .reduce_group(Adder(), combinable=True)

    counts.write_csv(output_path, field_delimiter=",", write_mode=WriteMode.OVERWRITE)

    env.execute(local=True)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
