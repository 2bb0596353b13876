/**
 * The import graph's rules (docs/ARCHITECTURE.md, "Import rules"), checked by `npm test` (scripts/run-tests.mjs)
 * with dependency-cruiser. Type-only imports count: a cycle through types is still a cycle for a reader.
 * Tests are outside the graph (they may reach anything); simulators and the web UIs are inside it.
 */
export default {
  forbidden: [
    {
      name: "no-import-cycle",
      comment: "No module may reach itself through its imports (type-only imports included).",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    {
      name: "no-two-way-hub-folders",
      comment:
        "Between the hub's folders imports run one way: a folder that imports another is never imported back, " +
        "directly or around a loop of folders.",
      severity: "error",
      scope: "folder",
      from: { path: "^hub/src/" },
      to: { path: "^hub/src/", circular: true },
    },
    {
      name: "web-imports-contracts-only",
      comment: "The web UIs import from each server only its contract module (hub/src/contract.ts, portal/src/contract.ts).",
      severity: "error",
      from: { path: "^web/(hub|portal|common)/" },
      to: { path: "^(hub|portal)/src/", pathNot: "^(hub|portal)/src/contract\\.ts$" },
    },
    {
      name: "matter-js-only-in-matter",
      comment: "Only hub/src/matter/ imports @matter/* (the bridge's one seam to matter.js).",
      severity: "error",
      from: { path: "^(hub|portal|lib|web|simulators)/", pathNot: "^hub/src/matter/" },
      to: { path: "^node_modules/@matter/" },
    },
    {
      name: "kysely-only-in-repositories",
      comment: "In the portal only repositories (and the database module and migrations) touch Kysely.",
      severity: "error",
      from: {
        path: "^portal/src/",
        pathNot: ["\\.repository\\.ts$", "^portal/src/db/", "^portal/src/context\\.ts$"],
      },
      to: { path: "^node_modules/kysely/" },
    },
    {
      name: "product-does-not-import-tests",
      comment: "Product code never imports test code or test support.",
      severity: "error",
      from: { path: "^(hub|portal|lib)/src/|^lib/", pathNot: "\\.test\\.tsx?$|/testing/" },
      to: { path: "\\.test\\.tsx?$|^(hub|portal|web)/test/" },
    },
  ],
  options: {
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(node_modules|dist|test-artifacts)/|\\.test\\.tsx?$|^(hub|portal|web)/test/|^bench/" },
    enhancedResolveOptions: { extensions: [".ts", ".tsx", ".js", ".mjs"] },
  },
};
