"""Limits that more than one part of the table keeps alike."""

#: the longest player's name, wherever one is typed: on the setup screen (which says so as
#: a letter past it is refused) and in `table-app records rename` and `attribute`
NAME_LIMIT = 30
#: the width of every name column in the records' schema (a league's PostgreSQL refuses a
#: longer value, and the sync stopped there): a name is never stored longer
NAME_COLUMN = 80

assert NAME_LIMIT <= NAME_COLUMN
