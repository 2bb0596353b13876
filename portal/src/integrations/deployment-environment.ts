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

async function onPath(command: string, pathVariable: string | undefined): Promise<boolean> {
  for (const dir of (pathVariable ?? "").split(delimiter).filter(Boolean)) {
    try {
      await access(join(dir, command), constants.X_OK);
      return true;
    } catch {
      // Not in this directory.
    }
  }
  return false;
}

function succeeds(command: string, args: string[], timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, windowsHide: true }, (error) => resolve(error === null));
  });
}

/**
 * The real probe: the Docker socket, the `docker` CLI, and Compose (the `docker compose` plugin, else the standalone
 * `docker-compose`). Results are cached for a minute; the `docker compose version` call has 3 s.
 */
export function systemCapabilityProbe(env: NodeJS.ProcessEnv = process.env, cacheMs = 60_000): CapabilityProbe {
  let cached: { at: number; value: Promise<DeploymentCapabilities> } | undefined;
  const probe = async (): Promise<DeploymentCapabilities> => {
    const dockerHost = env.DOCKER_HOST;
    const socketPath = dockerHost?.startsWith("unix://") ? dockerHost.slice("unix://".length) : DEFAULT_DOCKER_SOCKET;
    const [dockerSocket, dockerCli] = await Promise.all([isSocket(socketPath), onPath("docker", env.PATH)]);
    const dockerCompose =
      (dockerCli && (await succeeds("docker", ["compose", "version"], 3_000))) || (await onPath("docker-compose", env.PATH));
    return { dockerSocket, dockerCli, dockerCompose };
  };
  return () => {
    if (!cached || Date.now() - cached.at > cacheMs) cached = { at: Date.now(), value: probe() };
    return cached.value;
  };
}

/** Managed deployment needs all three: a daemon to talk to, the CLI, and Compose. */
export const canManage = (caps: DeploymentCapabilities) => caps.dockerSocket && caps.dockerCli && caps.dockerCompose;
