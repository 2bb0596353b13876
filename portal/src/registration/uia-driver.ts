import { setTimeout as sleep } from "node:timers/promises";
import { HttpError } from "../../../lib/http-error.ts";
import type { Logger } from "../../../lib/logger.ts";
import { findTokenFlow, flowsOf } from "../diagnostics/diagnostics-rules.ts";
import { type HomeserverClient, type HomeserverResponse, HomeserverUnreachable } from "../homeserver/homeserver-client.ts";
import { homeserverUnavailable, signUpRefused } from "./sign-up-errors.ts";

/** Always this exact URI: Synapse binds a UIA session to the first request's path and query. */
const REGISTER = "/_matrix/client/v3/register";
/** How long one sign-up may wait in total for homeserver rate limits and retries. */
const WAIT_BUDGET_MS = 10_000;

export interface AccountRequest {
  username: string;
  password: string;
  token: string;
}

/**
 * Drives Synapse's interactive-auth registration for one attempt, in one UIA session: open the session
 * (401 with flows), then perform the stages of a flow made of `m.login.registration_token` and `m.login.dummy`
 * that the session has not completed, until the homeserver answers 200. Never sends an access token to
 * `/register`; `inhibit_login` keeps the portal from ever holding the user's tokens.
 *
 * Retries stay inside the session: on 429 it waits `retry_after_ms` (within a 10 s budget), after a network
 * failure it repeats the same request once, and so it does when the completing stage fails with a 404 or a 5xx
 * (the account may exist: Synapse then answers the replay with it). Both are safe because Synapse does not count a repeated token stage
 * twice and replays a completed registration with the same user id, so a use taken by the token stage is
 * never stranded by a transient error.
 */
export async function registerAccount(hs: HomeserverClient, account: AccountRequest, log: Logger): Promise<string> {
  const params = { username: account.username, password: account.password, inhibit_login: true };
  let waited = 0;
  const post = async (body: Record<string, unknown>): Promise<HomeserverResponse> => {
    let retriedNetwork = false;
    for (;;) {
      let response: HomeserverResponse;
      try {
        response = await hs.call("POST", REGISTER, { body });
      } catch (error) {
        if (!(error instanceof HomeserverUnreachable)) throw error;
        if (retriedNetwork) throw homeserverUnavailable();
        retriedNetwork = true;
        continue;
      }
      if (response.status !== 429) return response;
      const wait = Math.max(250, response.retryAfterMs ?? 1000) + 50;
      if (waited + wait > WAIT_BUDGET_MS) return response;
      waited += wait;
      await sleep(wait);
    }
  };

  let response = await post(params);
  if (response.status === 200) return userIdOf(response);
  const session = response.body.session;
  if (response.status !== 401 || typeof session !== "string") throw signUpRefused(response);
  const flow = findTokenFlow(flowsOf(response.body));
  if (!flow) {
    log.error({ flows: response.body.flows }, "the homeserver offers no registration flow the portal can complete");
    throw new HttpError(503, "Sign-up with a registration token is not available on this server.", "M_UNKNOWN");
  }

  let completed = completedOf(response);
  for (let round = 0; round < flow.length + 1; round++) {
    const stage = flow.find((candidate) => !completed.has(candidate));
    if (stage === undefined) break;
    const auth =
      stage === "m.login.registration_token" ? { type: stage, token: account.token, session } : { type: stage, session };
    const body = { ...params, auth };
    response = await post(body);
    if (response.status === 200) return userIdOf(response);
    if (completesFlow(flow, completed, stage) && (response.status === 404 || response.status >= 500)) {
      // Synapse creates the account before it books the token's use: a token deleted meanwhile fails that step
      // (404 "No row found (registration_tokens)") with the account made. The session remembers the user, so a
      // replay answers 200 with it (docs/INTEROP.md "The portal against Synapse").
      const replay = await post(body);
      if (replay.status === 200) return userIdOf(replay);
    }
    if (response.status !== 401 || typeof response.body.errcode === "string") throw signUpRefused(response);
    completed = completedOf(response);
  }
  log.error({ flow, completed: [...completed] }, "registration flow did not complete");
  throw homeserverUnavailable();
}

/** Whether submitting `stage` is the last step: every other stage of the flow is complete. */
const completesFlow = (flow: readonly string[], completed: ReadonlySet<string>, stage: string) =>
  flow.every((candidate) => candidate === stage || completed.has(candidate));

function completedOf(response: HomeserverResponse): Set<string> {
  const completed = response.body.completed;
  return new Set(Array.isArray(completed) ? completed.filter((stage): stage is string => typeof stage === "string") : []);
}

function userIdOf(response: HomeserverResponse): string {
  const userId = response.body.user_id;
  if (typeof userId !== "string") throw homeserverUnavailable();
  return userId;
}
