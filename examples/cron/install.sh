#!/bin/sh
# Installs the nightly job of this folder for cron or for systemd: siteops-nightly.sh as PREFIX/bin/siteops-nightly
# (with the absolute paths of siteops and node written in, so that it runs with cron's PATH=/usr/bin:/bin), the
# credentials file SYSCONFDIR/siteops/nightly.env (0600, created exclusively, kept if it exists), and either
# SYSCONFDIR/cron.d/siteops-nightly or the systemd service and timer (SYSCONFDIR/systemd/system).
#
#   examples/cron/install.sh --systemd --base-url https://siteops.example.com --token-stdin < token.txt
#   examples/cron/install.sh --cron --user ops --base-url https://siteops.example.com --token-stdin < token.txt
#
# Options: --cron | --systemd (one of them), --prefix DIR (/usr/local), --sysconfdir DIR (/etc), --destdir DIR
# (or DESTDIR: stage the files under DIR, as packages do; the paths written into them stay without it),
# --siteops PATH (default: `siteops` on the PATH), --user NAME (cron: who runs the job; default: you),
# --reports DIR (cron: the JSON reports, /var/log/siteops), --base-url URL, --token-stdin (the API token on
# stdin; never as an argument, which other users see in ps). Without a token the file holds commented
# placeholders, and the job falls back to `siteops auth login` of its user.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
schedule="" prefix=/usr/local sysconfdir=/etc destdir="${DESTDIR:-}" siteops="" user="" reports=/var/log/siteops
base_url="" token_stdin=""

die() {
  printf 'install.sh: %s\n' "$1" >&2
  exit 2
}
value() { # the value of option $1, which must not be empty or look like another option
  [ -n "$2" ] && [ "${2#--}" = "$2" ] || die "$1 needs a value"
}

while [ $# -gt 0 ]; do
  case $1 in
    --cron | --systemd)
      [ -z "$schedule" ] || die "give one of --cron and --systemd, not both"
      schedule=${1#--}
      ;;
    --prefix | --sysconfdir | --destdir | --siteops | --user | --reports | --base-url)
      value "$1" "${2:-}"
      case $1 in
        --prefix) prefix=$2 ;;
        --sysconfdir) sysconfdir=$2 ;;
        --destdir) destdir=$2 ;;
        --siteops) siteops=$2 ;;
        --user) user=$2 ;;
        --reports) reports=$2 ;;
        --base-url) base_url=$2 ;;
      esac
      shift
      ;;
    --token-stdin) token_stdin=1 ;;
    -h | --help)
      sed -n '2,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
      exit 0
      ;;
    *) die "unknown option $1 (see --help)" ;;
  esac
  shift
done
[ -n "$schedule" ] || die "choose how the job is started: --cron or --systemd"

