# Shared by infra/* scripts. Every function is idempotent: it checks before it acts, so running a script twice is safe.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DATA="${DEBUGRL_DATA_DIR:-$ROOT/.data}"
LOGS="$DATA/logs"
VENV="$ROOT/.venv"
mkdir -p "$LOGS"

# Service addresses. They must agree with common/config.ts defaults; override both through the same variables.
TEMPORAL_ADDRESS="${DEBUGRL_TEMPORAL_ADDRESS:-127.0.0.1:7233}"
TEMPORAL_UI_PORT="${DEBUGRL_TEMPORAL_UI_PORT:-8233}"
KAFKA_PORT="${DEBUGRL_KAFKA_PORT:-9092}"
KAFKA_CONTROLLER_PORT="${DEBUGRL_KAFKA_CONTROLLER_PORT:-9093}"
# 5433, not 5432: Debian's postgresql package may start its own cluster on 5432, and ours must not collide with it.
PG_PORT="${DEBUGRL_PG_PORT:-5433}"
EMBEDDED_PORT="${DEBUGRL_EMBEDDED_PORT:-8765}"

log() { printf '[infra] %s\n' "$*" >&2; }
die() { printf '[infra] error: %s\n' "$*" >&2; exit 1; }

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_for NAME PORT SECONDS LOGFILE
wait_for() {
  local name=$1 port=$2 secs=$3 logfile=$4 i
  for ((i = 0; i < secs * 4; i++)); do
    port_open "$port" && return 0
    sleep 0.25
  done
  log "$name did not open port $port within ${secs}s; last lines of $logfile:"
  tail -n 30 "$logfile" >&2 || true
  return 1
}

# pid_alive PIDFILE
pid_alive() { [[ -f $1 ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

PG_BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)"

# Postgres refuses to run as root, so the server runs as the Debian `postgres` user. Its data folder lives in our data
# folder when that user can reach it; a clone under a private home folder cannot, so it then falls back to a folder
# keyed by this checkout's path under the postgres user's own home.
pg_data_dir() {
  if runuser -u postgres -- test -x "$DATA" 2>/dev/null; then
    echo "$DATA/postgres"
  else
    echo "/var/lib/postgresql/debugrl-$(printf '%s' "$ROOT" | sha1sum | cut -c1-12)"
  fi
}
