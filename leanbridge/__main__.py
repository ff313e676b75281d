"""``python -m leanbridge``: the same as the ``leanbridge`` command."""

from leanbridge.cli import main

main(prog_name="leanbridge")
