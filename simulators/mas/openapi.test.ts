import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import type { MasSimulator } from "./index.ts";
import { adminToken, MasClock, type MasReply, masSimulator, request, TOKENS } from "./test-support.ts";

/** The subset of MAS's published OpenAPI description the simulator answers (its source is cited inside the file). */
const SPEC = JSON.parse(readFileSync(new URL("./fixtures/mas-admin-openapi.json", import.meta.url), "utf8"));

/**
 * The spec leaves objects open; for a simulator that must answer exactly what MAS answers, every object schema that
 * lists properties is closed here, so an extra attribute fails as surely as a missing one.
 */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (typeof schema !== "object" || schema === null) return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)]));
  if (copy.type === "object" && copy.properties) copy.additionalProperties = false;
  return copy;
}

const ajv = new Ajv2020.default({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: "mas", components: closed(SPEC.components) });

/** Validates `reply` against the schema `name` of the fixture, failing with ajv's reasons. */
function check(reply: MasReply, name: string): void {
  const validate = ajv.getSchema(`mas#/components/schemas/${name}`);
  assert.ok(validate, `no schema ${name}`);
  assert.ok(validate(reply.body), `${name}: ${ajv.errorsText(validate.errors)}\n${reply.text}`);
}

/** The schema the spec names for this operation and status, for the version the simulator plays. */
function schemaFor(path: string, method: string, status: number, version: "v1.22" | "pr5971"): string {
  const operation = SPEC.paths[path]?.[method];
  assert.ok(operation, `${method} ${path} is not in the spec`);
  const ref: string | undefined = operation.responses[String(status)]?.content["application/json"].schema.$ref;
  assert.ok(ref || status === 409, `${method} ${path} has no ${status} in the spec`);
  const name = ref ? ref.replace("#/components/schemas/", "") : "ErrorResponse";
  return version === "v1.22" && name.endsWith("UserRegistrationToken") ? `${name}_v1_22` : name;
}

async function exercise(mas: MasSimulator, version: "v1.22" | "pr5971"): Promise<number> {
  const token = await adminToken(mas);
  const ID = `${TOKENS}/{id}`;
  let checked = 0;
  const expect = async (method: string, specPath: string, path: string, status: number, json?: unknown) => {
    const reply = await request(mas, method.toUpperCase(), path, { token, ...(json === undefined ? {} : { json }) });
    assert.equal(reply.status, status, `${method} ${path}: ${reply.text}`);
    check(reply, schemaFor(specPath, method, status, version));
    checked++;
    return reply;
  };
  const created = await expect("post", TOKENS, TOKENS, 201, {
    token: "spec-1",
    usage_limit: 2,
    expires_at: "2030-01-01T00:00:00Z",
  });
  await expect("post", TOKENS, TOKENS, 201, {});
  await expect("post", TOKENS, TOKENS, 409, { token: "spec-1" });
  const id: string = created.body.data.id;
  await expect("get", TOKENS, TOKENS, 200);
  await expect("get", TOKENS, `${TOKENS}?page[first]=1&filter[valid]=true`, 200);
  await expect("get", TOKENS, `${TOKENS}?page[last]=1`, 200);
  await expect("get", TOKENS, `${TOKENS}?count=only`, 200);
  await expect("get", TOKENS, `${TOKENS}?count=false`, 200);
  await expect("get", ID, `${TOKENS}/${id}`, 200);
  await expect("get", ID, `${TOKENS}/01040G2081040G2081040G2081`, 404);
  await expect("put", ID, `${TOKENS}/${id}`, 200, { usage_limit: null });
  await expect("put", ID, `${TOKENS}/01040G2081040G2081040G2081`, 404, {});
  await expect("post", `${ID}/revoke`, `${TOKENS}/${id}/revoke`, 200);
  await expect("post", `${ID}/revoke`, `${TOKENS}/${id}/revoke`, 400);
  await expect("post", `${ID}/unrevoke`, `${TOKENS}/${id}/unrevoke`, 200);
  await expect("post", `${ID}/unrevoke`, `${TOKENS}/${id}/unrevoke`, 400);
  await expect("post", `${ID}/revoke`, `${TOKENS}/01040G2081040G2081040G2081/revoke`, 404);
  await expect("get", "/api/admin/v1/site-config", "/api/admin/v1/site-config", 200);
  await expect("get", "/api/admin/v1/version", "/api/admin/v1/version", 200);
  return checked;
}

describe("MAS simulator against MAS's published OpenAPI description", { concurrency: true }, () => {
  it("every registration-token answer of MAS v1.22 mode has the spec's shape (without the PR #5971 attributes)", async (t) => {
    const mas = await masSimulator(t, { now: new MasClock().now });
    assert.equal(await exercise(mas, "v1.22"), 19);
  });

  it("in PR #5971 mode the answers match the spec revision that has invite_url, username, email and passwordless", async (t) => {
    const mas = await masSimulator(t, { inviteLinks: true, now: new MasClock().now });
    assert.equal(await exercise(mas, "pr5971"), 19);
  });

  it("the closed schemas do catch a missing or an extra attribute", () => {
    const validate = ajv.getSchema("mas#/components/schemas/UserRegistrationToken_v1_22");
    const good = {
      token: "a",
      valid: true,
      usage_limit: null,
      times_used: 0,
      created_at: "2022-01-16T14:40:00Z",
      last_used_at: null,
      expires_at: null,
      revoked_at: null,
    };
    assert.equal(validate?.(good), true);
    assert.equal(validate?.({ ...good, extra: 1 }), false);
    const { times_used: _dropped, ...missing } = good;
    assert.equal(validate?.(missing), false);
  });
});
