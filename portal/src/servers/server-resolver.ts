import { HttpError } from "../../../lib/http-error.ts";
import type { ServerRow, ServersRepository } from "./servers.repository.ts";

/** Which server a public request means: any one of these, by priority serverId → slug → domain → default. */
export interface ServerSelector {
  serverId?: string | undefined;
  slug?: string | undefined;
  domain?: string | undefined;
}

/** `Portal.Example:443.` → `portal.example`: the forms a Host header or a typed domain may take. */
const normalizeDomain = (domain: string) => domain.trim().toLowerCase().replace(/:\d+$/, "").replace(/\.$/, "");

/**
 * Resolves the managed server a public request is about. The first selector given decides: an unknown id, slug
 * or domain is 404 (no silent fallback to another server); with none the default server is used (404 when none
 * exists). A server that exists but is disabled is 403. Errors carry Matrix codes because `/api/register`
 * answers with them.
 */
export class ServerResolver {
  constructor(private readonly repository: ServersRepository) {}

  async resolve(selector: ServerSelector): Promise<ServerRow> {
    const row = await this.find(selector);
    if (!row) throw new HttpError(404, "No such server", "M_NOT_FOUND");
    if (row.enabled !== 1) throw new HttpError(403, "This server is not open for registration", "M_FORBIDDEN");
    return row;
  }

  private find(selector: ServerSelector): Promise<ServerRow | undefined> {
    if (selector.serverId) return this.repository.find(selector.serverId);
    if (selector.slug) return this.repository.findBy("slug", selector.slug);
    if (selector.domain) return this.repository.findBy("public_domain", normalizeDomain(selector.domain));
    return this.repository.findDefault();
  }
}
