import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import Ajv from "ajv";
import addFormats from "ajv-formats";
import YAML from "yaml";

const root = fileURLToPath(new URL("..", import.meta.url));
// The add-on linter's schemas, vendored (see addon-schema/SOURCE.md): CI has only this repository.
const schemaDir = `${root}/test/addon-schema`;
const read = (path: string) => readFileSync(`${root}/${path}`, "utf8");

/** Loads one of the add-on linter's schemas with the two fix-ups SOURCE.md documents (Python named groups). */
function loadSchema(name: string): { properties: Record<string, { default?: unknown }> } {
  return JSON.parse(readFileSync(`${schemaDir}/${name}`, "utf8").replaceAll("(?P<", "(?<"));
}

function validate(schemaName: string, document: unknown): string[] {
  const ajv = new Ajv({ allErrors: true, strict: false });
  addFormats.default(ajv);
  const check = ajv.compile(loadSchema(schemaName));
  return check(document) ? [] : (check.errors ?? []).map((e) => `${e.instancePath} ${e.message}`);
}

/** The linter's extra rule: a key set to its schema default "should be removed, it uses a default value". */
function defaultValued(schemaName: string, document: Record<string, unknown>): string[] {
  const { properties } = loadSchema(schemaName);
  return Object.entries(document)
    .filter(
      ([key, value]) =>
        properties[key] && "default" in properties[key] && JSON.stringify(properties[key].default) === JSON.stringify(value),
    )
    .map(([key]) => key);
}

const config = YAML.parse(read("config.yaml")) as Record<string, unknown> & {
  version: string;
  options: Record<string, unknown>;
  schema: Record<string, string>;
};
const build = YAML.parse(read("build.yaml")) as Record<string, unknown>;

