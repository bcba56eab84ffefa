#!/usr/bin/env bash
# Make a Raspberry Pi (Raspberry Pi OS Bookworm Lite, Pi 4 or Pi 5) or any Debian Bookworm
# machine (a mini PC) a Mafia table: packages, a user, the app in a virtual environment, the
# pad controller's name, a service that starts the table at boot on the console.
#
# Run it again after an update: it works offline from its own wheel cache, and compiles the
# rules engine again only when the rules' source changed. In a chroot or an image build (no
# systemd running) it installs and enables everything and starts nothing. `--dry-run` lists
# every step and changes nothing.
#
#   sudo hardware/pi/install.sh [--dry-run] [--user mafia] [--data /var/lib/table-app]
#                               [--prefix /opt/table-app] [--with-voice] [--rings]
#   sudo hardware/pi/install.sh --uninstall
#
# --uninstall: the table no longer starts at boot and the console's login prompt is back;
# the service, the udev rule, the admin command and the app in --prefix go. The club's data
# (records, settings, the pairing secret, the game) stays in --data, and the user too.
#
# --rings: the pads' rings hang on the Pi's own pins (hardware/README.md, "The middle
# table"): SPI on, and on a Pi 4 its core clock held, in /boot/firmware/config.txt (a reboot
# makes it so).
set -Eeuo pipefail
export DEBIAN_FRONTEND=noninteractive PYGAME_HIDE_SUPPORT_PROMPT=1

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
user=mafia
data=/var/lib/table-app
prefix=/opt/table-app
dry=0
voice=0
rings=0
uninstall=0
usage="usage: sudo $0 [--dry-run] [--user NAME] [--data DIR] [--prefix DIR] [--with-voice] [--rings]
       sudo $0 --uninstall [--dry-run] [--prefix DIR] [--data DIR]"
value() {   # the value an option takes, or a clear error
  if (($# < 2)) || [[ -z $2 || $2 == --* ]]; then
    echo "install.sh: $1 takes a value" >&2
    echo "$usage" >&2
    exit 2
  fi
}
while (($#)); do
  case $1 in
    --dry-run) dry=1 ;;
    --user) value "$@"; user=$2; shift ;;
    --data) value "$@"; data=$2; shift ;;
    --prefix) value "$@"; prefix=$2; shift ;;
    --with-voice) voice=1 ;;
    --rings) rings=1 ;;
    --uninstall) uninstall=1 ;;
    -h|--help) echo "$usage"; exit 0 ;;
    *) echo "install.sh: unknown option $1" >&2; echo "$usage" >&2; exit 2 ;;
  esac
  shift
done

if ((!dry)) && [[ $(id -u) -ne 0 ]]; then
  echo "install.sh: run it as root: sudo $0" >&2
  exit 2
fi

# A root file system in RAM (raspi-config's "Overlay File System") forgets at the next boot
# everything this script writes: refuse, and say how to go on.
rootfs=$(findmnt -n -o FSTYPE / 2>/dev/null || true)
if [[ $rootfs == overlay || $rootfs == tmpfs ]]; then
  cat >&2 <<EOF
install.sh: the root file system is an overlay in RAM ($rootfs): what this install writes
would be gone at the next boot. Turn the overlay off first, install, then turn it on again:
  sudo raspi-config nonint disable_overlayfs && sudo reboot
  sudo $0
  sudo raspi-config nonint enable_overlayfs && sudo reboot
(see "A read-only table" in hardware/README.md: the data folder needs a partition of its own)
EOF
  exit 2
fi

