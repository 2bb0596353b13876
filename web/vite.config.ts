import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

// One config, two apps: `vite build --mode hub` and `--mode portal` build web/<mode> into dist/web/<mode>.
// base './' keeps every asset URL relative, so the hub's UI works under Home Assistant's ingress prefix.
export default defineConfig(({ mode }) => {
  const app = mode === "portal" ? "portal" : "hub";
  const root = fileURLToPath(new URL(`./${app}`, import.meta.url));
  return {
    root,
    base: "./",
    publicDir: false,
    oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
    build: {
      outDir: fileURLToPath(new URL(`../dist/web/${app}`, import.meta.url)),
      emptyOutDir: true,
      target: "es2022",
      sourcemap: false,
    },
    server: {
      proxy: { "/api": { target: app === "hub" ? "http://127.0.0.1:8482" : "http://127.0.0.1:8483", ws: true } },
    },
  };
});
