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
  # changes nothing, or only prints its help: the table stays up
  *" --dry-run "*|*" --help "*|*" -h "*) run "$@"; exit $? ;;
esac
# `records protocol ID --out PATH`: the sheet is written as the table's user, who may not
# write where the caller asks (his home): it is made in a folder of the table's user's and
# then put at PATH as the caller, owned by him
if [ "${1:-}" = records ] && [ "${2:-}" = protocol ]; then
  out=""
  prev=""
  for a in "$@"; do
    [ "$prev" = --out ] && out=$a
    case $a in --out=*) out=${a#--out=} ;; esac
    prev=$a
  done
  if [ -n "$out" ]; then
    tmp=$(mktemp -d)
    chown @USER@ "$tmp"
    n=$#
    skip=0
    for a in "$@"; do          # the same words, --out's path the folder's
      if [ "$skip" -eq 1 ]; then
        set -- "$@" "$tmp/sheet.pdf"
        skip=0
      elif [ "$a" = --out ]; then
        set -- "$@" "$a"
        skip=1
      else
        case $a in
          --out=*) set -- "$@" "--out=$tmp/sheet.pdf" ;;
          *) set -- "$@" "$a" ;;
        esac
      fi
    done
    shift "$n"
    run "$@" > "$tmp/said"
    code=$?
    if [ "$code" -eq 0 ] && [ -f "$tmp/sheet.pdf" ]; then
      owner=${SUDO_USER:-root}
      if install -m 0644 -o "$owner" "$tmp/sheet.pdf" "$out" 2>/dev/null; then
        sed "s#$tmp/sheet.pdf#$out#g" "$tmp/said"
      else
        echo "table-app: cannot write $out: give a path its owner ($owner) may write" >&2
        code=2
      fi
    else
      cat "$tmp/said"
    fi
    rm -rf "$tmp"
    exit "$code"
  fi
fi
# `records import FILE`: the table's user may not read the caller's file (his home): it is
# read as the caller and handed to the app from a folder of the table's user's
if [ "${1:-}" = records ] && [ "${2:-}" = import ] && [ $# -eq 3 ] && [ -f "$3" ]; then
  tmp=$(mktemp -d)
  if ! cp "$3" "$tmp/games.json"; then
    rm -rf "$tmp"
    echo "table-app: cannot read $3" >&2
    exit 2
  fi
  chown -R @USER@ "$tmp"
  run records import "$tmp/games.json" 2> "$tmp/err"
  code=$?
  sed "s#$tmp/games.json#$3#g" "$tmp/err" >&2
  rm -rf "$tmp"
  exit "$code"
fi
case "${1:-}" in
  check|firmware)
    if [ "${1:-}" = firmware ] && [ "${2:-}" = install ] && \
        ! ls /dev/table-pads* >/dev/null 2>&1; then
      run "$@"                 # no controller plugged in: it says so, the table stays up
      exit $?
    fi
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
      # (the admin's own starts do not count towards the unit's limit on a restart loop)
      systemctl reset-failed table-app.service 2>/dev/null
      systemctl start table-app.service
    fi
    exit $code ;;
  *)
    run "$@" ;;
esac
