# Runs at power-up on the Pico.
import os

import padlink


def _update_asked():
    # the controller left this flag before restarting for a firmware update (padlink.UPDATE)
    try:
        os.remove(padlink.SAFE_MODE_FLAG)
        return True
    except OSError:
        return False


if _update_asked():
    print("pad controller: safe mode, ready for a firmware update")
else:
    try:
        import controller
        controller.run()
    except Exception as e:
        # a broken or half-copied install: stay at the REPL, where an install can reach it
        import sys
        sys.print_exception(e)