# --uninstall: everything the install set up, but the club's data, undone
if ((uninstall)); then
  booted=0
  [[ -d /run/systemd/system ]] && booted=1
  k=0
  undo() {   # a numbered step: shown, and run unless this is a dry run
    k=$((k + 1))
    printf '%2d. %s\n' "$k" "$1"
    shift
    if ((!dry)); then "$@"; fi
  }
  stop_table() {
    if ((booted)); then
      systemctl stop table-app.service 2>/dev/null || true
      systemctl reset-failed table-app.service 2>/dev/null || true
    fi
    systemctl disable -q table-app.service 2>/dev/null || true
    rm -f /etc/systemd/system/table-app.service     # (a drop-in of the club's own stays)
    if ((booted)); then systemctl daemon-reload; fi
  }
  undo "stop and remove the service table-app.service" stop_table
  console() {
    systemctl unmask -q getty@tty1.service autovt@tty1.service
    if ((booted)); then systemctl start getty@tty1.service 2>/dev/null || true; fi
  }
  undo "the login prompt back on the console (getty@tty1 unmasked)" console
  undo "remove the udev rule (/dev/table-pads)" rm -f /etc/udev/rules.d/99-table-pads.rules
  undo "remove the command /usr/local/bin/table-app" rm -f /usr/local/bin/table-app
  undo "remove the app in $prefix" rm -rf "$prefix"
  echo "kept: $data (the records, the settings, the pairing secret, the game) and the user;" \
       "remove them yourself if the club has no more use for them"
  ((dry)) && echo "(dry run: nothing was changed)"
  exit 0
fi

venv=$prefix/venv
wheels=$prefix/wheels
py=$venv/bin/python
# systemd and udev are running on a booted system; not in a chroot or an image build
booted=0
[[ -d /run/systemd/system ]] && booted=1

n=0
current=""
stopped=0
failed() {
  echo "install.sh: step $n ($current) failed (exit $1); nothing after it ran. Fix what it" \
       "says above and run the install again." >&2
  if ((stopped)); then
    systemctl start table-app.service || true     # the table as it was before
  fi
}
trap 'code=$?; failed $code' ERR
step() {   # a numbered step: shown, and run unless this is a dry run
  n=$((n + 1))
  current=$1
  printf '%2d. %s\n' "$n" "$1"
  shift
  if ((!dry)); then "$@"; fi
}

# pygame from Debian: it links the system's SDL, which has the KMS/DRM console driver (the
# PyPI wheel's SDL has none). pyserial is Debian's too, and py-spidev (rings on the Pi's pins). gcc and python3-dev: the rules engine
# is compiled (mypyc); it runs interpreted without them.
packages=(python3-venv python3-dev gcc python3-pygame python3-serial fonts-dejavu-core
          alsa-utils python3-spidev)
((voice)) && packages+=(espeak-ng sox)
# lgpio: Raspberry Pi OS has it as a package; plain Debian does not, and PyPI has it
lgpio_apt=0
if apt-cache policy python3-lgpio 2>/dev/null | grep -q 'Candidate: [0-9]'; then
  packages+=(python3-lgpio)
  lgpio_apt=1
fi

