import { useState } from "preact/hooks";
import { ApiError, api, call, type InvitationPreview, type Me } from "../../api.js";
import { AuthCard } from "../../components/auth-card.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useTitle } from "../../hooks.js";
import { useLoad } from "../../use-load.js";
import { AcceptAsMe, ExistingAccount, NewAccount } from "./join-accept.js";
import "./team.css";

/** Not reached, or a server error: the link may be fine. A 4xx is about the link itself. */
const worthRetrying = (err: unknown): boolean =>
  !(err instanceof ApiError && err.status >= 400 && err.status < 500);

interface JoinProps {
  token: string;
  /** Who is signed in in this browser, if anyone. */
  me: Me | null;
  onJoined: (me: Me, workspaceId: string | null) => void;
}

/**
 * The page of an invitation link (`/dashboard/#/join/{token}`): which workspace it is for, then
 * accepting — as the signed-in account when it is the invited one, else by signing in as the
 * invited email or by creating an account with it. The server never says whether that email
 * has an account (admin.yaml, lookUpInvitation), so the person chooses.
 */
export function Join({ token, me, onJoined }: JoinProps) {
  useTitle("Join a workspace");
  const lookup = useLoad(
    () => call(api.POST("/invitations/lookup", { body: { token } })),
    [token],
    {
      clearError: "request",
    },
  );
  const preview = lookup.data;
  const [way, setWay] = useState<"new" | "existing">("new");
  /** Why the invitation could not be opened; `retry` when asking again may help. */
  const failure = lookup.error && {
    message: lookup.error.message,
    retry: worthRetrying(lookup.error.cause),
  };

  const known = new Set(me?.workspaces.map((w) => w.id) ?? []);
  if (failure?.retry) {
    return (
      <AuthCard title="The invitation could not be opened">
        <ErrorMessage message={failure.message} onRetry={lookup.reload} />
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
  if (me?.user.email === preview.email) {
    return (
      <AuthCard title={`Join ${preview.workspaceName}`}>
        <Invited preview={preview} />
        <AcceptAsMe token={token} known={known} onJoined={onJoined} />
      </AuthCard>
    );
  }
  return (
    <AuthCard title={`Join ${preview.workspaceName}`}>
      <Invited preview={preview} />
      {me && (
        <p class="hint">
          You are signed in as {me.user.email}. Accepting signs this browser in as {preview.email}.
        </p>
      )}
      <fieldset class="choice">
        <legend class="visually-hidden">How to accept</legend>
        <button
          type="button"
          class={`button small${way === "new" ? " primary" : ""}`}
          aria-pressed={way === "new"}
          onClick={() => setWay("new")}
        >
          I'm new here
        </button>
        <button
          type="button"
          class={`button small${way === "existing" ? " primary" : ""}`}
          aria-pressed={way === "existing"}
          onClick={() => setWay("existing")}
        >
          I have an account
        </button>
      </fieldset>
      {way === "new" ? (
        <NewAccount key="new" token={token} email={preview.email} onJoined={onJoined} />
      ) : (
        <ExistingAccount
          key="existing"
          token={token}
          email={preview.email}
          known={known}
          onJoined={onJoined}
        />
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
