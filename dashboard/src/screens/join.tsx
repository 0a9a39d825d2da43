import { useEffect, useState } from "preact/hooks";
import { ApiError, api, call, type InvitationPreview, type Me, messageOf } from "../api.js";
import { AuthCard } from "../components/auth-card.js";
import { ErrorMessage, Loading } from "../components/status.js";
import { useTitle } from "../hooks.js";
import { AcceptAsMe, NewAccount } from "./join-accept.js";
import { SignIn } from "./sign-in.js";

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
