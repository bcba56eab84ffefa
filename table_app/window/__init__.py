"""The table on the Pi's screen: its window's loops, its opening, its play."""
