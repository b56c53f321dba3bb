"""The API model of each converted generation (what its classes are and what methods return)."""

from flink2spark.transpiler import api_model as dataset_model
from flink2spark.transpiler import pyflink_model

MODELS = {"dataset": dataset_model, "pyflink": pyflink_model}
