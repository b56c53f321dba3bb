"""Placeholder of the DataTypes translation (replaced by the full module)."""


class Untranslatable(Exception):
    pass


def spark_type(node, qualified) -> str:
    raise Untranslatable("DataTypes")


def spark_schema(node, qualified) -> str:
    raise Untranslatable("schema")
