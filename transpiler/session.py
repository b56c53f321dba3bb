"""The Spark session converted programs create: master and app name from the settings.

``[tool.flink2spark] spark-master`` / ``spark-app-name`` (or ``convert --spark-master`` /
``--spark-app-name``) put ``.master(...)`` / ``.appName(...)`` on every
``SparkSession.builder`` a rule writes. None by default: a session without them takes both
from ``spark-submit`` (a master set in code overrides ``spark-submit --master``).
"""

from __future__ import annotations

import contextvars
import json
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class SessionSettings:
    master: Optional[str] = None
    app_name: Optional[str] = None

    def builder(self) -> str:
        """Template text of the builder (``{s}``: the ``SparkSession`` name), before ``.config``/``.getOrCreate()``."""
        text = "{s}.builder"
        if self.master:
            text += f".master({json.dumps(self.master)})"
        if self.app_name:
            text += f".appName({json.dumps(self.app_name)})"
        return text


def check_value(value: object) -> Optional[str]:
    """Why ``value`` cannot be a master or app name (None: it can)."""
    if not isinstance(value, str) or not value.strip():
        return f"must be a non-empty string, not {value!r}"
    if "{" in value or "}" in value:
        return f"must not contain braces: {value!r}"
    return None


# Set by the command line for a run; read by the rules that create the session.
SESSION: contextvars.ContextVar[SessionSettings] = contextvars.ContextVar("flink2spark_session", default=SessionSettings())
