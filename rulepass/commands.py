"""Subcommands of ``rulepass`` beyond ``print`` and ``verify``: each registers its argparse
sub-parser in :data:`REGISTRY` (name → ``register(subparsers)``)."""

from __future__ import annotations

import sys

REGISTRY: dict = {}


def command(name: str):
    """Decorator: ``register(subparsers)`` adds the sub-parser of command ``name``."""

    def deco(register):
        REGISTRY[name] = register
        return register

    return deco
