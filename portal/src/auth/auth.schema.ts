import * as v from "valibot";
import { objectMessage } from "../schema-messages.ts";

/** `POST /api/auth/login`. */
export const LoginBody = v.object(
  {
    email: v.pipe(v.string("email must be a string"), v.trim(), v.nonEmpty("email is required"), v.maxLength(320)),
    password: v.pipe(v.string("password must be a string"), v.nonEmpty("password is required"), v.maxLength(1024)),
  },
  objectMessage,
);
