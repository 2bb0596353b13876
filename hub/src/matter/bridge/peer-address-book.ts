import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { FabricIndex, NodeId, type ServerNode } from "@matter/main";
import { PeerAddress, PeerSet, SessionManager } from "@matter/main/protocol";

/** One controller node and the UDP address its last session came from (JSON: node ids are bigint). */
interface StoredPeer {
  fabricIndex: number;
  nodeId: string;
  ip: string;
  port: number;
}

/**
 * Remembers where each controller of a bridge was last reached, across restarts.
 *
 * Why: on start matter.js tries to re-establish the subscriptions it had before (SubscriptionsServer, Matter 1.3
 * subscription resumption) by opening a CASE session *to* the controller. matter.js's server learns a controller's
 * address only from that controller's incoming sessions and keeps it in memory; after a restart it must find the
 * controller by operational mDNS, which controllers need not announce (the matter.js controller does not), and
 * it gives up after 2 s. Controllers send from their operational UDP port, so the source address of their last
 * session is where they listen; seeding it before `start()` lets the resumption reach them directly. Without it
 * reports resume only when the controller's own subscription times out (about a minute).
 */
export class PeerAddressBook {
  readonly #file: string;
  #saved = "";
  #saving: Promise<void> = Promise.resolve();

  constructor(file: string) {
    this.#file = file;
  }

  /** Teaches the (not yet started) node's PeerSet the stored addresses of its controllers. */
  async seed(node: ServerNode): Promise<void> {
    const peers = await this.#read();
    const set = node.env.get(PeerSet);
    for (const peer of peers) {
      set.addKnownPeer({
        address: PeerAddress({ fabricIndex: FabricIndex(peer.fabricIndex), nodeId: NodeId(BigInt(peer.nodeId)) }),
        operationalAddress: { type: "udp", ip: peer.ip, port: peer.port },
      });
    }
  }

  /** Saves the addresses whenever a session opens; the returned function stops that. */
  track(node: ServerNode): () => void {
    const sessions = node.env.get(SessionManager).sessions;
    // The PeerSet adopts a new session in its own `added` observer; look once that has run.
    const onSession = () => void setImmediate(() => void this.save(node).catch(() => undefined));
    sessions.added.on(onSession);
    return () => sessions.added.off(onSession);
  }

  /** Writes the node's known controller addresses (only when they changed). */
  async save(node: ServerNode): Promise<void> {
    const fabrics = new Set(Object.keys(node.state.commissioning.fabrics).map(Number));
    const peers: StoredPeer[] = [];
    for (const peer of node.env.get(PeerSet)) {
      const { address, operationalAddress } = peer.descriptor;
      if (!fabrics.has(address.fabricIndex) || operationalAddress?.type !== "udp") continue;
      const { ip, port } = operationalAddress;
      peers.push({ fabricIndex: address.fabricIndex, nodeId: address.nodeId.toString(), ip, port });
    }
    const text = JSON.stringify(peers);
    if (text === this.#saved) return this.#saving;
    this.#saved = text;
    this.#saving = this.#saving.then(() => this.#write(text)).catch(() => undefined);
    return this.#saving;
  }

  /** Forgets everything (factory reset). */
  async erase(): Promise<void> {
    await this.#saving;
    this.#saved = "";
    await rm(this.#file, { force: true });
  }

  async #read(): Promise<StoredPeer[]> {
    try {
      const parsed: unknown = JSON.parse(await readFile(this.#file, "utf8"));
      return Array.isArray(parsed) ? parsed.filter(isStoredPeer) : [];
    } catch {
      // Missing or damaged: the only cost is the slower path described above.
      return [];
    }
  }

  async #write(text: string): Promise<void> {
    await mkdir(dirname(this.#file), { recursive: true });
    const temporary = `${this.#file}.tmp`;
    await writeFile(temporary, text);
    await rename(temporary, this.#file);
  }
}

function isStoredPeer(value: unknown): value is StoredPeer {
  const peer = value as StoredPeer;
  return (
    typeof peer === "object" &&
    peer !== null &&
    Number.isInteger(peer.fabricIndex) &&
    /^\d+$/.test(peer.nodeId) &&
    typeof peer.ip === "string" &&
    Number.isInteger(peer.port)
  );
}
