#!/bin/sh
# ==============================================================================
# Matter Hub interop: the test network, set up inside the private network and mount namespaces that
# scripts/interop.mjs enters (nothing here reaches the host's network or files).
# The reference SDK's controller uses minimal mDNS on interfaces that are up, multicast-capable and not loopback
# (docs/INTEROP.md), so loopback alone is not enough: a veth pair gives the controller and the bridges a link of
# their own, with IPv6 ULA and IPv4 addresses. The SDK also writes /data/chip_*.ini: a private folder is
# bind-mounted over /data for this run only.
# Usage (inside the namespaces): sh hub/test/interop/netns.sh <command> [args...]
# ==============================================================================
set -eu
: "${INTEROP_WORK:?INTEROP_WORK must name this run's scratch folder}"
mount --make-rprivate / 2>/dev/null || true
mkdir -p "$INTEROP_WORK/data"
mount --bind "$INTEROP_WORK/data" /data

ip link set lo up
ip link set lo multicast on
ip route add 224.0.0.0/4 dev lo 2>/dev/null || true
ip link add veth-ctl type veth peer name veth-hub
ip -6 addr add fd00:0:1:1::1/64 dev veth-ctl nodad
ip -6 addr add fd00:0:1:1::2/64 dev veth-hub nodad
ip addr add 10.213.0.1/24 dev veth-ctl
ip addr add 10.213.0.2/24 dev veth-hub
ip link set veth-ctl up
ip link set veth-hub up
# Link-local addresses are needed by mDNS over IPv6: wait until duplicate address detection is done.
i=0
while ip -6 addr show tentative | grep -q inet6 && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done

export NETNS_ISOLATED=1 NETNS_TEST_LINKS=veth-hub,veth-ctl
export INTEROP_HUB_INTERFACE=veth-hub INTEROP_HUB_ADDRESS=fd00:0:1:1::2 INTEROP_HUB_ADDRESS4=10.213.0.2
export HUB_MDNS_INTERFACE=veth-hub MATTER_MDNS_NETWORKINTERFACE=veth-hub
exec "$@"
