#!/bin/sh
# `sudo table-app ...` on a table Pi: the app as the table's own user, with the service's data
# folder (its settings, journal and pairing secret). The pads can only have one master, so
# `check` and `firmware` stop the running table first and start it again afterwards.
# Installed as /usr/local/bin/table-app by hardware/pi/install.sh (@...@ filled in there).
set -u
if [ "$(id -u)" -ne 0 ]; then
  exec sudo "$0" "$@"
fi
run() {
  runuser -u @USER@ -- env XDG_STATE_HOME=@DATA@ XDG_CONFIG_HOME=@DATA@/config \
    TABLE_APP_PORT=/dev/table-pads PYGAME_HIDE_SUPPORT_PROMPT=1 @EXEC@ "$@"
}
case " $* " in
  *" --dry-run "*) run "$@"; exit $? ;;          # changes nothing: the table stays up
esac
case "${1:-}" in
  check|firmware)
    was_running=0
    if systemctl is-active --quiet table-app.service; then
      was_running=1
      echo "stopping the table for a moment (table-app.service)"
      systemctl stop table-app.service
    fi
    run "$@"
    code=$?
    if [ "$was_running" -eq 1 ]; then
      echo "starting the table again"
      systemctl start table-app.service
    fi
    exit $code ;;
  *)
    run "$@" ;;
esac
