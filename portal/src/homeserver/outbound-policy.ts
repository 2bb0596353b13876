import type { LookupAddress } from "node:dns";
import { BlockList, isIP, type LookupFunction } from "node:net";

/** `PORTAL_OUTBOUND_ALLOW` / `PORTAL_OUTBOUND_DENY`: IP addresses, CIDR ranges, host names and `*.domain` patterns. */
export interface OutboundRules {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
}

/**
 * Refused unless PORTAL_OUTBOUND_ALLOW names an address inside them: link-local (where cloud metadata services
 * answer), the metadata addresses outside it (AWS IPv6, Alibaba), and the same through the NAT64 prefix. A managed
 * server's admin token must never be sent there. Loopback and private ranges stay allowed: a homeserver on the LAN,
 * on the same host or in demo mode is normal.
 */
const BUILT_IN_RANGES: readonly (readonly [string, number])[] = [
  ["169.254.0.0", 16],
  ["fe80::", 10],
  ["fd00:ec2::254", 128],
  ["100.100.100.200", 32],
  ["64:ff9b::a9fe:0", 112],
  ["64:ff9b::6464:64c8", 128],
];
const BUILT_IN_NAMES = ["metadata.google.internal"];

/** A call the outbound rules refuse; `code` lets the homeserver client tell it from a network failure. */
export class OutboundRefused extends Error {
  override name = "OutboundRefused";
  readonly code = "OUTBOUND_DENIED";
}

const familyOf = (address: string) => (isIP(address) === 6 ? "ipv6" : "ipv4");
const normalName = (name: string) => name.toLowerCase().replace(/\.$/, "");

/** A valid rule entry: an IP address, a CIDR range, a host name, or `*.` followed by a host name. */
export function isOutboundEntry(entry: string): boolean {
  const [address = "", prefix, ...rest] = entry.split("/");
  const family = isIP(address);
  if (family !== 0) {
    return (
      rest.length === 0 && (prefix === undefined || (/^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128)))
    );
  }
  return /^(?:\*\.)?(?=.{1,253}$)[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9])?)*\.?$/i.test(
    entry,
  );
}

/** Address entries in one BlockList; host names (exact or `*.suffix`) in a list. */
class RuleSet {
  readonly addresses = new BlockList();
  readonly names: string[] = [];
  readonly ranges: [string, number][] = [];

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const [address = "", prefix] = entry.split("/");
      if (isIP(address) === 0) {
        this.names.push(normalName(entry));
        continue;
      }
      const bits = prefix === undefined ? (isIP(address) === 4 ? 32 : 128) : Number(prefix);
      this.addresses.addSubnet(address, bits, familyOf(address));
      this.ranges.push([address, bits]);
    }
  }

  hasAddress(address: string): boolean {
    return this.addresses.check(address, familyOf(address));
  }

  hasName(host: string): boolean {
    const name = normalName(host);
    return this.names.some((entry) => (entry.startsWith("*.") ? name.endsWith(entry.slice(1)) : name === entry));
  }
}

/**
 * Which hosts and addresses the portal may call with a managed server's credentials. Checked twice: on the
 * internal URL when a server is saved (a clear 400), and on the resolved address of every connection (the
 * homeserver agent's `lookup`), so a name that later resolves elsewhere (DNS rebinding) cannot pass.
 *
 * Order: PORTAL_OUTBOUND_DENY refuses; then the built-in ranges refuse unless an ALLOW address entry lies inside
 * them (a broad allow such as `0.0.0.0/0` does not lift them); then a non-empty ALLOW list refuses what it does not
 * name (by resolved address, or by the host name the URL used).
 */
export class OutboundPolicy {
  private readonly allow: RuleSet;
  private readonly deny: RuleSet;
  private readonly builtIn = new RuleSet([...BUILT_IN_RANGES.map(([a, bits]) => `${a}/${bits}`), ...BUILT_IN_NAMES]);
  /** ALLOW address entries inside a built-in range: the operator's explicit exceptions. */
  private readonly lifted = new BlockList();

  constructor(rules: OutboundRules = { allow: [], deny: [] }) {
    this.allow = new RuleSet(rules.allow);
    this.deny = new RuleSet(rules.deny);
    for (const [address, bits] of this.allow.ranges) {
      const inside = BUILT_IN_RANGES.some(([range, rangeBits]) => {
        if (familyOf(range) !== familyOf(address) || bits < rangeBits) return false;
        const one = new BlockList();
        one.addSubnet(range, rangeBits, familyOf(range));
        return one.check(address, familyOf(address));
      });
      if (inside) this.lifted.addSubnet(address, bits, familyOf(address));
    }
  }

  /**
   * Why a URL's host is refused before anything is resolved (an IP literal gets the full address check; a name
   * only the name rules), or undefined. For validation of saved URLs; connections are checked again.
   */
  refuseHost(hostname: string): string | undefined {
    const host = hostname.replace(/^\[|\]$/g, "");
    if (isIP(host) !== 0) return this.refuseAddress(host, undefined);
    if (this.deny.hasName(host)) return `${host} is refused by PORTAL_OUTBOUND_DENY`;
    if (this.builtIn.hasName(host) && !this.allow.hasName(host)) return `${host} is a cloud metadata address, refused by default`;
    return undefined;
  }

  /** Why a connection to `address` (reached through the URL's host name `via`, if any) is refused, or undefined. */
  refuseAddress(address: string, via: string | undefined): string | undefined {
    const shown = via === undefined ? address : `${via} (${address})`;
    if (this.deny.hasAddress(address)) return `${shown} is refused by PORTAL_OUTBOUND_DENY`;
    if (this.builtIn.hasAddress(address) && !this.lifted.check(address, familyOf(address))) {
      return `${shown} is a link-local or cloud metadata address, refused by default (PORTAL_OUTBOUND_ALLOW can name it)`;
    }
    const allowList = this.allow.names.length > 0 || this.allow.ranges.length > 0;
    if (allowList && !this.allow.hasAddress(address) && !(via !== undefined && this.allow.hasName(via))) {
      return `${shown} is not in PORTAL_OUTBOUND_ALLOW`;
    }
    return undefined;
  }

  /**
   * A `lookup` for `net.connect` that resolves with `resolve` and refuses the connection when any address it
   * got is refused: the check and the connection use the same answer.
   */
  lookup(resolve: LookupFunction): LookupFunction {
    return (hostname, options, callback) => {
      resolve(hostname, options, (error, address, family) => {
        if (error) return callback(error, address, family);
        const found: LookupAddress[] = Array.isArray(address) ? address : [{ address, family: family ?? 4 }];
        for (const entry of found) {
          const reason = this.refuseAddress(entry.address, hostname);
          if (reason) return callback(new OutboundRefused(reason) as NodeJS.ErrnoException, "", 4);
        }
        callback(null, address, family);
      });
    };
  }
}
