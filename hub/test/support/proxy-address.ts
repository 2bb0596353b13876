import { execFileSync } from "node:child_process";
import { request } from "node:http";
import { assertNetworkIsolated } from "../../../lib/testing/isolation.ts";

/**
 * Gives this process's private network namespace another local address on `lo` (e.g. the Supervisor's ingress proxy,
 * 172.30.32.2), so that a test can open real connections whose source address is that one. Only inside the namespace
 * of `npm test` / scripts/isolate.sh, where we are root of the namespace and nothing leaves the machine; an address
 * another test file added already is fine.
 */
export function addLoopbackAddress(address: string): void {
  assertNetworkIsolated();
  try {
    execFileSync("ip", ["addr", "add", `${address}/32`, "dev", "lo"], { stdio: "pipe" });
  } catch (error) {
    const stderr = String((error as { stderr?: unknown }).stderr ?? "");
    if (!/File exists/.test(stderr)) throw error;
  }
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request on a fresh connection whose source address is `from`. */
export function requestFrom(
  from: string,
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: `${target.pathname}${target.search}`,
        method: options.method ?? "GET",
        localAddress: from,
        agent: false,
        headers: options.headers ?? {},
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk) => {
          body += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}
