import { once } from "node:events";
import { connect, type Socket } from "node:net";

export interface RawResponse {
  status: number;
  /** Header names lower-cased. */
  headers: Record<string, string>;
  body: string;
}

/**
 * One HTTP/1.1 connection driven byte by byte, for what `fetch` hides: a body sent in parts (or never finished),
 * several requests on one keep-alive socket, and how the server ends the connection (a clean FIN or a reset).
 * Responses must carry a Content-Length (every JSON answer of the hub and the portal does).
 */
export class RawHttpConnection {
  #buffer = Buffer.alloc(0);
  #wake: (() => void) | undefined;
  /** The server closed its side cleanly (FIN). */
  ended = false;
  /** A socket error (ECONNRESET, EPIPE...), if one happened. */
  error: Error | undefined;

  private constructor(readonly socket: Socket) {
    socket.on("data", (chunk: Buffer) => {
      this.#buffer = Buffer.concat([this.#buffer, chunk]);
      this.#wake?.();
    });
    socket.on("end", () => {
      this.ended = true;
      this.#wake?.();
    });
    socket.on("error", (error) => {
      this.error ??= error;
      this.#wake?.();
    });
  }

  static async open(port: number, options: { host?: string; localAddress?: string } = {}): Promise<RawHttpConnection> {
    const socket = connect({ port, host: options.host ?? "127.0.0.1", localAddress: options.localAddress });
    const connection = new RawHttpConnection(socket);
    await once(socket, "connect");
    return connection;
  }

  /** Writes and resolves once the data was handed to the kernel (false when the socket is gone). */
  write(data: string | Buffer): Promise<boolean> {
    return new Promise((resolve) => {
      if (this.socket.destroyed || !this.socket.writable) return resolve(false);
      this.socket.write(data, (error) => resolve(!error));
    });
  }

  /** Writes `bytes` filler bytes in 64 KiB pieces (a body's remainder); stops early when the socket is gone. */
  async writeFiller(bytes: number): Promise<number> {
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    while (sent < bytes) {
      const size = Math.min(chunk.length, bytes - sent);
      if (!(await this.write(chunk.subarray(0, size)))) break;
      sent += size;
    }
    return sent;
  }

  /** Whether any response bytes arrived yet (a sender can stop as soon as the server answered). */
  get answered(): boolean {
    return this.#buffer.length > 0;
  }

  /** The next complete response; rejects when the connection ends or fails first, or after `timeoutMs`. */
  async response(timeoutMs = 10_000): Promise<RawResponse> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const parsed = this.#take();
      if (parsed) return parsed;
      if (this.error) throw new Error(`connection failed before a full response: ${this.error.message}`);
      if (this.ended) throw new Error("connection closed before a full response");
      if (Date.now() > deadline) throw new Error("no response in time");
      await this.#wait(deadline - Date.now());
    }
  }

  /** Resolves once the server has closed the connection (cleanly or not). */
  async closed(timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended && !this.error && !this.socket.destroyed) {
      if (Date.now() > deadline) throw new Error("the server did not close the connection");
      await this.#wait(deadline - Date.now());
    }
  }

  destroy(): void {
    this.socket.destroy();
  }

  #wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, Math.max(1, Math.min(ms, 50)));
      this.#wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  }

  #take(): RawResponse | undefined {
    const end = this.#buffer.indexOf("\r\n\r\n");
    if (end < 0) return undefined;
    const [statusLine = "", ...lines] = this.#buffer.subarray(0, end).toString("latin1").split("\r\n");
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(":");
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers["content-length"] ?? 0);
    if (this.#buffer.length < end + 4 + length) return undefined;
    const body = this.#buffer.subarray(end + 4, end + 4 + length).toString("utf8");
    this.#buffer = this.#buffer.subarray(end + 4 + length);
    return { status: Number(statusLine.split(" ")[1]), headers, body };
  }
}
