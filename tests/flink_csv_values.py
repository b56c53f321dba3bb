"""Run on the reference Flink (``tests/flink_reference.run_on_flink``): the Kafka record values
Flink 2.3's csv format writes for rows of (s STRING, i INT, d DOUBLE, t STRING), one ``repr`` a
line. The rows come as JSON in ``sys.argv[1]``; Flink's ``CsvRowDataSerializationSchema`` (what a
Kafka table of 'format' = 'csv' serializes its record values with) runs on ``GenericRowData``
through PyFlink's gateway, so no broker is needed (tests/test_table_kafka.py)."""

import json
import sys

from pyflink.java_gateway import get_gateway


def main():
    gateway = get_gateway()
    jvm = gateway.jvm
    logical = jvm.org.apache.flink.table.types.logical
    types = gateway.new_array(logical.LogicalType, 4)
    for i, t in enumerate([logical.VarCharType(logical.VarCharType.MAX_LENGTH), logical.IntType(), logical.DoubleType(),
                           logical.VarCharType(logical.VarCharType.MAX_LENGTH)]):
        types[i] = t
    names = gateway.new_array(jvm.String, 4)
    for i, n in enumerate(["s", "i", "d", "t"]):
        names[i] = n
    schema = jvm.org.apache.flink.formats.csv.CsvRowDataSerializationSchema.Builder(logical.RowType.of(types, names)).build()
    schema.open(None)  # makes its CSV writer (the context is not read)
    data = jvm.org.apache.flink.table.data
    for s, i, d, t in json.loads(sys.argv[1]):
        values = gateway.new_array(jvm.Object, 4)
        values[0] = None if s is None else data.StringData.fromString(s)
        values[1] = None if i is None else jvm.Integer(i)
        values[2] = None if d is None else jvm.Double(float(d))
        values[3] = None if t is None else data.StringData.fromString(t)
        print(repr(bytes(schema.serialize(data.GenericRowData.of(values))).decode()))


if __name__ == "__main__":
    main()
