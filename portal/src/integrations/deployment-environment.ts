import { execFile } from "node:child_process";
import { constants } from "node:fs";
import { access, stat } from "node:fs/promises";
import { delimiter, join } from "node:path";

/** What the portal's environment offers for running integrations itself. */
export interface DeploymentCapabilities {
  /** The Docker daemon's socket exists (`/var/run/docker.sock`, or the `unix://` path of DOCKER_HOST). */
  dockerSocket: boolean;
  /** A `docker` executable is on the PATH. */
  dockerCli: boolean;
  /** `docker compose version` works, or a `docker-compose` executable is on the PATH. */
  dockerCompose: boolean;
}

/** Answers the current capabilities; injected so that tests decide what the "environment" has. */
export type CapabilityProbe = () => Promise<DeploymentCapabilities>;

export const DEFAULT_DOCKER_SOCKET = "/var/run/docker.sock";

async function isSocket(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isSocket();
  } catch {
    return false;
  }
}

/** The executable `command` in the first directory of `pathVariable` that has one, like a shell's lookup. */
async function findOnPath(command: string, pathVariable: string | undefined): Promise<string | undefined> {
  for (const dir of (pathVariable ?? "").split(delimiter).filter(Boolean)) {
    const candidate = join(dir, command);
    try {
      await access(candidate, constants.X_OK);
      if ((await stat(candidate)).isFile()) return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return undefined;
}

function succeeds(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: timeoutMs, windowsHide: true }, (error) => resolve(error === null));
  });
}

export interface SystemProbeOptions {
  /** The environment to read `PATH` and `DOCKER_HOST` from, and to run `docker compose version` in. */
  env?: NodeJS.ProcessEnv;
  /** The socket looked at when `DOCKER_HOST` names no `unix://` path. */
  defaultSocket?: string;
  /** How long an answer is reused (default one minute; 0 asks every time). */
  cacheMs?: number;
  /** Time allowed for `docker compose version` (default 3 s). */
  composeTimeoutMs?: number;
}

/**
 * The real probe: the Docker socket, the `docker` CLI, and Compose (the `docker compose` plugin, else the standalone
 * `docker-compose`). Executables are looked up on the given environment's `PATH`, and the one found is the one run
 * (not whatever the portal process's own `PATH` would pick). Results are cached for a minute by default.
 */
export function systemCapabilityProbe(options: SystemProbeOptions = {}): CapabilityProbe {
  const env = options.env ?? process.env;
  const cacheMs = options.cacheMs ?? 60_000;
  const composeTimeoutMs = options.composeTimeoutMs ?? 3_000;
  let cached: { at: number; value: Promise<DeploymentCapabilities> } | undefined;
  const probe = async (): Promise<DeploymentCapabilities> => {
    const dockerHost = env.DOCKER_HOST;
    const socketPath = dockerHost?.startsWith("unix://")
      ? dockerHost.slice("unix://".length)
      : (options.defaultSocket ?? DEFAULT_DOCKER_SOCKET);
    const [dockerSocket, docker] = await Promise.all([isSocket(socketPath), findOnPath("docker", env.PATH)]);
    const dockerCompose =
      (docker !== undefined && (await succeeds(docker, ["compose", "version"], env, composeTimeoutMs))) ||
      (await findOnPath("docker-compose", env.PATH)) !== undefined;
    return { dockerSocket, dockerCli: docker !== undefined, dockerCompose };
  };
  return () => {
    if (!cached || Date.now() - cached.at >= cacheMs) cached = { at: Date.now(), value: probe() };
    return cached.value;
  };
}

/** Managed deployment needs all three: a daemon to talk to, the CLI, and Compose. */
export const canManage = (caps: DeploymentCapabilities) => caps.dockerSocket && caps.dockerCli && caps.dockerCompose;
