import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";

export interface Spawned {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (or 128+signal) when the process ends. */
  exited: Promise<number>;
}

/** Spawns a process with captured output; the caller must end it (see `stop`). */
export function spawnCaptured(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Spawned {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env, stdio: ["ignore", "pipe", "pipe"] });
  let text = "";
  child.stdout?.on("data", (chunk) => {
    text += chunk;
  });
  child.stderr?.on("data", (chunk) => {
    text += chunk;
  });
  const exited = once(child, "exit").then(([code, signal]) =>
    typeof code === "number" ? code : 128 + (signal === "SIGKILL" ? 9 : signal === "SIGTERM" ? 15 : 2),
  );
  return { child, output: () => text, exited };
}

/**
 * A port for which `tryBind(port)` succeeded (it binds and releases it), picked at random below Linux's ephemeral
 * range (32768+): a port the OS hands out for `listen(0)` elsewhere in the test run (two test files run at once) can
 * then never be the one we chose, and two concurrent picks collide with a chance of 1 in 12,000.
 */
export async function randomFreePort(tryBind: (port: number) => Promise<boolean>, what: string): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (await tryBind(port)) return port;
  }
  throw new Error(`no free ${what} port found`);
}

/** A TCP port free on 127.0.0.1 right now, for a child process to listen on. */
export function freePort(): Promise<number> {
  return randomFreePort((port) => {
    const server = createServer();
    return new Promise<boolean>((resolve) => {
      server.once("error", () => resolve(false));
      server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
    });
  }, "TCP");
}

/** Polls `url` until it answers with one of `statuses`, or fails after `timeoutMs` with the process output. */
export async function waitForHttp(url: string, timeoutMs = 20_000, statuses = [200]): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  let last = "";
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (statuses.includes(response.status)) return response;
      last = `status ${response.status}`;
    } catch (error) {
      last = String(error);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer in ${timeoutMs} ms (${last})`);
}
