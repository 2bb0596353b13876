#!/usr/bin/env bash
# ==============================================================================
# Matter Hub add-on: starts the hub and the registration portal and supervises both.
# Inside the add-on it reads /data/options.json (with bashio when present, otherwise with node) and exports the
# runtime variables; outside it keeps the defaults and whatever the environment already sets.
# SIGTERM/SIGINT are forwarded to both servers and the script exits 0 after a clean stop. When either server
# dies on its own, the other is stopped and the script exits non-zero so the Supervisor's watchdog restarts us.
# ==============================================================================
set -euo pipefail

APP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OPTIONS_FILE=${ADDON_OPTIONS_FILE:-/data/options.json}
SUPERVISOR_API=${SUPERVISOR_API:-http://supervisor}
STOP_GRACE_SECONDS=${STOP_GRACE_SECONDS:-50}

log() { printf '[run.sh] %s\n' "$*" >&2; }

have_bashio() { [ -f /usr/lib/bashio/bashio.sh ] || command -v bashio >/dev/null 2>&1; }

USE_BASHIO=0

# option KEY: prints the add-on option's value, or nothing when it is unset or null (bashio's reader in the add-on,
# node's JSON parser elsewhere).
option() {
  if [ "$USE_BASHIO" = 1 ]; then
    if bashio::config.has_value "$1"; then bashio::config "$1"; fi
    return 0
  fi
  node -e '
    const o = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
    const v = o[process.argv[2]];
    if (v !== undefined && v !== null) process.stdout.write(String(v));
  ' "$OPTIONS_FILE" "$1"
}

# memory_mb: the memory this container may use, in MB: its cgroup limit (v2 memory.max, v1 memory.limit_in_bytes)
# when one is set and below the host's RAM, otherwise the host's RAM (MemTotal in /proc/meminfo).
memory_mb() {
  local cgroup=${HEAP_CGROUP_DIR:-/sys/fs/cgroup} meminfo=${HEAP_MEMINFO:-/proc/meminfo} limit="" total_kb
  total_kb=$(awk '/^MemTotal:/ { print $2 }' "$meminfo" 2>/dev/null || true)
  if [ -r "$cgroup/memory.max" ]; then limit=$(cat "$cgroup/memory.max")
  elif [ -r "$cgroup/memory/memory.limit_in_bytes" ]; then limit=$(cat "$cgroup/memory/memory.limit_in_bytes"); fi
  # "max" (v2) or a number beyond any real machine (v1's "unlimited") means no limit.
  case $limit in '' | max | *[!0-9]*) limit="" ;; esac
  if [ -n "$limit" ] && [ "${#limit}" -le 15 ] && { [ -z "$total_kb" ] || [ $((limit / 1024)) -lt "$total_kb" ]; }; then
    echo $((limit / 1024 / 1024))
  elif [ -n "$total_kb" ]; then
    echo $((total_kb / 1024))
  fi
}

# hub_heap_mb: the hub's V8 heap limit (--max-old-space-size) in MB: HUB_HEAP_SIZE_MB (the add-on option
# heap_size_mb) when set above 0, otherwise a quarter of memory_mb, at least 256 and at most 1536 (DOCS.md,
# option heap_size_mb): below 2 GB V8 lets the heap grow to at most twice what is alive between major collections,
# from 2 GB on four times. Nothing when the memory cannot be read: Node then picks its own limit.
hub_heap_mb() {
  local set=${HUB_HEAP_SIZE_MB:-} memory
  case $set in *[!0-9]*) log "ignoring heap_size_mb \"$set\": not a number of MB"; set="" ;; esac
  if [ -n "$set" ] && [ "$set" != 0 ]; then echo "$set"; return; fi
  memory=$(memory_mb)
  [ -n "$memory" ] || return 0
  local heap=$((memory / 4))
  [ "$heap" -lt 256 ] && heap=256
  [ "$heap" -gt 1536 ] && heap=1536
  echo "$heap"
}

