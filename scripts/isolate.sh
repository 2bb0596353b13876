#!/bin/sh
# ==============================================================================
# Matter Hub: run a command inside a private network namespace
# Matter (UDP, mDNS multicast) must never leave this machine while testing or benchmarking: matter.js announces
# on every non-loopback interface. Inside the namespace only `lo` exists, multicast is routed to it and matter.js
# is pinned to it. As root this is `unshare -n`; otherwise `unshare -rn` (a user namespace maps us to root).
# Usage: sh scripts/isolate.sh <command> [args...]
# ==============================================================================
set -eu
if [ "${NETNS_ISOLATED:-}" = 1 ]; then exec "$@"; fi
[ $# -gt 0 ] || { echo "usage: isolate.sh <command> [args...]" >&2; exit 2; }
command -v unshare >/dev/null 2>&1 || { echo "isolate.sh: 'unshare' (util-linux) is required" >&2; exit 1; }
command -v ip >/dev/null 2>&1 || { echo "isolate.sh: 'ip' (iproute2) is required" >&2; exit 1; }
flag=-n
[ "$(id -u)" = 0 ] || flag=-rn
exec unshare "$flag" -- sh -c '
  ip link set lo up && ip link set lo multicast on && ip route add 224.0.0.0/4 dev lo || {
    echo "isolate.sh: could not set up loopback multicast in the private network namespace" >&2; exit 1; }
  export NETNS_ISOLATED=1 MATTER_MDNS_NETWORKINTERFACE=lo HUB_MDNS_INTERFACE=lo
  exec "$@"' isolate "$@"