apt_packages() {
  local missing=()
  for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
      missing+=("$p")
  done
  if ((${#missing[@]} == 0)); then
    echo "    all there"
    return
  fi
  apt-get update -qq
  apt-get install -y -qq -o Dpkg::Use-Pty=0 "${missing[@]}" >/dev/null
}
step "apt packages: ${packages[*]}" apt_packages

groups=(gpio spi dialout audio video render input)
add_user() {
  for g in "${groups[@]}"; do   # the unit names them all: one missing is a failed start
    getent group "$g" >/dev/null || groupadd --system "$g"
  done
  id -u "$user" >/dev/null 2>&1 ||
    useradd --system --create-home --shell /usr/sbin/nologin "$user"
  usermod -aG "$(IFS=,; echo "${groups[*]}")" "$user"
}
step "user '$user' (no login) in groups ${groups[*]}" add_user

# the app runs from a copy of the project (its sounds and pin map travel with it); the
# compiled engine of the last install comes along, and is built again only if the rules'
# source changed (setup.py compares the hashes)
copy_app() {
  # a table that runs, or restarts in a loop (is-active then says "activating"), stops
  # before its code is replaced: never started on a half-copied folder
  local state
  state=$( ((booted)) && systemctl is-active table-app.service 2>/dev/null || true)
  if [[ $state == active || $state == activating || $state == reloading ]]; then
    echo "    stopping the table for the update (a game resumes where it was)"
    systemctl stop table-app.service
    stopped=1
  fi
  install -d "$prefix"
  rm -rf "$prefix/src.new"
  cp -a "$repo" "$prefix/src.new"
  rm -rf "$prefix/src.new/.venv"    # a developer's venv (README) is not the table's
  find "$prefix/src.new" -name '*.so' -delete
  rm -f "$prefix/src.new/table_app/rules/_compiled.json"
  if [[ -f $prefix/src/table_app/rules/_compiled.json ]]; then
    cp -a "$prefix/src/table_app/rules/"*.so "$prefix/src/table_app/rules/_compiled.json" \
      "$prefix/src.new/table_app/rules/" 2>/dev/null || true
    cp -a "$prefix/src/"*__mypyc*.so "$prefix/src.new/" 2>/dev/null || true
  fi
  rm -rf "$prefix/src"
  mv "$prefix/src.new" "$prefix/src"
}
step "the app: a copy of $repo in $prefix/src" copy_app

make_venv() {
  [[ -x $py ]] || python3 -m venv --system-site-packages "$venv"
  # a pygame of the venv's own (an older install's, from PyPI) hides Debian's: it goes
  if "$py" -c 'import pygame, sys; sys.exit(0 if pygame.__file__.startswith(sys.prefix) else 1)' \
      2>/dev/null; then
    "$venv/bin/pip" uninstall -y -q pygame
  fi
}
step "a virtual environment $venv that sees the system's packages (Debian's pygame)" make_venv

# what the venv needs from PyPI: the build's and the app's requirements, less what Debian
# gives (pygame, pyserial), and lgpio where no package has it
requirements() {
  "$py" - "$prefix/src/pyproject.toml" "$lgpio_apt" > "$prefix/requirements.txt" <<'EOF'
import re
import sys
import tomllib

with open(sys.argv[1], "rb") as f:
    project = tomllib.load(f)
from_debian = {"pygame", "pyserial"}
wanted = project["build-system"]["requires"] + ["wheel"] + project["project"]["dependencies"]
if sys.argv[2] != "1":
    wanted += project["project"]["optional-dependencies"]["gpio"]
for req in wanted:
    if re.split(r"[\s<>=!~;\[]", req, maxsplit=1)[0].lower() not in from_debian:
        print(req)
EOF
}
fill_cache() {
  requirements
  install -d "$wheels"
  if "$venv/bin/pip" wheel -q --prefer-binary --retries 2 --timeout 15 \
      --wheel-dir "$wheels" -r "$prefix/requirements.txt"; then
    return
  fi
  if compgen -G "$wheels/*.whl" >/dev/null; then
    echo "    PyPI cannot be reached: installing from the cache ($(ls "$wheels" | wc -l) wheels)"
  else
    echo "install.sh: PyPI cannot be reached and the cache $wheels is empty: the first" \
         "install needs the network" >&2
    return 1
  fi
}
step "Python packages into the cache $wheels (offline: the cache as it is)" fill_cache

install_app() {
  local pip=("$venv/bin/pip" install -q --no-index --find-links "$wheels")
  "${pip[@]}" -r "$prefix/requirements.txt"
  "${pip[@]}" --no-build-isolation -e "$prefix/src"
  # its bytecode, compiled here: the table's user cannot write into $prefix/src, and
  # each start would compile every module again (about a fifth of a start)
  "$py" -m compileall -q "$prefix/src/table_app" "$prefix/src/firmware_bridge" >/dev/null
}
step "the app into the virtual environment, from the cache (the rules engine compiled if its source changed)" \
  install_app

check_screen() {
  local drivers
  drivers=$("$py" -c 'from table_app.screen.display import video_drivers
print(" ".join(video_drivers()))')
  echo "    SDL's video drivers: $drivers"
  if [[ " $drivers " != *" KMSDRM "* ]]; then
    echo "install.sh: the pygame in $venv has no KMSDRM driver: the table could not open" \
         "the console's screen. Remove that pygame ($venv/bin/pip uninstall pygame) so" \
         "Debian's python3-pygame is used, and run the install again." >&2
    return 1
  fi
}
step "the screen: the venv's pygame has SDL's KMSDRM (console) driver" check_screen

# the settings' folder too: the README's settings step writes there before anything else has
step "data folder $data (0700, owned by $user): the journal, the settings, the records" \
  install -d -m 0700 -o "$user" -g "$user" "$data" "$data/config" "$data/config/table-app"
check_data() {
  local fs
  fs=$(findmnt -n -o FSTYPE --target "$data" || true)
  if [[ $fs == overlay || $fs == tmpfs ]]; then
    echo "   WARNING: $data is on $fs: a pulled plug loses the game. Mount a persistent" \
         "partition there (see \"A read-only table\" in hardware/README.md)." >&2
  fi
}
step "check that $data survives a reboot" check_data

udev_rule() {
  install -D -m 0644 "$here/99-table-pads.rules" /etc/udev/rules.d/99-table-pads.rules
  if ((booted)) && udevadm control --reload 2>/dev/null; then
    udevadm trigger --subsystem-match=tty || true
  else
    echo "    udev is not running here (a chroot, an image, a container): the rule applies" \
         "at the next boot"
  fi
}
step "udev rule: the pad controller as /dev/table-pads" udev_rule

fill() {   # a template of this folder, its @...@ filled in
  sed -e "s#@USER@#$user#g" -e "s#@DATA@#$data#g" -e "s#@EXEC@#$venv/bin/table-app#g" \
    "$here/$1"
}
unit() {
  fill table-app.service > /etc/systemd/system/table-app.service
  # the table takes the console: no login prompt over it
  systemctl mask -q getty@tty1.service autovt@tty1.service
  systemctl enable -q table-app.service
  if ((booted)); then systemctl daemon-reload; fi
}
step "systemd unit table-app.service (starts at boot on the console, restarts on failure; no login prompt on tty1)" \
  unit
admin() {
  fill table-app.sh > /usr/local/bin/table-app.new
  chmod 0755 /usr/local/bin/table-app.new
  mv /usr/local/bin/table-app.new /usr/local/bin/table-app
}
step "command /usr/local/bin/table-app: 'sudo table-app check' and 'sudo table-app firmware install' run as '$user' with its data (stopping the table meanwhile)" \
  admin
blanking() {
  local f=/boot/firmware/cmdline.txt
  [[ -f $f ]] || f=/boot/cmdline.txt
  if [[ ! -f $f ]]; then
    echo "    no $f (not a Raspberry Pi): add consoleblank=0 to the kernel's command line" \
         "if the screen goes dark"
    return
  fi
  grep -q consoleblank=0 "$f" || sed -i '1 s/$/ consoleblank=0/' "$f"
}
step "screen blanking off on the console (consoleblank=0)" blanking
spi_on() {
  local f=/boot/firmware/config.txt
  [[ -f $f ]] || f=/boot/config.txt
  if [[ ! -f $f ]]; then
    echo "    no $f (not a Raspberry Pi): the rings on the Pi's pins need a Pi's SPI"
    return
  fi
  if grep -q '^# table-app: rings' "$f"; then
    echo "    already in $f"
    return
  fi
  # at the end, under [all]: an earlier section filter ([cm4], [pi5]) must not swallow it;
  # the Pi 4's SPI clock is divided from its core clock, which otherwise follows the load
  cat >> "$f" <<'CFG'

[all]
# table-app: rings on the Pi's pins (WS2812 over SPI0, MOSI on GPIO 10)
dtparam=spi=on
[pi4]
core_freq=500
core_freq_min=500
[all]
CFG
  echo "    written to $f: reboot once for it to take effect"
}
((rings)) && step "SPI for the rings on the Pi's pins (dtparam=spi=on; a Pi 4's core clock held at 500 MHz)" spi_on
start() {
  if ((booted)); then
    systemctl reset-failed table-app.service 2>/dev/null || true   # a start limit hit
    systemctl restart table-app.service       # an update runs at once; a game resumes
  else
    echo "    systemd is not running here: the table starts at the next boot"
  fi
}
step "start the table" start
((dry)) && echo "(dry run: nothing was changed)"
exit 0
