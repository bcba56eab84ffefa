"""The host's screen and the public view (pygame), as views of the table's state: the setup
screen (`setup`), a game's host screen (`model`, the view; `render`, its drawing) and the
public view (`public`).

Nothing is imported here: the setup screen, shown first, needs none of a game's views (they
import the table and its engine), and the table starts sooner without them."""
