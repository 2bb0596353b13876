import { HttpError } from "../../../lib/http-error.ts";

/**
 * `POST /api/register` on a server of kind `mas`: the homeserver has no registration of its own (Synapse answers
 * `/register` with 403 under MSC3861) and MAS's registration is a browser flow, so the portal creates no account.
 * The sign-up page checks the token with `validate-token` and sends the person to MAS (`registerUrl`).
 */
export const masCreatesAccounts = () =>
  new HttpError(
    403,
    "Accounts on this server are created by its Matrix Authentication Service: check your token on the sign-up page, then continue there.",
    "M_FORBIDDEN",
  );
