import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { api, call, messageOf } from "../../api.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { Modal } from "../../components/modal.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";
import { TokenExpiryField } from "./token-expiry.js";
import { NAME_PATTERN_PROBLEM, type TokenField, tokenRefusalOf } from "./token-refusal.js";
import { TokenScopes } from "./token-scopes.js";
import { TokenSecret } from "./token-secret.js";
import {
  type AccessToken,
  type AccessTokenScope,
  type CreatedAccessToken,
  DEFAULT_TOKEN_EXPIRY,
  type TokenExpiry,
  tokenDayProblem,
  tokenDayRange,
  tokenExpiresAt,
} from "./token-text.js";

const limits = adminLimits.createAccessToken;
// The spec's pattern is anchored already (^…$): one line of plain text, not blank.
const NAME = new RegExp(limits.name.pattern);

interface NewTokenProps {
  /** Told as soon as the server made the token (the list loads again behind the dialog). */
  onCreated: (token: AccessToken) => void;
  onClose: () => void;
}

/** Names a new token, picks its scopes and expiry, then shows its secret once. */
export function NewTokenDialog({ onCreated, onClose }: NewTokenProps) {
  const [created, setCreated] = useState<CreatedAccessToken | null>(null);
  if (created) return <TokenSecret created={created} onClose={onClose} />;
  return (
    <Modal
      title="New access token"
      onClose={onClose}
      description="For a script or a CI job that calls the admin API as you. Name it after what uses it, so you know what to revoke."
    >
      <TokenForm
        onCancel={onClose}
        onCreated={(result) => {
          setCreated(result);
          onCreated(result.token);
        }}
      />
    </Modal>
  );
}

function TokenForm(props: {
  onCreated: (created: CreatedAccessToken) => void;
  onCancel: () => void;
}) {
  const [name, setName] = useState("");
  const [scopes, setScopes] = useState<AccessTokenScope[]>([]);
  const [choice, setChoice] = useState<TokenExpiry>(DEFAULT_TOKEN_EXPIRY);
  const [day, setDay] = useState(() => tokenDayRange(Date.now()).first);
  const form = useCheckedForm<TokenField>();
  // A 400 about one field is said under it (an expiry only when a day was chosen); a 409 (50
  // tokens already) and anything else above the buttons.
  const { busy, error, submit } = useSubmit((err) => {
    const refusal = tokenRefusalOf(err);
    if (refusal === null || (refusal.field === "expiresAt" && choice !== "date")) {
      return messageOf(err);
    }
    form.showOnField(refusal.field, refusal.message);
    return null;
  });
  const check = () => {
    const now = Date.now();
    return {
      name: problemOf(name, {
        required: "Enter a name for the token.",
        maxLength: limits.name.maxLength,
        pattern: { regex: NAME, problem: NAME_PATTERN_PROBLEM },
      }),
      scopes: scopes.length === 0 ? "Choose at least one scope." : undefined,
      expiresAt: choice === "date" ? tokenDayProblem(day, now) : undefined,
    };
  };
  const create = form.checked(
    check,
    submit(async () => {
      const body = {
        name: name.trim(),
        scopes,
        expiresAt: tokenExpiresAt(choice, day, Date.now()),
      };
      props.onCreated(await call(api.POST("/me/tokens", { body })));
    }),
  );
  return (
    <form class="stack" noValidate ref={form.formRef} onSubmit={create}>
      <Field
        label="Token name"
        hint="For example “Publish on merge” or “Nightly export”."
        error={form.errors.name}
      >
        {(p) => (
          <input
            {...p}
            required
            maxLength={limits.name.maxLength}
            autofocus
            autocomplete="off"
            value={name}
            onInput={(e) => {
              setName(e.currentTarget.value);
              form.clear("name");
            }}
          />
        )}
      </Field>
      <TokenScopes
        chosen={scopes}
        error={form.errors.scopes}
        onChange={(next) => {
          setScopes(next);
          form.clear("scopes");
        }}
      />
      <TokenExpiryField
        choice={choice}
        day={day}
        dayError={form.errors.expiresAt}
        onChoice={(next) => {
          setChoice(next);
          form.clear("expiresAt");
        }}
        onDay={(next) => {
          setDay(next);
          form.clear("expiresAt");
        }}
      />
      {/* The submit button was disabled while it ran: the focus goes to what went wrong. */}
      {error && <ErrorMessage message={error} focus />}
      <div class="modal-actions">
        <button type="button" class="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button type="submit" class="button primary" disabled={busy}>
          {busy ? "Creating…" : "Create token"}
        </button>
      </div>
    </form>
  );
}
