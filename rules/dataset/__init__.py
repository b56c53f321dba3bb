"""Rules for the legacy DataSet API (flink.plan / flink.functions), one module per rule."""
