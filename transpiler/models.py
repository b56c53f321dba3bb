"""The API model of each converted generation (what its classes are and what methods return):
generation -> its ``GenerationModel`` (transpiler/generation.py)."""

from flink2spark.transpiler import api_model as dataset_model
from flink2spark.transpiler import pyflink_model
from flink2spark.transpiler.generation import GenerationModel

MODELS: dict[str, GenerationModel] = {"dataset": dataset_model.MODEL, "pyflink": pyflink_model.MODEL}
