/**
 * An HTTP forwarder between the portal and Synapse that can make Synapse fail in the middle of an operation: the
 * chosen request reaches Synapse and is carried out there, then (before its answer is passed on) the test's action
 * runs (stopping Synapse) and the portal's connection is dropped without an answer, as when a homeserver dies
 * after committing a change. A request can also be held until an action has run (another admin changing something
 * at that moment). Every other request is passed through unchanged.
 */
import { createServer, type IncomingMessage, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";

type Match = (method: string, path: string, body: string) => boolean;

export class CutProxy {
  #cut: { match: Match; action: () => Promise<void>; done: () => void } | undefined;
  #before: { match: Match; action: () => Promise<void>; done: () => void } | undefined;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  static async start(target: string): Promise<CutProxy> {
    const upstream = new URL(target);
    let proxy: CutProxy | undefined;
    const server = createServer(async (incoming, outgoing) => {
      const body = await readBody(incoming);
      const method = incoming.method ?? "GET";
      const path = incoming.url ?? "/";
      const cut = proxy?.#cut?.match(method, path, body.toString("utf8")) ? proxy.#cut : undefined;
      if (cut) proxy.#cut = undefined;
      const before = proxy?.#before?.match(method, path, body.toString("utf8")) ? proxy.#before : undefined;
      if (before) {
        proxy.#before = undefined;
        await before.action();
        before.done();
      }
      const forwarded = request(
        { host: upstream.hostname, port: upstream.port, method, path, headers: { ...incoming.headers, host: upstream.host } },
        async (answer) => {
          const answerBody = await readBody(answer);
          if (cut) {
            await cut.action();
            outgoing.socket?.destroy();
            cut.done();
            return;
          }
          outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
          outgoing.end(answerBody);
        },
      );
      forwarded.on("error", () => outgoing.socket?.destroy());
      forwarded.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    proxy = new CutProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return proxy;
  }

  /** The next request `match` accepts is carried out by Synapse, then `action` runs and the answer is dropped. */
  cutAfterAnswer(match: Match, action: () => Promise<void>): Promise<void> {
    return new Promise((done) => {
      this.#cut = { match, action, done };
    });
  }

  /** The next request `match` accepts waits until `action` has run, then goes on to Synapse as usual. */
  beforeForward(match: Match, action: () => Promise<void>): Promise<void> {
    return new Promise((done) => {
      this.#before = { match, action, done };
    });
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

async function readBody(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
