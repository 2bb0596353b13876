import { useEffect, useState } from "preact/hooks";
import { validateToken } from "../api/public.ts";
import type { PublicServer } from "../api/public-types.ts";
import { P } from "../strings/public.ts";
import { type FieldStatus, SignupField } from "./field.tsx";
import { CopyValue } from "./success.tsx";

type Check =
  | { kind: "idle" }
  | { kind: "checking" }
  | { kind: "valid"; token: string; registerUrl: string }
  | { kind: "invalid"; state: string | undefined }
  | { kind: "empty" }
  | { kind: "failed" };

function statusOf(check: Check): FieldStatus {
  switch (check.kind) {
    case "checking":
      return { kind: "pending", text: P.mas.checking };
    case "valid":
      return { kind: "ok", text: P.mas.valid };
    case "invalid":
      // The reason when MAS gave one (the sign-up page's own, translated sentences), else the general one.
      return {
        kind: "error",
        text:
          check.state === "exhausted"
            ? P.token.exhausted
            : check.state === "expired"
              ? P.token.expired
              : check.state === "disabled"
                ? P.token.disabled
                : P.mas.invalid,
      };
    case "empty":
      return { kind: "error", text: P.mas.empty };
    case "failed":
      return { kind: "info", text: P.mas.failed };
    default:
      return null;
  }
}

/**
 * The sign-up page of a server whose accounts its Matrix Authentication Service creates (kind `mas`): the token is
 * checked without being used (a token from the invitation link at once), then the person continues to MAS's own
 * registration with the token in the link. Released MAS does not read the token from the link yet, so the token is
 * shown with a copy button for MAS's token step.
 */
export function MasSignup({ server, initialToken }: { server: PublicServer; initialToken: string }) {
  const [token, setToken] = useState(initialToken);
  const [check, setCheck] = useState<Check>({ kind: "idle" });

  const run = async (value: string) => {
    const trimmed = value.trim();
    if (trimmed === "") return setCheck({ kind: "empty" });
    setCheck({ kind: "checking" });
    try {
      const answer = await validateToken(trimmed, server.id);
      setCheck(
        answer.valid && answer.registerUrl
          ? { kind: "valid", token: trimmed, registerUrl: answer.registerUrl }
          : { kind: "invalid", state: answer.state },
      );
    } catch {
      setCheck({ kind: "failed" });
    }
  };
  // A token from the invitation link is checked once, at once.
  useEffect(() => {
    if (initialToken.trim() !== "") void run(initialToken);
  }, []);

  return (
    <form
      class="su-form"
      aria-label={P.mas.label}
      data-testid="mas-signup"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void run(token);
      }}
    >
      <p class="su-text">{P.mas.intro(server.serverName)}</p>
      <SignupField label={P.form.token} hint={P.mas.tokenHint} status={statusOf(check)} testId="field-token">
        {(props) => (
          <input
            {...props}
            type="text"
            name="token"
            autocomplete="off"
            autocapitalize="none"
            spellcheck={false}
            required
            maxLength={64}
            value={token}
            onInput={(event) => {
              setToken(event.currentTarget.value);
              if (check.kind !== "idle") setCheck({ kind: "idle" });
            }}
          />
        )}
      </SignupField>
      {check.kind === "valid" ? (
        <div class="su-handoff" data-testid="mas-continue">
          <a class="su-submit" href={check.registerUrl} rel="noreferrer">
            {P.mas.continue}
          </a>
          <p class="su-hint">{P.mas.pasteHint}</p>
          <div class="su-id-box su-id-box-small">
            <span class="su-id-label">{P.form.token}</span>
            <code class="su-id">{check.token}</code>
            <CopyValue value={check.token} label={P.mas.copyToken} />
          </div>
        </div>
      ) : (
        <button type="submit" class="su-submit" disabled={check.kind === "checking"}>
          {check.kind === "checking" ? <span class="su-spinner" aria-hidden="true" /> : null}
          {check.kind === "checking" ? P.mas.checking : P.mas.check}
        </button>
      )}
    </form>
  );
}
