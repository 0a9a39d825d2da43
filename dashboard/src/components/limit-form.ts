import { useState } from "preact/hooks";
import type { RateLimit } from "../api.js";
import { useSubmit } from "../hooks.js";
import { focusFirstInvalid, isValid } from "./form-check.js";
import { checkLimit, draftOf, limitOf, type RateLimitErrors } from "./rate-limit-fields.js";

/**
 * The state of a form that sets a rate limit or drops it (a key's own, a workspace's default):
 * which kind is chosen ("own", or `otherwise`), the custom limit's draft and its inline errors.
 * `save` is the form's `onSubmit`: a custom limit is checked first (errors shown on its fields,
 * the first focused, nothing sent); then `store` gets the limit, or null for `otherwise`.
 */
export function useLimitForm<K extends string>(
  initial: RateLimit | null,
  otherwise: K,
  store: (rateLimit: RateLimit | null) => Promise<void>,
) {
  const [kind, setKind] = useState<K | "own">(initial ? "own" : otherwise);
  const [draft, setDraft] = useState(() => draftOf(initial));
  const [errors, setErrors] = useState<RateLimitErrors>({});
  const { busy, error, submit } = useSubmit();
  const send = submit(() => store(kind === "own" ? limitOf(draft) : null));
  const save = (event: SubmitEvent) => {
    event.preventDefault();
    const found = kind === "own" ? checkLimit(draft) : {};
    setErrors(found);
    if (isValid(found)) send(event);
    else focusFirstInvalid(event.currentTarget as HTMLFormElement);
  };
  return { kind, setKind, draft, setDraft, errors, busy, error, save };
}
