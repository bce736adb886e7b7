"""Run the command line with ``python -m mtrain``."""

try:
    from mtrain.cli import main
except KeyboardInterrupt:  # Ctrl-C while it starts: one line, as main says it, no traceback
    import sys

    print("mtrain: interrupted", file=sys.stderr)
    raise SystemExit(130) from None

raise SystemExit(main())
