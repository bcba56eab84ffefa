"""The developers' tools, none of which the table runs: the benchmarks (`bench`, with its
measured paths in `bench_path` and `bench_pico`), `observe` (a game script played at a
virtual table, printed as the room perceives it), `simulate` (many bot games, each side's
win rate), and the pad controller without a Pico (`picosim`: the real firmware in the unix
port of MicroPython; `emulator`: MicroPython's rp2 build on an emulated RP2040). The app
reaches them only through the `table-app` command's subcommands."""
