// `npm start`: builds the web UIs when they are missing (a fresh clone), then runs ./run.sh in the foreground,
// passing signals through so Ctrl-C and `kill` stop both servers cleanly.
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const built = ["hub", "portal"].every((app) => existsSync(`${root}/dist/web/${app}/index.html`));
if (!built) {
  console.error("[start] building the web UIs (first run)…");
  const result = spawnSync("npm", ["run", "build:web"], { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(`${root}/run.sh`, { cwd: root, stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
