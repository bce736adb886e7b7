"""The `mtrain` subcommands, one module each: `register(subparsers)` adds the command's
arguments, `run(args)` does it and prints its output.

A command module imports only the standard library at the top, so that `mtrain --help`
(which registers every command) loads nothing else; its libraries are imported by `run`.
mtrain/cli.py assembles the parser, dispatches and maps errors to exit codes.
"""
