import sys

try:
    from .cli import main

    sys.exit(main())
except KeyboardInterrupt:          # Ctrl-C while starting up: a quiet stop, nothing lost
    print("table-app: stopped", file=sys.stderr)
    sys.exit(130)