# Paths written into the script, the units and the crontab: absolute, and nothing a shell or systemd would expand.
checked_path() {
  case $2 in
    /*) ;;
    *) die "$1 must be an absolute path: $2" ;;
  esac
  case $2 in
    *[!A-Za-z0-9/._+@-]*) die "$1 may hold only letters, digits and / . _ + @ -: $2" ;;
  esac
}
checked_path --prefix "$prefix"
checked_path --sysconfdir "$sysconfdir"
checked_path --reports "$reports"
[ -z "$destdir" ] || checked_path --destdir "$destdir"

if [ -z "$siteops" ]; then
  siteops=$(command -v siteops) || die "siteops is not on the PATH: install it (docs/cli.md, "Install") or give --siteops PATH"
fi
checked_path --siteops "$siteops"
[ -f "$siteops" ] && [ -x "$siteops" ] || die "--siteops: $siteops is not an executable file"
# An npm install's siteops starts with `#!/usr/bin/env node`: the job puts this node's directory first on its PATH.
node_dir=""
if node=$(command -v node); then
  node_dir=$(dirname "$node")
  checked_path "node's directory" "$node_dir"
fi
env -i HOME="${HOME:-/}" PATH="${node_dir:+$node_dir:}/usr/bin:/bin" "$siteops" --version >/dev/null 2>&1 ||
  die "$siteops --version fails with PATH=${node_dir:+$node_dir:}/usr/bin:/bin (does it need a node that is not on the PATH?)"

[ -n "$user" ] || user=$(id -un)
case $user in
  *[!A-Za-z0-9._-]* | -*) die "--user is not a user name: $user" ;;
esac
if [ -n "$base_url" ]; then
  case $base_url in
    http://* | https://*) ;;
    *) die "--base-url must start with https:// (or http://): $base_url" ;;
  esac
  case $base_url in
    *[!A-Za-z0-9:/._~%?#@+,=-]*) die "--base-url may hold only letters, digits and : / . _ ~ % ? # @ + , = -: $base_url" ;;
  esac
fi
token=""
if [ -n "$token_stdin" ]; then
  IFS= read -r token || [ -n "$token" ] || die "--token-stdin: no token on stdin"
  case $token in
    "" | *[!A-Za-z0-9_.-]*) die "--token-stdin: the token is empty or holds characters an API token does not" ;;
  esac
fi

bindir="$prefix/bin"
envdir="$sysconfdir/siteops"
envfile="$envdir/nightly.env"
umask 022
# Refused before anything is written: a token for a credentials file that exists already.
if [ -n "$token" ] && { [ -e "$destdir$envfile" ] || [ -L "$destdir$envfile" ]; }; then
  die "$envfile exists: edit it, or remove it and run again"
fi
if [ -L "$destdir$envdir" ]; then die "$destdir$envdir is a symbolic link: refusing to write the credentials there"; fi

# The script, with the paths found here in place of its defaults.
mkdir -p "$destdir$bindir"
tmp="$destdir$bindir/.siteops-nightly.$$"
trap 'rm -f "$tmp"' EXIT
SITEOPS_PATHS="SITEOPS_BIN=\"\${SITEOPS_BIN:-$siteops}\" SITEOPS_ENV_FILE=\"\${SITEOPS_ENV_FILE:-$envfile}\"${node_dir:+ PATH=\"$node_dir:\$PATH\"}" \
  awk '$0 == "SITEOPS_BIN=\"${SITEOPS_BIN:-siteops}\" SITEOPS_ENV_FILE=\"${SITEOPS_ENV_FILE:-}\"" { print ENVIRON["SITEOPS_PATHS"]; found = 1; next }
    { print } END { exit !found }' "$here/siteops-nightly.sh" >"$tmp" || die "siteops-nightly.sh has no SITEOPS_BIN line to fill in"
chmod 755 "$tmp"
mv -f "$tmp" "$destdir$bindir/siteops-nightly"
echo "installed $destdir$bindir/siteops-nightly (runs $siteops)"

# The credentials: owner-only directory and file, created exclusively (never through a symlink, never replaced).
mkdir -p "$destdir$sysconfdir"
[ -d "$destdir$envdir" ] || mkdir -m 700 "$destdir$envdir"
if [ -e "$destdir$envfile" ] || [ -L "$destdir$envfile" ]; then
  echo "kept $destdir$envfile"
else
  (
    umask 077
    set -C # O_EXCL: fails if the file appeared meanwhile, and never follows a symlink
    {
      echo "# Credentials of siteops-nightly: systemd's EnvironmentFile, read by the script itself under cron."
      if [ -n "$base_url" ]; then echo "SITEOPS_BASE_URL='$base_url'"; else echo "#SITEOPS_BASE_URL='https://siteops.example.com'"; fi
      if [ -n "$token" ]; then echo "SITEOPS_API_TOKEN='$token'"; else echo "#SITEOPS_API_TOKEN='sot_...'"; fi
    } >"$destdir$envfile"
  ) || die "could not create $envfile"
  echo "created $destdir$envfile (mode 0600)${token:+ with the token}"
fi

if [ "$schedule" = cron ]; then
  [ "$(id -u)" -ne 0 ] || chown "$user" "$destdir$envdir" "$destdir$envfile"
  mkdir -p "$destdir$reports"
  [ "$(id -u)" -ne 0 ] || chown "$user" "$destdir$reports"
  command=$bindir/siteops-nightly
  [ "$reports" = /var/log/siteops ] || command="SITEOPS_REPORT_DIR=$reports $command"
  mkdir -p "$destdir$sysconfdir/cron.d"
  line=$(grep -E '^[0-9]' "$here/crontab" | awk '{ print $1, $2, $3, $4, $5 }')
  {
    echo "# siteops-nightly (installed by examples/cron/install.sh from its crontab): snapshots and retention of"
    echo "# every site, as $user. cron mails what the job prints (only failures): set MAILTO here to choose where."
    echo "$line $user $command"
  } >"$destdir$sysconfdir/cron.d/siteops-nightly"
  echo "installed $destdir$sysconfdir/cron.d/siteops-nightly: $line as $user"
else
  unitdir="$sysconfdir/systemd/system"
  mkdir -p "$destdir$unitdir"
  sed -e "s|^ExecStart=/usr/local/bin/siteops-nightly\$|ExecStart=$bindir/siteops-nightly|" \
    -e "s|^EnvironmentFile=/etc/siteops/nightly.env\$|EnvironmentFile=$envfile|" \
    "$here/siteops-nightly.service" >"$destdir$unitdir/siteops-nightly.service"
  cp "$here/siteops-nightly.timer" "$destdir$unitdir/siteops-nightly.timer"
  chmod 644 "$destdir$unitdir/siteops-nightly.service" "$destdir$unitdir/siteops-nightly.timer"
  echo "installed $destdir$unitdir/siteops-nightly.service and .timer"
  # The unit's ProtectHome=yes and PrivateTmp=yes hide /home, /root, /run/user, /tmp and /var/tmp from the job:
  # a siteops or node there (nvm, a user's npm prefix), even behind a link elsewhere, cannot start.
  hidden=""
  for found in "siteops=$siteops" ${node:+"node=$node"}; do
    real=$(readlink -f "${found#*=}" 2>/dev/null) || real=${found#*=}
    case $real in
      /home/* | /root/* | /run/user/* | /tmp/* | /var/tmp/*) hidden="${hidden:+$hidden and }${found%%=*} ($real)" ;;
    esac
  done
  [ -z "$hidden" ] || printf '%s\n' "install.sh: warning: the systemd unit cannot run $hidden: ProtectHome=yes and PrivateTmp=yes hide /home, /root, /tmp from it; install Node.js and siteops outside them (a system Node.js, then npm install --global), or use --cron" >&2
  [ -n "$destdir" ] || echo "start it: systemctl daemon-reload && systemctl enable --now siteops-nightly.timer"
fi
