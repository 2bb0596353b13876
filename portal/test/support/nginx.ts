import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort, type Spawned, spawnCaptured, waitForHttp } from "../../../lib/testing/processes.ts";

/** Where Debian's nginx (`nginx-light`, `nginx`) puts the binary; `NGINX` overrides it. */
export const NGINX = process.env.NGINX ?? "/usr/sbin/nginx";

/** Why the nginx suites cannot run here, or undefined when they can. */
export function nginxMissing(): string | undefined {
  return existsSync(NGINX) ? undefined : `nginx not found at ${NGINX} (apt-get install nginx-light, or set NGINX)`;
}

/**
 * The reverse proxy of docs/scale-out.md in front of portal instances: round robin, an instance that refuses
 * connections is skipped for 10 s (`max_fails`, `fail_timeout`), and a request it could not even send to one
 * instance goes to the next (`proxy_next_upstream error timeout`; nginx never resends a POST that reached an instance).
 */
export function nginxConfig(dir: string, port: number, upstreams: readonly number[]): string {
  return `daemon off;
master_process off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${dir}/access.log;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream portal {
${upstreams.map((upstream) => `    server 127.0.0.1:${upstream} max_fails=1 fail_timeout=10s;`).join("\n")}
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 3m;
    location / {
      proxy_pass http://portal;
      proxy_set_header Host $http_host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 2s;
    }
  }
}
`;
}

export interface RunningNginx {
  readonly url: string;
  readonly process: Spawned;
  /** nginx's error log so far (which upstreams failed, and how). */
  errors(): string;
  stop(): Promise<void>;
}

/** Runs nginx in the foreground with its own prefix, config, pid and logs in a temp dir, on a loopback port. */
export async function startNginx(upstreams: readonly number[]): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), "portal-nginx-"));
  mkdirSync(join(dir, "logs"));
  const port = await freePort();
  writeFileSync(join(dir, "nginx.conf"), nginxConfig(dir, port, upstreams));
  const spawned = spawnCaptured(NGINX, ["-p", dir, "-c", join(dir, "nginx.conf"), "-e", join(dir, "error.log")], {
    cwd: dir,
    env: { PATH: process.env.PATH },
  });
  const url = `http://127.0.0.1:${port}`;
  const errors = () => (existsSync(join(dir, "error.log")) ? readFileSync(join(dir, "error.log"), "utf8") : "");
  try {
    await Promise.race([
      waitForHttp(`${url}/api/health`, 20_000),
      spawned.exited.then((code) => {
        throw new Error(`nginx exited with ${code}:\n${spawned.output()}\n${errors()}`);
      }),
    ]);
  } catch (error) {
    spawned.child.kill("SIGKILL");
    throw error;
  }
  return {
    url,
    process: spawned,
    errors,
    async stop() {
      if (spawned.child.exitCode === null && spawned.child.signalCode === null) spawned.child.kill("SIGTERM");
      await spawned.exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
