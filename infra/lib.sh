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
# Exported so that every node process these scripts start (migrations, topics, workers, checks) talks to the same
# stack: a second stack on other ports and another data folder needs only the DEBUGRL_*_PORT variables and
# DEBUGRL_DATA_DIR (common/config.ts derives the same defaults from them).
export DEBUGRL_DATA_DIR="$DATA" DEBUGRL_TEMPORAL_ADDRESS="$TEMPORAL_ADDRESS" DEBUGRL_TEMPORAL_UI_PORT="$TEMPORAL_UI_PORT"
export DEBUGRL_KAFKA_BROKERS="${DEBUGRL_KAFKA_BROKERS:-127.0.0.1:$KAFKA_PORT}"
export DEBUGRL_DATABASE_URL="${DEBUGRL_DATABASE_URL:-postgres://debugrl:debugrl@127.0.0.1:$PG_PORT/debugrl}"
export DEBUGRL_EMBEDDED_URL="${DEBUGRL_EMBEDDED_URL:-http://127.0.0.1:$EMBEDDED_PORT/v1}"

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
    # Keyed by the checkout for the default data folder (as it always was), by the data folder for any other, so a
    # second stack never shares (or stops) the first one's cluster.
    local key=$ROOT
    [[ $DATA == "$ROOT/.data" ]] || key=$DATA
    echo "/var/lib/postgresql/debugrl-$(printf '%s' "$key" | sha1sum | cut -c1-12)"
  fi
}

# --- Supervised workers (infra/supervise) --------------------------------------------------------------------------
# start_supervised NAME READY_PATTERN COMMAND...: starts COMMAND under infra/supervise, detached in its own session,
# unless its supervisor already runs; then waits up to 60 s for READY_PATTERN to appear in the part of
# $LOGS/worker-NAME.log written by this start. Idempotent.
start_supervised() {
  local name=$1 ready=$2 i size
  shift 2
  local sup="$DATA/supervisor-$name.pid" log_file="$LOGS/worker-$name.log"
  if pid_alive "$sup"; then
    log "$name already supervised (supervisor pid $(cat "$sup"), worker pid $(cat "$DATA/worker-$name.pid" 2>/dev/null || echo -))"
    return 0
  fi
  # A worker from an unsupervised start (or whose supervisor got SIGKILL) is left alone; --restart replaces it.
  if pid_alive "$DATA/worker-$name.pid"; then
    log "$name runs unsupervised (pid $(cat "$DATA/worker-$name.pid")); infra/workers --restart puts it under infra/supervise"
    return 0
  fi
  size=$(stat -c %s "$log_file" 2>/dev/null || echo 0)
  log "starting $name under infra/supervise (log $log_file, restarts in $LOGS/supervisor-$name.log)"
  nohup setsid "$ROOT/infra/supervise" "$name" "$@" >>"$LOGS/supervisor-$name.log" 2>&1 </dev/null &
  for ((i = 0; i < 240; i++)); do
    tail -c +"$((size + 1))" "$log_file" 2>/dev/null | grep -q -- "$ready" && return 0
    sleep 0.25
  done
  tail -n 30 "$log_file" >&2 || true
  die "$name did not log '$ready' within 60 s"
}

# stop_pid_group NAME PIDFILE: SIGTERM the process group led by the pid in PIDFILE (or the pid alone when it leads
# none), SIGKILL after 20 s, remove PIDFILE.
stop_pid_group() {
  local name=$1 pidfile=$2 i
  if pid_alive "$pidfile"; then
    log "stopping $name"
    kill -TERM -- "-$(cat "$pidfile")" 2>/dev/null || kill -TERM "$(cat "$pidfile")" 2>/dev/null || true
    for ((i = 0; i < 80; i++)); do pid_alive "$pidfile" || break; sleep 0.25; done
    if pid_alive "$pidfile"; then
      kill -KILL -- "-$(cat "$pidfile")" 2>/dev/null || kill -KILL "$(cat "$pidfile")" 2>/dev/null || true
    fi
  fi
  rm -f "$pidfile"
}

# stop_supervised NAME: stops the supervisor and its worker (the worker gets SIGTERM and drains first).
stop_supervised() {
  local name=$1
  stop_pid_group "supervisor-$name" "$DATA/supervisor-$name.pid"
  stop_pid_group "worker-$name" "$DATA/worker-$name.pid"
  rm -f "$DATA/worker-$name.state"
}
