/**
 * The one owner of the names under a bridge's storage, as paths relative to the data dir (the same paths inside a
 * backup, docs/backup.md). The bridge store, the endpoint identities, the Matter node, bridge removal and
 * backup/restore all take their names from here, so a renamed or added file cannot be forgotten by one of them.
 * Data files keep these exact names: stored hubs and backups depend on them.
 *
 *   bridges.json                          every bridge's configuration (bridge-store.ts)
 *   matter/<bridgeId>/…                   matter.js's storage of the bridge's node (fabrics, keys, endpoint numbers)
 *   matter/<bridgeId>.controllers.json    the controllers' last known addresses (peer-address-book.ts)
 *   identities/<bridgeId>.json            entity identity → endpoint id (endpoint-identities.ts)
 */

export const BRIDGES_FILE = "bridges.json";
/** matter.js's storage root: each bridge's node stores under its id here. */
export const MATTER_DIR = "matter";
export const IDENTITIES_DIR = "identities";
const CONTROLLERS_SUFFIX = ".controllers.json";
const IDENTITIES_SUFFIX = ".json";

/** The controllers file of a bridge, relative to {@link MATTER_DIR} (where the node knows its storage root). */
export function controllersFileName(bridgeId: string): string {
  return `${bridgeId}${CONTROLLERS_SUFFIX}`;
}

/** What one bridge owns under the data dir, relative to it: removed with the bridge, moved as one by a restore. */
export function bridgeFiles(bridgeId: string): { matterStorage: string; controllers: string; identities: string } {
  return {
    matterStorage: `${MATTER_DIR}/${bridgeId}`,
    controllers: `${MATTER_DIR}/${controllersFileName(bridgeId)}`,
    identities: `${IDENTITIES_DIR}/${bridgeId}${IDENTITIES_SUFFIX}`,
  };
}

/**
 * The bridge id a file name stands for, when `name` is a controllers file (under {@link MATTER_DIR}) or an identities
 * file (under {@link IDENTITIES_DIR}); undefined otherwise. The caller checks the id (backup-layout.ts).
 */
export function bridgeIdOfFile(dir: typeof MATTER_DIR | typeof IDENTITIES_DIR, name: string): string | undefined {
  const suffix = dir === MATTER_DIR ? CONTROLLERS_SUFFIX : IDENTITIES_SUFFIX;
  return name.endsWith(suffix) ? name.slice(0, -suffix.length) : undefined;
}
