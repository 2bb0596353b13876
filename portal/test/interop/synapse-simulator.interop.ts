/**
 * The homeserver simulator against a real Synapse (docs/INTEROP.md "The portal against Synapse"): the same requests
 * go to both, and every answer (status, errcode, message, body) must be the same. Synapse is the reference: a
 * difference is fixed in the simulator. The comparison of every run is written to
 * test-artifacts/interop/synapse-vs-simulator.md.
 */
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { type HomeserverSimulator, startHomeserverSimulator } from "../../../simulators/homeserver/index.ts";
import { PROBE_APPSERVICE, runProbes } from "./support/homeserver-probes.ts";
import type { Observation } from "./support/probe-runner.ts";
import { runRateLimitProbes } from "./support/rate-limit-probes.ts";
import { artifactsDir, Synapse } from "./support/synapse.ts";

const SERVER_NAME = "syn.test";

describe("the homeserver simulator answers like Synapse", () => {
  let synapse: Synapse;
  let simulator: HomeserverSimulator;
  before(async () => {
    simulator = await startHomeserverSimulator({
      serverName: SERVER_NAME,
      rateLimit: false,
      appserviceRegistrations: [PROBE_APPSERVICE],
    });
    synapse = await Synapse.start({ name: "synapse-simulator", serverName: SERVER_NAME, appservices: [PROBE_APPSERVICE] });
  });
  after(async () => {
    await simulator?.close();
    await synapse?.remove();
  });

  it("gives the same answers to the token admin API, registration, appservice, profile, username and validity probes", async () => {
    const user = await synapse.registerUser("probe_user", "probe-user-password");
    const real = await runProbes({ url: synapse.url, adminToken: synapse.adminToken, userToken: user.access_token }, Date.now);
    const simulated = await runProbes(
      { url: simulator.url, adminToken: simulator.adminToken, userToken: simulator.createUser("probe_user").accessToken },
      Date.now,
    );
    compare(real, simulated, "synapse-vs-simulator.md");
  });

  it("rate-limits token validity and username checks as Synapse does with its default limits", async () => {
    const limitedSynapse = await Synapse.start({ name: "synapse-rate-limits", serverName: SERVER_NAME, defaultRateLimits: true });
    const limitedSimulator = await startHomeserverSimulator({ serverName: SERVER_NAME });
    try {
      const real = await runRateLimitProbes({ url: limitedSynapse.url, adminToken: limitedSynapse.adminToken, userToken: "" });
      const simulated = await runRateLimitProbes({
        url: limitedSimulator.url,
        adminToken: limitedSimulator.adminToken,
        userToken: "",
      });
      compare(real, simulated, "synapse-vs-simulator-rate-limits.md");
    } finally {
      await limitedSimulator.close();
      await limitedSynapse.remove();
    }
  });
});

/** Writes the side-by-side table to test-artifacts/interop/<file> and fails on any difference. */
function compare(real: Observation[], simulated: Observation[], file: string): void {
  const rows: string[] = [];
  const differences: string[] = [];
  const text = (o: Observation | undefined) => (o ? `${o.status} ${JSON.stringify(o.body)}` : "(none)");
  real.forEach((observation, index) => {
    const other = simulated[index];
    const same = text(observation) === text(other);
    rows.push(
      `| ${observation.name} | ${same ? "same" : "**differs**"} | \`${text(observation)}\` | \`${same ? "" : text(other)}\` |`,
    );
    if (!same) differences.push(`${observation.name}\n  synapse:   ${text(observation)}\n  simulator: ${text(other)}`);
  });
  writeFileSync(
    join(artifactsDir, file),
    `| probe | | Synapse | simulator (when it differs) |\n|---|---|---|---|\n${rows.join("\n")}\n`,
  );
  assert.equal(simulated.length, real.length, "both answered every probe");
  assert.deepEqual(differences, [], `the simulator differs from Synapse:\n${differences.join("\n")}`);
}
