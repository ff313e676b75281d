"""Exceptions of the numeric subpackage (no third-party imports here)."""

from __future__ import annotations

import importlib

#: What to install for the numeric commands.
PIP_NUMERIC = "pip install 'leanbridge[numeric]'"


class NumericInputError(ValueError):
    """Bad input to a numeric command (missing key, wrong shape, unreadable file …).

    The message is one line; the command line turns it into exit code 2.
    """


class MissingDependencyError(NumericInputError):
    """An optional dependency is not installed; the message says what to pip install."""


def need(module: str, purpose: str, pip: str = PIP_NUMERIC):
    """Import ``module`` or raise :class:`MissingDependencyError` naming the pip command."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise MissingDependencyError(
            f"{purpose} needs the Python package '{module.split('.')[0]}', which is not "
            f"installed; install it with: {pip}"
        ) from None
