"""Launch settings shared by the host code."""
from shared import defaults  # noqa: F401
