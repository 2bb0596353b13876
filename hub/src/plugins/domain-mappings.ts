/**
 * Plugin domain mappings of one bridge (docs/plugins.md "Domain mappings"). Only domains the hub does not handle
 * may be mapped; when several plugins map the same domain the last registration wins and a warning is logged.
 * Removing a plugin's mappings (disable, trip, uninstall) brings back the latest remaining registration.
 */
import type { Logger } from "../../../lib/logger.ts";
import { DOMAIN_TABLE } from "../matter/devices/domain-table.ts";
import type { DeviceTypeKey } from "../matter/model/contract.ts";
import { isPluginDeviceType } from "../matter/plugin-devices/device-types.ts";
import type { PluginDomainMapping } from "./api.ts";

interface Registration {
  plugin: string;
  domain: string;
  type: DeviceTypeKey;
}

const DOMAIN = /^[a-z0-9_]+$/;

export class DomainMappings {
  #registrations: Registration[] = [];

  constructor(private readonly log: Logger) {}

  /** The device type for `domain`: the latest registration. */
  get(domain: string): DeviceTypeKey | undefined {
    for (let i = this.#registrations.length - 1; i >= 0; i--) {
      const registration = this.#registrations[i];
      if (registration?.domain === domain) return registration.type;
    }
    return undefined;
  }

  /** Every current mapping with the plugin that owns it. */
  list(): { domain: string; matterDeviceType: DeviceTypeKey; plugin: string }[] {
    const domains = new Set(this.#registrations.map((r) => r.domain));
    return [...domains].sort().map((domain) => {
      const winner = [...this.#registrations].reverse().find((r) => r.domain === domain)!;
      return { domain, matterDeviceType: winner.type, plugin: winner.plugin };
    });
  }

  /** Validates and records a mapping; throws a readable error for a bad one. Returns true when the result changed. */
  register(plugin: string, mapping: PluginDomainMapping): boolean {
    const { domain, matterDeviceType } = mapping ?? ({} as PluginDomainMapping);
    if (typeof domain !== "string" || !DOMAIN.test(domain)) throw new TypeError(`invalid domain ${JSON.stringify(domain)}`);
    if (!isPluginDeviceType(matterDeviceType)) {
      throw new TypeError(`matterDeviceType ${JSON.stringify(matterDeviceType)} is not a device type key`);
    }
    if (Object.hasOwn(DOMAIN_TABLE, domain)) {
      this.log.warn({ plugin, domain }, `plugin ${plugin} maps domain ${domain}, which the hub handles itself: mapping ignored`);
      return false;
    }
    const previous = [...this.#registrations].reverse().find((r) => r.domain === domain);
    if (previous && previous.plugin !== plugin) {
      this.log.warn(
        { plugin, domain, previous: previous.plugin },
        `domain ${domain}: plugin ${plugin}'s mapping (${matterDeviceType}) replaces plugin ${previous.plugin}'s (${previous.type}); the last registration wins`,
      );
    }
    const before = this.get(domain);
    this.#registrations = this.#registrations.filter((r) => !(r.plugin === plugin && r.domain === domain));
    this.#registrations.push({ plugin, domain, type: matterDeviceType });
    return before !== matterDeviceType;
  }

  /** Drops a plugin's mappings; returns the domains whose result changed. */
  drop(plugin: string): string[] {
    const domains = [...new Set(this.#registrations.filter((r) => r.plugin === plugin).map((r) => r.domain))];
    const before = new Map(domains.map((domain) => [domain, this.get(domain)]));
    this.#registrations = this.#registrations.filter((r) => r.plugin !== plugin);
    return domains.filter((domain) => this.get(domain) !== before.get(domain));
  }
}
