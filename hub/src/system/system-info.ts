import {
  arch,
  cpus,
  freemem,
  hostname,
  type NetworkInterfaceInfo,
  networkInterfaces,
  platform,
  release,
  totalmem,
  uptime,
} from "node:os";
import { type StorageUsage, storageUsage } from "./storage-usage.ts";

export interface SystemInfoOptions {
  /** The hub's data folder (HUB_DATA_DIR). */
  dataDir: string;
  /** HUB_MDNS_INTERFACE: the one interface Matter announces on; all non-internal ones when unset. */
  mdnsInterface: string | undefined;
}

export type AddressScope = "loopback" | "link-local" | "unique-local" | "private" | "global";

export interface InterfaceAddress {
  address: string;
  family: "IPv4" | "IPv6";
  cidr: string | null;
  internal: boolean;
  scope: AddressScope;
  /** IPv6 zone index (non-zero for link-local addresses). */
  scopeId?: number;
  /** Whether Matter (mDNS) would announce this address. */
  advertised: boolean;
}

export interface NetworkInterfaceReport {
  name: string;
  mac: string;
  internal: boolean;
  /** True when at least one of its addresses is advertised. */
  advertised: boolean;
  addresses: InterfaceAddress[];
}

/** The body of `GET /api/system/info`. */
export interface SystemInfo {
  hostname: string;
  platform: NodeJS.Platform;
  arch: string;
  release: string;
  nodeVersion: string;
  cpus: { count: number; model: string | null };
  uptime: { system: number; process: number };
  memory: { total: number; free: number; processRss: number };
  network: {
    mdnsInterface: string | null;
    /** False when HUB_MDNS_INTERFACE names an interface this host does not have: nothing would be announced. */
    mdnsInterfaceFound: boolean;
    interfaces: NetworkInterfaceReport[];
  };
  storage: StorageUsage;
  timestamp: string;
}

function scopeOf(info: NetworkInterfaceInfo): AddressScope {
  if (info.internal) return "loopback";
  const address = info.address.toLowerCase();
  if (info.family === "IPv4") {
    if (address.startsWith("169.254.")) return "link-local";
    if (/^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.)/.test(address)) return "private";
    return "global";
  }
  if (/^fe[89ab]/.test(address)) return "link-local";
  if (/^f[cd]/.test(address)) return "unique-local";
  return "global";
}

/** The host's interfaces, with the addresses Matter would announce: non-internal, on the mDNS interface if one is set. */
export function describeInterfaces(
  interfaces: NodeJS.Dict<NetworkInterfaceInfo[]>,
  mdnsInterface: string | undefined,
): NetworkInterfaceReport[] {
  return Object.entries(interfaces)
    .map(([name, infos = []]) => {
      const addresses = infos.map((info): InterfaceAddress => {
        const advertised = !info.internal && (mdnsInterface === undefined || name === mdnsInterface);
        return {
          address: info.address,
          family: info.family,
          cidr: info.cidr,
          internal: info.internal,
          scope: scopeOf(info),
          ...(info.family === "IPv6" ? { scopeId: info.scopeid } : {}),
          advertised,
        };
      });
      return {
        name,
        mac: infos[0]?.mac ?? "00:00:00:00:00:00",
        internal: infos.length > 0 && infos.every((info) => info.internal),
        advertised: addresses.some((address) => address.advertised),
        addresses,
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** Collects everything `/api/system/info` reports; the storage walk is the only slow part. */
export async function collectSystemInfo(options: SystemInfoOptions): Promise<SystemInfo> {
  const processors = cpus();
  const interfaces = networkInterfaces();
  return {
    hostname: hostname(),
    platform: platform(),
    arch: arch(),
    release: release(),
    nodeVersion: process.version,
    cpus: { count: processors.length, model: processors[0]?.model.trim() || null },
    uptime: { system: Math.round(uptime()), process: Math.round(process.uptime()) },
    memory: { total: totalmem(), free: freemem(), processRss: process.memoryUsage.rss() },
    network: {
      mdnsInterface: options.mdnsInterface ?? null,
      mdnsInterfaceFound: options.mdnsInterface === undefined || options.mdnsInterface in interfaces,
      interfaces: describeInterfaces(interfaces, options.mdnsInterface),
    },
    storage: await storageUsage(options.dataDir),
    timestamp: new Date().toISOString(),
  };
}
