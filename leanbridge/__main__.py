"""``python -m leanbridge``: the same as the ``leanbridge`` command."""

from leanbridge.cli import run

run()