# Asks the Supervisor for one field of this add-on's info (used when bashio is not available).
supervisor_addon_info() {
  SUPERVISOR_API=$SUPERVISOR_API node -e '
    fetch(process.env.SUPERVISOR_API + "/addons/self/info", { headers: { Authorization: "Bearer " + process.env.SUPERVISOR_TOKEN } })
      .then((r) => r.json()).then((j) => { const v = j.data?.[process.argv[1]]; if (v != null) process.stdout.write(typeof v === "object" ? JSON.stringify(v) : String(v)); })
      .catch(() => process.exit(1));
  ' "$1"
}

# network_port JSON KEY: the host port mapped for KEY (e.g. 8483/tcp) in the add-on info's `network`, or nothing.
network_port() {
  printf '%s' "$1" | node -e '
    let s = "";
    process.stdin.on("data", (d) => (s += d)).on("end", () => {
      try { const n = JSON.parse(s)[process.argv[1]]; if (n) process.stdout.write(String(n)); } catch {}
    });
  ' "$2" || true
}

if [ -f "$OPTIONS_FILE" ] && [ -n "${SUPERVISOR_TOKEN:-}" ]; then
  log "add-on mode: reading $OPTIONS_FILE"
  if have_bashio && [ "$SUPERVISOR_API" = http://supervisor ]; then
    # shellcheck disable=SC1091
    source /usr/lib/bashio/bashio.sh
    USE_BASHIO=1
    ingress_port=$(bashio::addon.ingress_port)
    portal_port=$(bashio::addon.port "8483/tcp" || true)
    lan_port=$(bashio::addon.port "8484/tcp" || true)
  else
    ingress_port=$(supervisor_addon_info ingress_port)
    network=$(supervisor_addon_info network || true)
    portal_port=$(network_port "$network" 8483/tcp)
    lan_port=$(network_port "$network" 8484/tcp)
  fi
  export HA_URL=$SUPERVISOR_API/core
  export HA_TOKEN=$SUPERVISOR_TOKEN
  export HUB_PORT=${ingress_port:-8482}
  data_root=$(dirname "$OPTIONS_FILE")
  export HUB_DATA_DIR=$data_root/hub PORTAL_DATA_DIR=$data_root/portal
  # The ingress port is on the host network: only the Supervisor's proxy and our own health check may use it.
  export HUB_ALLOWED_IPS=172.30.32.2,127.0.0.1,::1
  level=$(option log_level); export HUB_LOG_LEVEL=${level:-info} PORTAL_LOG_LEVEL=${level:-info}
  # The add-on's config folder (`map: addon_config`, /addon_configs/<repository>_matter_hub on the host): each server
  # keeps its log of this run and the previous one there, readable after a restart the Log tab no longer shows.
  addon_config=${ADDON_CONFIG_DIR:-/config}
  if [ -d "$addon_config" ] && [ -w "$addon_config" ]; then
    export HUB_LOG_FILE=$addon_config/logs/hub.log PORTAL_LOG_FILE=$addon_config/logs/portal.log
  fi
  export HUB_AUTH_USERNAME=$(option hub_username) HUB_AUTH_PASSWORD=$(option hub_password)
  export HUB_MDNS_INTERFACE=$(option mdns_interface)
  HUB_HEAP_SIZE_MB=$(option heap_size_mb)
  export PORTAL_ADMIN_EMAIL=$(option portal_admin_email) PORTAL_ADMIN_PASSWORD=$(option portal_admin_password)
  export PORTAL_METRICS_TOKEN=$(option portal_metrics_token)
  export PORTAL_PORT=${portal_port:-8483}
  # The hub's LAN port (Network 8484/tcp, off by default) for scripts and Prometheus: no allow-list there, so the hub
  # opens it only with hub_username/hub_password set, and logs why not otherwise.
  if [ -n "${lan_port:-}" ] && [ "$lan_port" != null ]; then export HUB_LAN_PORT=$lan_port; else unset HUB_LAN_PORT; fi
  [ "$(option portal_enabled)" = "true" ] && PORTAL_ENABLED=1 || PORTAL_ENABLED=0
  unset HUB_DEMO PORTAL_DEMO
  # The container's HEALTHCHECK reads the ingress port from here (it is chosen by the Supervisor).
  echo "$HUB_PORT" > "${HUB_PORT_FILE:-/tmp/matter-hub.port}"
else
  PORTAL_ENABLED=${PORTAL_ENABLED:-1}
fi

HUB_HEAP_MB=$(hub_heap_mb)
# `run.sh --heap-limit-mb` prints the limit the hub would get and exits (tests, and a way to check a host).
if [ "${1:-}" = --heap-limit-mb ]; then echo "${HUB_HEAP_MB:-}"; exit 0; fi

HUB_DATA_DIR=${HUB_DATA_DIR:-./data/hub}
mkdir -p "$HUB_DATA_DIR"
# Only this container runs the hub, so matter.js locks left by a killed process are stale: remove them, or the
# storage would refuse to open after a crash or a power cut.
find "$HUB_DATA_DIR" \( -name matter.lock -o -name matter.pid \) -type f -print -delete 2>/dev/null |
  while read -r stale; do log "removed stale lock $stale"; done

# Compiled JavaScript in the image (NODE_ENV=production, `npm run build:server`), TypeScript through tsx otherwise,
# so a developer's stale dist/ never shadows the sources. The hub gets its heap limit (the portal keeps Node's).
server_command() {
  local heap=""
  if [ "$1" = hub ] && [ -n "${HUB_HEAP_MB:-}" ]; then heap=--max-old-space-size=$HUB_HEAP_MB; fi
  if [ "${NODE_ENV:-}" = production ] && [ -f "$APP_DIR/dist/server/$1/src/main.js" ]; then
    echo node $heap "$APP_DIR/dist/server/$1/src/main.js"
  else
    echo node $heap --import tsx "$APP_DIR/$1/src/main.ts"
  fi
}

declare -A names=()
pids=()
# Each server gets only its own secrets: the hub never sees the portal's admin password or key, the portal never
# sees the HA token, the Supervisor token or the hub's login (docs/SECURITY.md).
secrets_of_other() {
  case $1 in
    hub) echo -u PORTAL_ADMIN_PASSWORD -u PORTAL_SECRET_KEY -u PORTAL_METRICS_TOKEN ;;
    portal) echo -u HA_TOKEN -u SUPERVISOR_TOKEN -u HUB_AUTH_USERNAME -u HUB_AUTH_PASSWORD ;;
  esac
}

