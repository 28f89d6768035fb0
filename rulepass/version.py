"""The version of this rulepass (``rulepass --version``, the ``run`` header of
``summary.json``)."""

from __future__ import annotations


def version() -> str:
    """The installed distribution's version (``pyproject.toml``), "unknown" when rulepass runs
    from a source tree that was never installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as distribution_version

    try:
        return distribution_version("rulepass")
    except PackageNotFoundError:
        return "unknown"
