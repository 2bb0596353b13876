/**
 * An HTTP forwarder between the portal and Synapse that can make Synapse fail in the middle of an operation: the
 * chosen request reaches Synapse and is carried out there, then (before its answer is passed on) the test's action
 * runs (stopping Synapse) and the portal's connection is dropped without an answer, as when a homeserver dies
 * after committing a change. A request can also be held until an action has run (another admin changing something
 * at that moment). Every other request is passed through unchanged.
 */
import { createServer, type IncomingMessage, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

type Match = (method: string, path: string, body: string) => boolean;
type Hook = { match: Match; action: () => Promise<void>; done: () => void };

export class CutProxy {
  private cutHook: Hook | undefined;
  private beforeHook: Hook | undefined;
  private readonly server: Server;
  url = "";

  private constructor(private readonly upstream: URL) {
    this.server = createServer((incoming, outgoing) => void this.forward(incoming, outgoing));
  }

  static async start(target: string): Promise<CutProxy> {
    const proxy = new CutProxy(new URL(target));
    await new Promise<void>((resolve) => proxy.server.listen(0, "127.0.0.1", resolve));
    proxy.url = `http://127.0.0.1:${(proxy.server.address() as AddressInfo).port}`;
    return proxy;
  }

  /** The next request `match` accepts is carried out by Synapse, then `action` runs and the answer is dropped. */
  cutAfterAnswer(match: Match, action: () => Promise<void>): Promise<void> {
    return new Promise((done) => {
      this.cutHook = { match, action, done };
    });
  }

  /** The next request `match` accepts waits until `action` has run, then goes on to Synapse as usual. */
  beforeForward(match: Match, action: () => Promise<void>): Promise<void> {
    return new Promise((done) => {
      this.beforeHook = { match, action, done };
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  private async forward(incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
    const body = await readBody(incoming);
    const method = incoming.method ?? "GET";
    const path = incoming.url ?? "/";
    const take = (hook: Hook | undefined) => (hook?.match(method, path, body.toString("utf8")) ? hook : undefined);
    const cut = take(this.cutHook);
    if (cut) this.cutHook = undefined;
    const before = take(this.beforeHook);
    if (before) {
      this.beforeHook = undefined;
      await before.action();
      before.done();
    }
    const { hostname, port, host } = this.upstream;
    const forwarded = request({ host: hostname, port, method, path, headers: { ...incoming.headers, host } }, async (answer) => {
      const answerBody = await readBody(answer);
      if (cut) {
        await cut.action();
        outgoing.socket?.destroy();
        cut.done();
        return;
      }
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      outgoing.end(answerBody);
    });
    forwarded.on("error", () => outgoing.socket?.destroy());
    forwarded.end(body);
  }
}

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
