import { useEffect, useState } from "preact/hooks";
import { adminLimits } from "../../../openapi/generated/admin-limits.js";
import { ApiError, api, call, type InvitationPreview, type Me, messageOf } from "../api.js";
import { AuthCard } from "../components/auth-card.js";
import { fieldOfMessage, useCheckedForm } from "../components/checked-form.js";
import { Field } from "../components/field.js";
import { problemOf } from "../components/field-rules.js";
import { NewPasswordField } from "../components/new-password-field.js";
import { ErrorMessage, Loading } from "../components/status.js";
import { useSubmit, useTitle } from "../hooks.js";
import { SignIn } from "./sign-in.js";

const limits = adminLimits.acceptInvitation;

interface JoinProps {
  token: string;
  /** Who is signed in in this browser, if anyone. */
  me: Me | null;
  onJoined: (me: Me, workspaceId: string | null) => void;
  onSignedIn: (me: Me) => void;
}

/**
 * The page of an invitation link (`/dashboard/#/join/{token}`): which workspace it is for, then
 * a name and password for a new account, or — when the invited email has an account — signing
 * in as it and accepting.
 */
export function Join({ token, me, onJoined, onSignedIn }: JoinProps) {
  useTitle("Join a workspace");
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  /** Why the invitation could not be opened; `retry` when asking again may help. */
  const [failure, setFailure] = useState<{ message: string; retry: boolean } | null>(null);
  const [signingIn, setSigningIn] = useState(false);
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    call(api.POST("/invitations/lookup", { body: { token } })).then(setPreview, (err: unknown) =>
      setFailure({
        message: messageOf(err),
        // Not reached, or a server error: the link may be fine. A 4xx is about the link itself.
        retry: !(err instanceof ApiError && err.status >= 400 && err.status < 500),
      }),
    );
  }, [token, attempt]);

  const known = new Set(me?.workspaces.map((w) => w.id) ?? []);
  if (failure?.retry) {
    return (
      <AuthCard title="The invitation could not be opened">
        <ErrorMessage
          message={failure.message}
          onRetry={() => {
            setFailure(null);
            setAttempt((n) => n + 1);
          }}
        />
      </AuthCard>
    );
  }
  if (failure) {
    return (
      <AuthCard title="This invitation cannot be used">
        <ErrorMessage message={failure.message} />
        <p class="hint">Ask the workspace's owner for a new link.</p>
      </AuthCard>
    );
  }
  if (!preview) {
    return (
      <main class="auth">
        <Loading label="Opening the invitation…" />
      </main>
    );
  }
  if (preview.accountExists && me?.user.email !== preview.email) {
    if (signingIn) {
      return (
        <SignIn
          notice={`Sign in as ${preview.email} to join ${preview.workspaceName}.`}
          onSignedIn={onSignedIn}
        />
      );
    }
    return (
      <AuthCard title={`Join ${preview.workspaceName}`}>
        <Invited preview={preview} />
        <p>
          An account with <strong>{preview.email}</strong> exists. Sign in as it to accept
          {me ? ` (you are signed in as ${me.user.email})` : ""}.
        </p>
        <button type="button" class="button primary block" onClick={() => setSigningIn(true)}>
          Sign in to accept
        </button>
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Join ${preview.workspaceName}`}>
      <Invited preview={preview} />
      {preview.accountExists ? (
        <AcceptAsMe token={token} known={known} onJoined={onJoined} />
      ) : (
        <NewAccount token={token} email={preview.email} onJoined={onJoined} />
      )}
    </AuthCard>
  );
}

function Invited({ preview }: { preview: InvitationPreview }) {
  return (
    <p class="lead">
      {preview.invitedBy ?? "An owner"} invited <strong>{preview.email}</strong> to{" "}
      <strong>{preview.workspaceName}</strong> as{" "}
      {preview.role === "owner" ? "an owner" : "a member"}. The link works until{" "}
      {new Date(preview.expiresAt).toLocaleString()}.
    </p>
  );
}

/** The workspace just joined: the one that was not among the user's workspaces before. */
const joinedWorkspace = (me: Me, before: ReadonlySet<string>): string | null =>
  me.workspaces.find((w) => !before.has(w.id))?.id ?? null;

function AcceptAsMe(props: {
  token: string;
  known: ReadonlySet<string>;
  onJoined: JoinProps["onJoined"];
}) {
  const { busy, error, submit } = useSubmit();
  const accept = submit(async () => {
    const me = await call(api.POST("/invitations/accept", { body: { token: props.token } }));
    props.onJoined(me, joinedWorkspace(me, props.known));
  });
  return (
    <form class="stack" onSubmit={accept}>
      {error && <ErrorMessage message={error} />}
      <button type="submit" class="button primary block" disabled={busy}>
        {busy ? "Joining…" : "Accept and join"}
      </button>
    </form>
  );
}

function NewAccount(props: { token: string; email: string; onJoined: JoinProps["onJoined"] }) {
  const [name, setName] = useState("");
  const [password, setPassword] = useState("");
  const form = useCheckedForm<"name" | "password">();
  const { busy, error, submit } = useSubmit((err) => {
    const field =
      err instanceof ApiError && err.status === 400
        ? fieldOfMessage<"name" | "password">(err.message, {
            name: /\bname\b/i,
            password: /\bpassword\b/i,
          })
        : null;
    if (field === null) return messageOf(err);
    form.showOnField(field, messageOf(err));
    return null;
  });
  const join = form.checked(
    () => ({
      name: problemOf(name, { required: "Enter your name.", maxLength: limits.name.maxLength }),
      password: problemOf(password, { required: "Choose a password.", ...limits.password }),
    }),
    submit(async () => {
      const me = await call(
        api.POST("/invitations/accept", {
          body: { token: props.token, name: name.trim(), password },
        }),
      );
      props.onJoined(me, joinedWorkspace(me, new Set()));
    }),
  );
  return (
    <form class="stack" noValidate ref={form.formRef} onSubmit={join}>
      <input type="hidden" autocomplete="username" value={props.email} />
      <Field label="Your name" error={form.errors.name}>
        {(p) => (
          <input
            {...p}
            required
            autofocus
            maxLength={limits.name.maxLength}
            autocomplete="name"
            value={name}
            onInput={(e) => {
              setName(e.currentTarget.value);
              form.clear("name");
            }}
          />
        )}
      </Field>
      <NewPasswordField
        label="Choose a password"
        bounds={limits.password}
        hint="A passphrase works well."
        error={form.errors.password}
        value={password}
        onInput={(value) => {
          setPassword(value);
          form.clear("password");
        }}
      />
      {error && <ErrorMessage message={error} />}
      <button type="submit" class="button primary block" disabled={busy}>
        {busy ? "Joining…" : "Create account and join"}
      </button>
    </form>
  );
}
