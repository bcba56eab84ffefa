"""`python -m table_app.bench`, the name the guide gives the benchmarks: runs them
(table_app/tools/bench.py)."""

from __future__ import annotations

from .tools.bench import main

if __name__ == "__main__":
    main()