start_server() {
  # shellcheck disable=SC2046
  env $(secrets_of_other "$1") $(server_command "$1") &
  pids+=($!)
  names[$!]=$1
  log "started $1 (pid $!)"
}

stopping=0
stop_all() {
  local pid
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  # A server that ignores SIGTERM gets SIGKILL before the Supervisor's own timeout does it to all of us.
  # It ends by itself as soon as every server is gone, and holds none of our output streams open.
  (
    deadline=$((SECONDS + STOP_GRACE_SECONDS))
    while [ "$SECONDS" -lt "$deadline" ]; do
      alive=0
      for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && alive=1; done
      [ "$alive" = 0 ] && exit 0
      sleep 0.2
    done
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
  ) </dev/null >/dev/null 2>&1 &
}
on_signal() {
  [ "$stopping" = 1 ] && return
  stopping=1
  log "received $1, stopping servers"
  stop_all
}
trap 'on_signal SIGTERM' TERM
trap 'on_signal SIGINT' INT

if [ -n "${HUB_HEAP_MB:-}" ]; then log "hub heap limit: $HUB_HEAP_MB MB"; fi
start_server hub
[ "$PORTAL_ENABLED" = 1 ] && start_server portal

failed=0
while :; do
  running=()
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && running+=("$pid"); done
  [ ${#running[@]} -eq 0 ] && break
  status=0
  exited=
  wait -n -p exited "${running[@]}" || status=$?
  if [ -z "${exited:-}" ]; then continue; fi # interrupted by a signal: the trap has run, keep waiting
  if [ "$stopping" = 0 ]; then
    log "${names[$exited]} exited unexpectedly (status $status); stopping the rest"
    failed=$(( status == 0 ? 1 : status ))
    stopping=1
    stop_all
  elif [ "$status" -ne 0 ] && [ "$failed" = 0 ]; then
    log "${names[$exited]} exited with status $status while stopping"
    failed=$status
  fi
done
if [ "$failed" != 0 ]; then exit "$failed"; fi
log "stopped cleanly"
exit 0
