import { errcodeOf, errorOf, type HomeserverResponse, type HomeserverUnreachable } from "../homeserver/homeserver-client.ts";

/** A probe's answer, or why it got none (the cause, for the log; `denied`: refused by the outbound rules). */
export type Probe = HomeserverResponse | { unreachable: string; denied?: HomeserverUnreachable };

/** True when the probe got an answer and `test` accepts it. */
export function probeOutcome(result: Probe, test: (response: HomeserverResponse) => boolean): boolean {
  return !("unreachable" in result) && test(result);
}

/** The UIA stages the portal can perform when it drives `/register` for a visitor. */
export const PORTAL_STAGES = new Set(["m.login.registration_token", "m.login.dummy"]);

/** The flows of a 401 UIA answer: each flow's `stages`. */
export function flowsOf(body: Record<string, unknown>): string[][] {
  if (!Array.isArray(body.flows)) return [];
  return body.flows
    .map((flow) => (flow as { stages?: unknown })?.stages)
    .filter((stages): stages is unknown[] => Array.isArray(stages))
    .map((stages) => stages.filter((stage): stage is string => typeof stage === "string"));
}

/** A flow the portal can complete that includes the token stage (a flow without it would let anyone in). */
export function findTokenFlow(flows: string[][]): string[] | undefined {
  return flows.find(
    (stages) => stages.includes("m.login.registration_token") && stages.every((stage) => PORTAL_STAGES.has(stage)),
  );
}

/** What the bare `POST /register {}` probe says about registration on the homeserver. */
export function explainFlows(register: Probe): {
  flowAvailable: boolean;
  registrationEnabled: boolean;
  tokenRegistrationSupported: boolean;
  errors: string[];
} {
  const none = { flowAvailable: false, registrationEnabled: false, tokenRegistrationSupported: false };
  if ("unreachable" in register) return { ...none, errors: [] };
  const flows = flowsOf(register.body);
  if (register.status === 401 && flows.length > 0) {
    const tokenFlow = findTokenFlow(flows);
    const errors: string[] = [];
    if (!flows.some((stages) => stages.includes("m.login.registration_token"))) {
      errors.push(
        "Registration on the homeserver does not require a token (registration_requires_token is off): anyone can sign up there directly",
      );
    } else if (!tokenFlow) {
      errors.push(`The token registration flow needs stages the portal cannot perform: ${JSON.stringify(flows)}`);
    }
    return { flowAvailable: true, registrationEnabled: true, tokenRegistrationSupported: tokenFlow !== undefined, errors };
  }
  if (register.status === 403) {
    return {
      ...none,
      errors: [`Registration is disabled on the homeserver (${errorOf(register) ?? errcodeOf(register) ?? "403"})`],
    };
  }
  if (register.status === 429)
    return { ...none, errors: ["The homeserver rate-limited the registration probe; try again later"] };
  return {
    ...none,
    errors: [`POST /_matrix/client/v3/register answered HTTP ${register.status} ${errcodeOf(register) ?? ""}`.trim()],
  };
}
