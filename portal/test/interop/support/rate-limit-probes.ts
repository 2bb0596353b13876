/**
 * Rate-limit probes for a homeserver with Synapse's default limits (docs/homeserver-simulator.md "Rate limits"):
 * the token validity endpoint (`rc_registration_token_validity`, 0.1/s, burst 5) and the public username check
 * (a fixed per-address limiter: one request per 2 s, one more delayed, the rest refused). `retry_after_ms` is
 * rounded to whole seconds: the two servers start their clocks at slightly different moments.
 */
import { type Observation, type ProbeTarget, prober } from "./probe-runner.ts";

const roundRetry = (body: Record<string, unknown>) =>
  typeof body.retry_after_ms === "number" ? { ...body, retry_after_ms: Math.round(body.retry_after_ms / 1000) * 1000 } : body;

export async function runRateLimitProbes(target: ProbeTarget): Promise<Observation[]> {
  const observations: Observation[] = [];
  const send = prober(target, observations);
  const validity = "/_matrix/client/v1/register/m.login.registration_token/validity?token=probe-rate";
  for (let call = 1; call <= 6; call++) {
    await send(`validity: call ${call} in a burst`, "GET", validity, { token: null, keep: roundRetry });
  }
  // Five checks at once from one address: which of them are delayed or refused is compared as a sorted list.
  const available = (n: number) => `/_matrix/client/v3/register/available?username=probe_rate_${n}`;
  const concurrent: Observation[] = [];
  const sendConcurrent = prober(target, concurrent);
  await Promise.all(
    [1, 2, 3, 4, 5].map((n) => sendConcurrent(`register/available: ${n} of 5 at once`, "GET", available(n), { token: null })),
  );
  const statuses = concurrent.map((observation) => observation.status).sort();
  observations.push({ name: "register/available: statuses of 5 at once", status: 0, body: statuses });
  const refused = concurrent.find((observation) => observation.status === 429);
  if (refused)
    observations.push({ name: "register/available: the refusal", status: 429, body: roundRetry(refused.body as never) });
  return observations;
}
