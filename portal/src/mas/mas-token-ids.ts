/**
 * Token string → MAS id, per server (and MAS settings): MAS cannot look a token up by its string, and ids never
 * change (MAS deletes no token), so what a list taught stays true. A cached id MAS no longer knows (its database was
 * reset) is dropped and the list read again.
 */
export class MasTokenIds {
  private readonly servers = new Map<string, { version: string; ids: Map<string, string> }>();

  of(serverId: string, version: string): Map<string, string> {
    const entry = this.servers.get(serverId);
    if (entry && entry.version === version) return entry.ids;
    const ids = new Map<string, string>();
    this.servers.set(serverId, { version, ids });
    return ids;
  }
}
