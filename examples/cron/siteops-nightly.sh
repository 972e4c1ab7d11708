#!/bin/sh
# Nightly snapshot job for every site, then retention: the same script for cron, the systemd timer and the
# Kubernetes CronJob in this folder (install.sh installs it for cron or systemd). Credentials come from the
# environment (SITEOPS_BASE_URL and SITEOPS_API_TOKEN), the env file install.sh wrote, or `siteops auth login`
# run once as the job's user.
#
# Exit status: the snapshot run's (0 all done, 1 some site failed, 3 credentials refused, 4 timed out,
# 75 another run still active, 130 stopped), else the prune's. Only failures are printed (--quiet), so cron
# mails and journal entries appear only when something needs attention; the JSON reports hold every site.
#
# To hear about a night that failed or never finished (docs/guides/nightly-snapshots.md, "Telling someone"), set in the job's
# environment (kept out of `ps`): SITEOPS_PING_URL (a healthchecks.io check: /start, then success or /fail)
# and SITEOPS_NOTIFY_URL (a webhook; add --notify-format slack for Slack), and/or add to the create line
#   --metrics-file /var/lib/node_exporter/textfile_collector/siteops-snapshot-create.prom
# (alert rule: examples/prometheus/siteops-job-alerts.yml). Prune pings only SITEOPS_PRUNE_PING_URL, if set.
set -u

# install.sh writes, in the installed copy, the siteops it found, the file with the credentials and node's
# directory (cron runs jobs with PATH=/usr/bin:/bin). Credentials already in the environment win over the file.
SITEOPS_BIN="${SITEOPS_BIN:-siteops}" SITEOPS_ENV_FILE="${SITEOPS_ENV_FILE:-}"
if [ -z "${SITEOPS_API_TOKEN:-}" ] && [ -n "$SITEOPS_ENV_FILE" ] && [ -r "$SITEOPS_ENV_FILE" ]; then
  set -a && . "$SITEOPS_ENV_FILE" && set +a
fi
siteops() { command "$SITEOPS_BIN" "$@"; } # command: the program, never this function

REPORTS="${SITEOPS_REPORT_DIR:-/var/log/siteops}"
mkdir -p "$REPORTS"
# The job's state (what a rerun adopts) lives in XDG_STATE_HOME, else ~/.local/state; with neither (an
# environment emptier than cron's, which sets HOME), beside the reports.
if [ -z "${XDG_STATE_HOME:-}" ] && [ -z "${HOME:-}" ]; then export XDG_STATE_HOME="$REPORTS/state"; fi

siteops snapshot create --all --trigger scheduled \
  --concurrency "${SITEOPS_CONCURRENCY:-8}" --timeout "${SITEOPS_TIMEOUT:-2h}" \
  --quiet --report "$REPORTS/snapshots.json"
created=$?

case $created in
  0 | 1 | 4) ;; # some or all snapshots done: prune still keeps every site's newest completed one
  *) exit "$created" ;; # not logged in, bad flags, locked by another run, interrupted: leave the rest alone
esac

SITEOPS_PING_URL="${SITEOPS_PRUNE_PING_URL:-}" siteops snapshot prune --all --keep-daily "${SITEOPS_KEEP_DAILY:-7}" --keep-weekly "${SITEOPS_KEEP_WEEKLY:-5}" \
  --keep-monthly "${SITEOPS_KEEP_MONTHLY:-12}" --quiet --report "$REPORTS/prune.json"
pruned=$?

[ "$created" -ne 0 ] && exit "$created"
exit "$pruned"
