"""The club's admin commands: `table-app check` (the table's self-test from a terminal) and
`table-app firmware install` (the pad controller's firmware onto a Pico). The app reaches
them only through the `table-app` command's subcommands (the check screen runs the self-test
itself, table_app/check.py)."""