describe("add-on manifest", () => {
  it("config.yaml validates against the add-on linter's schema, with no default-valued key", () => {
    assert.deepEqual(validate("config.schema.json", config), []);
    assert.deepEqual(defaultValued("config.schema.json", config), []);
    assert.equal(config.watchdog, undefined, "the linter rejects watchdog; the Dockerfile has a HEALTHCHECK");
    assert.deepEqual(config.arch, ["aarch64", "amd64"]);
    assert.equal(config.host_network, true);
    assert.equal(config.homeassistant_api, true);
    assert.equal(config.ingress, true);
  });

  it("names its home, a prebuilt image, the Home Assistant it needs, and its config folder (issue 21 item 10)", () => {
    const url = new URL(String(config.url));
    assert.equal(url.protocol, "https:");
    const [, owner] = url.pathname.split("/");
    // The generic multi-arch name (Supervisor resolves the platform), under the same owner as the repository.
    assert.equal(config.image, `ghcr.io/${owner}/matter-hub`);
    // Not newer than the Home Assistant the interop suite runs (docs/INTEROP.md), same major.minor.
    const tested = read("docs/INTEROP.md").match(/core (\d{4}\.\d+)\.\d+/)?.[1];
    assert.ok(tested, "docs/INTEROP.md names the tested core");
    assert.match(String(config.homeassistant), /^\d{4}\.\d{1,2}\.\d+$/);
    assert.equal(String(config.homeassistant).split(".").slice(0, 2).join("."), tested);
    assert.deepEqual(config.map, [{ type: "addon_config", read_only: false }]);
    assert.match(read("run.sh"), /addon_config=\$\{ADDON_CONFIG_DIR:-\/config\}/);
    assert.match(read("run.sh"), /export HUB_LOG_FILE=\$addon_config\/logs\/hub\.log PORTAL_LOG_FILE=/);
  });

  it("has a builder workflow that builds every architecture of config.yaml and publishes what `image` names", () => {
    const workflow = YAML.parse(read(".github/workflows/builder.yaml")) as {
      env: Record<string, string>;
      on: Record<string, unknown>;
      jobs: Record<string, { steps?: { uses?: string; run?: string; with?: Record<string, unknown> }[] }>;
    };
    const text = read(".github/workflows/builder.yaml");
    assert.equal(`ghcr.io/${new URL(String(config.url)).pathname.split("/")[1]}/${workflow.env.IMAGE_NAME}`, config.image);
    assert.deepEqual(Object.keys(workflow.on).sort(), ["pull_request", "push", "release"]);
    const uses = Object.values(workflow.jobs).flatMap((job) => (job.steps ?? []).map((step) => step.uses ?? ""));
    for (const action of ["prepare-multi-arch-matrix", "build-image", "publish-multi-arch-manifest"]) {
      const step = uses.find((name) => name.startsWith(`home-assistant/builder/actions/${action}@`));
      assert.ok(step, action);
      assert.match(step, /@\d{4}\.\d{2}\.\d+$/, `${action} is pinned to a release`);
    }
    assert.ok(!/home-assistant\/builder@/.test(text), "not the retired legacy action");
    // The architectures and the version come from config.yaml, and a release must match them.
    assert.match(text, /yq -o=json -I=0 '\.arch' config\.yaml/);
    assert.match(text, /yq '\.version' config\.yaml/);
    assert.match(text, /push: \$\{\{ github\.event_name == 'release' \}\}/);
  });

  it("documents both ways to install: the prebuilt image and a local build", () => {
    const docs = read("DOCS.md");
    assert.match(docs, /### Prebuilt image/);
    assert.match(docs, /### Local build/);
    assert.ok(docs.includes(String(config.image)));
    assert.match(read("README.md"), /\.github\/workflows\/builder\.yaml/);
  });

  it("build.yaml validates against the build schema, with no default-valued key", () => {
    assert.deepEqual(validate("build.schema.json", build), []);
    assert.deepEqual(defaultValued("build.schema.json", build), []);
    assert.deepEqual(Object.keys(build.build_from as object).sort(), ["aarch64", "amd64"]);
  });

  it("quotes the version and keeps it equal to package.json and the newest CHANGELOG entry", () => {
    assert.match(read("config.yaml"), /^version: "\d+\.\d+\.\d+"$/m);
    assert.equal(config.version, JSON.parse(read("package.json")).version);
    assert.equal(read("CHANGELOG.md").match(/^## (\S+)/m)?.[1], config.version);
  });

  it("names and describes every option in translations/en.yaml", () => {
    const translations = YAML.parse(read("translations/en.yaml")) as {
      configuration: Record<string, { name: string; description: string }>;
      network: Record<string, string>;
    };
    for (const option of Object.keys(config.schema)) {
      assert.ok(translations.configuration[option]?.name, `name for ${option}`);
      assert.ok(translations.configuration[option]?.description, `description for ${option}`);
    }
    for (const port of Object.keys(config.ports as object)) assert.ok(translations.network[port], `description for ${port}`);
  });

  it("declares the hub's LAN port 8484/tcp off by default, read by run.sh (bashio and the node fallback) and documented", () => {
    const ports = config.ports as Record<string, number | null>;
    assert.deepEqual(ports, { "8483/tcp": null, "8484/tcp": null });
    const runSh = read("run.sh");
    assert.match(runSh, /bashio::addon\.port "8484\/tcp"/);
    assert.match(runSh, /network_port "\$network" 8484\/tcp/);
    assert.match(runSh, /export HUB_LAN_PORT=/);
    assert.match(read("DOCS.md"), /\*\*8484\/tcp\*\*: the hub's API for clients on your network/);
  });

  it("documents every option in DOCS.md under the usual sections", () => {
    const docs = read("DOCS.md");
    for (const section of ["## Installation", "## Configuration", "## Known limitations", "## Support"]) {
      assert.ok(docs.includes(section), section);
    }
    for (const option of Object.keys(config.schema)) assert.ok(docs.includes(`### Option: \`${option}\``), option);
  });

  it("has the files the Supervisor reads, and no other config.* file anywhere", () => {
    for (const file of ["DOCS.md", "CHANGELOG.md", "icon.png", "logo.png", "repository.yaml", "Dockerfile", "run.sh"]) {
      assert.ok(statSync(`${root}/${file}`).size > 0, file);
    }
    assert.ok(statSync(`${root}/run.sh`).mode & 0o111, "run.sh is executable");
    const png = (file: string) => readFileSync(`${root}/${file}`).subarray(0, 8).toString("hex");
    assert.equal(png("icon.png"), "89504e470d0a1a0a");
    assert.equal(png("logo.png"), "89504e470d0a1a0a");
    const tracked = execFileSync("git", ["ls-files", "--cached", "--others", "--exclude-standard"], {
      cwd: root,
      encoding: "utf8",
    });
    const configs = tracked.split("\n").filter((file) => /(^|\/)config\.(ya?ml|json)$/.test(file));
    assert.deepEqual(configs, ["config.yaml"]);
  });

  it("Dockerfile pins its base, runs Node 22, carries io.hass labels, a HEALTHCHECK and run.sh as entry", () => {
    const dockerfile = read("Dockerfile");
    assert.match(dockerfile, /^ARG BUILD_FROM=\S+:\S+$/m);
    assert.match(dockerfile, /FROM \$\{BUILD_FROM\}/);
    assert.match(dockerfile, /node:22/);
    for (const label of ["io.hass.type", "io.hass.version", "io.hass.arch"]) assert.ok(dockerfile.includes(label), label);
    assert.match(dockerfile, /^HEALTHCHECK /m);
    assert.match(dockerfile, /run\.sh/);
  });
});
