import { useEffect, useState } from "preact/hooks";
import { ApiError, api, call, type InvitationPreview, type Me, messageOf } from "../../api.js";
import { AuthCard } from "../../components/auth-card.js";
import { ErrorMessage, Loading } from "../../components/status.js";
import { useTitle } from "../../hooks.js";
import { AcceptAsMe, ExistingAccount, NewAccount } from "./join-accept.js";
import "./team.css";

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
  const [preview, setPreview] = useState<InvitationPreview | null>(null);
  /** Why the invitation could not be opened; `retry` when asking again may help. */
  const [failure, setFailure] = useState<{ message: string; retry: boolean } | null>(null);
  const [way, setWay] = useState<"new" | "existing">("new");
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
