import * as v from "valibot";
import { HttpError } from "../../../lib/http-error.ts";
import { objectMessage } from "../schema-messages.ts";

/**
 * `POST /api/register`, checked before the homeserver is asked. The username is trimmed and lower-cased first
 * (Synapse lower-cases it too), then held to the spec's `[a-z0-9._=-]+` (max 255) and to Synapse's own refusals
 * (leading `_`, digits only). Unknown fields are ignored: this is a public form endpoint.
 */
/** The username rule of sign-up (also behind the availability check): trimmed, lower-cased, then checked. */
export const Username = v.pipe(
  v.string("username must be a string"),
  v.trim(),
  v.toLowerCase(),
  v.nonEmpty("Choose a username"),
  v.maxLength(255, "The username is too long (at most 255 characters)"),
  v.regex(/^[a-z0-9._=-]+$/, "Usernames may only contain a-z, 0-9 and . _ = -"),
  v.check((name) => !name.startsWith("_"), "Usernames may not begin with _"),
  v.check((name) => !/^\d+$/.test(name), "Usernames may not consist of digits only"),
);

export const RegisterBody = v.pipe(
  v.object({
    username: Username,
    password: v.pipe(
      v.string("password must be a string"),
      v.minLength(8, "The password must have at least 8 characters"),
      // Synapse refuses passwords over 512 characters.
      v.maxLength(512, "The password is too long (at most 512 characters)"),
    ),
    confirmPassword: v.string("confirmPassword must be a string"),
    token: v.pipe(
      v.string("token must be a string"),
      v.trim(),
      v.nonEmpty("A registration token is required"),
      v.maxLength(1000, "The registration token is not valid"),
    ),
    displayName: v.optional(
      v.pipe(
        v.string("displayName must be a string"),
        v.trim(),
        v.maxLength(255, "The display name is too long (at most 255 characters)"),
      ),
    ),
    serverId: v.optional(v.pipe(v.string("serverId must be a string"), v.maxLength(100, "serverId is too long"))),
  }),
  v.forward(
    v.check((body) => body.password === body.confirmPassword, "The passwords do not match"),
    ["confirmPassword"],
  ),
);
export type RegisterInput = v.InferOutput<typeof RegisterBody>;

/** The Matrix error code for a refused field (the register endpoint answers with Matrix codes only). */
function codeFor(field: string, issue: v.BaseIssue<unknown>): string {
  if (issue.input === undefined) return "M_MISSING_PARAM";
  if (field === "username") return "M_INVALID_USERNAME";
  if (field === "password" && issue.type === "min_length") return "M_PASSWORD_TOO_SHORT";
  if (field === "token" && issue.type === "non_empty") return "M_MISSING_PARAM";
  return "M_INVALID_PARAM";
}

/** Stands for a request body that was not JSON at all. */
export const NOT_JSON = Symbol("not JSON");

/** Parses a registration body or throws the first problem as 400 `{success:false, error, errorCode}`. */
export function parseRegistration(body: unknown): RegisterInput {
  if (body === NOT_JSON) throw new HttpError(400, "The request body is not JSON", "M_NOT_JSON");
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new HttpError(400, "The request body must be a JSON object", "M_BAD_JSON");
  }
  const result = v.safeParse(RegisterBody, body, { abortEarly: true });
  if (result.success) return result.output;
  const issue = result.issues[0];
  const field = String(issue.path?.[0]?.key ?? "");
  const message = issue.input === undefined && field ? `${field} is required` : issue.message;
  throw new HttpError(400, message, codeFor(field, issue));
}

/** `POST /api/register/validate-token`. */
export const ValidateTokenBody = v.object(
  {
    token: v.pipe(v.string("token must be a string"), v.maxLength(1000, "token is too long")),
    serverId: v.optional(v.pipe(v.string("serverId must be a string"), v.maxLength(100, "serverId is too long"))),
  },
  objectMessage,
);

/** `GET /api/register/username-available`: the name as typed (the rule is applied by the service) and the server. */
export const UsernameQuery = v.object(
  {
    username: v.pipe(v.string("username is required"), v.maxLength(1000, "username is too long")),
    serverId: v.optional(v.pipe(v.string("serverId must be a string"), v.maxLength(100, "serverId is too long"))),
  },
  objectMessage,
);
