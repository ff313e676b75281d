"""The exit codes of the ``leanbridge`` commands, in order of precedence: usage error >
failure > no toolchain > success (a module of their own, so that the command line reads them
without importing the results machinery)."""

EXIT_OK, EXIT_FAILED, EXIT_USAGE, EXIT_NO_TOOLCHAIN = 0, 1, 2, 3
