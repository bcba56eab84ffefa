#!/usr/bin/env bash
# Make a Raspberry Pi (Raspberry Pi OS Bookworm) a Mafia table: packages, a user, the app in a
# virtual environment, the pad controller's name, a service that starts the table at boot.
# Idempotent: run it again after an update. `--dry-run` lists every step and changes nothing.
#
#   sudo hardware/pi/install.sh [--dry-run] [--user mafia] [--data /var/lib/table-app]
#                               [--with-voice]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
user=mafia
data=/var/lib/table-app
prefix=/opt/table-app
dry=0
voice=0
while (($#)); do
  case $1 in
    --dry-run) dry=1 ;;
    --user) user=$2; shift ;;
    --data) data=$2; shift ;;
    --prefix) prefix=$2; shift ;;
    --with-voice) voice=1 ;;
    *) echo "install.sh: unknown option $1" >&2; exit 2 ;;
  esac
  shift
done

step() {   # a numbered step: shown, and run unless this is a dry run
  n=$((${n:-0} + 1))
  printf '%2d. %s\n' "$n" "$1"
  shift
  if ((!dry)); then "$@"; fi
}

# pygame from Debian links the system's SDL, which has the KMS/DRM console driver (the PyPI
# wheel for aarch64 may not); lgpio is Debian's (PyPI has no aarch64 wheel): so the venv
# sees the system's packages.
# gcc and python3-dev: the install compiles the rules engine (mypyc; it runs interpreted
# without them)
packages=(python3-venv python3-dev gcc python3-pygame python3-lgpio python3-serial
          python3-gpiozero fonts-dejavu-core alsa-utils)
((voice)) && packages+=(espeak-ng sox)

step "apt packages: ${packages[*]}" \
  bash -c "apt-get update -qq && apt-get install -y -qq ${packages[*]}"
step "user '$user' (no login) in groups gpio dialout audio video render input" \
  bash -c "id -u $user >/dev/null 2>&1 || useradd --system --create-home --shell /usr/sbin/nologin $user;
           for g in gpio dialout audio video render input; do getent group \$g >/dev/null && usermod -aG \$g $user; done"
# the app runs from a copy of the project (its sounds and pin map travel with it)
step "the app: a copy of $repo in $prefix/src, in a virtual environment that sees the system's packages" \
  bash -c "install -d $prefix && rm -rf $prefix/src.new && cp -a $repo $prefix/src.new &&
           rm -rf $prefix/src && mv $prefix/src.new $prefix/src &&
           python3 -m venv --system-site-packages $prefix/venv &&
           $prefix/venv/bin/pip install -q -e $prefix/src"
step "data folder $data (0700, owned by $user): the journal, the settings, the records" \
  bash -c "install -d -m 0700 -o $user -g $user $data $data/config"
step "check that $data survives a reboot (an overlay root keeps / in RAM)" \
  bash -c "fs=\$(findmnt -n -o FSTYPE --target $data || true);
           if [ \"\$fs\" = overlay ] || [ \"\$fs\" = tmpfs ]; then
             echo '   WARNING: $data is on '\$fs': a pulled plug loses the game. Mount a persistent partition there (see hardware/README.md).' >&2; fi"
step "udev rule: the pad controller as /dev/table-pads" \
  bash -c "install -m 0644 $here/99-table-pads.rules /etc/udev/rules.d/99-table-pads.rules &&
           udevadm control --reload && udevadm trigger --subsystem-match=tty"
step "systemd unit table-app.service (starts at boot on the console, restarts on failure)" \
  bash -c "sed -e 's#@USER@#$user#g' -e 's#@DATA@#$data#g' -e 's#@EXEC@#$prefix/venv/bin/table-app#g' \
             $here/table-app.service > /etc/systemd/system/table-app.service &&
           systemctl daemon-reload"
step "command /usr/local/bin/table-app: 'sudo table-app check' and 'sudo table-app firmware install' run as '$user' with its data (stopping the table meanwhile)" \
  bash -c "sed -e 's#@USER@#$user#g' -e 's#@DATA@#$data#g' -e 's#@EXEC@#$prefix/venv/bin/table-app#g' \
             $here/table-app.sh > /usr/local/bin/table-app.new &&
           chmod 0755 /usr/local/bin/table-app.new && mv /usr/local/bin/table-app.new /usr/local/bin/table-app"
step "screen blanking off on the console (consoleblank=0)" \
  bash -c "f=/boot/firmware/cmdline.txt; [ -f \$f ] || f=/boot/cmdline.txt;
           grep -q consoleblank=0 \$f || sed -i '1 s/\$/ consoleblank=0/' \$f"
step "enable and start the table" \
  bash -c "systemctl enable --now table-app.service"
((dry)) && echo "(dry run: nothing was changed)"
exit 0
