import { useRef, useState } from "preact/hooks";
import { ApiError, api, type Me, messageOf, requestsSettled, send, type Workspace } from "./api.js";
import { Logo } from "./components/logo.js";
import { ErrorMessage } from "./components/status.js";
import { NewWorkspaceDialog } from "./features/workspaces/new-workspace.js";
import { WorkspaceMenu } from "./features/workspaces/workspace-menu.js";
import { hrefOf, navigate, onLinkClick, type Route } from "./router.js";

interface HeaderProps {
  me: Me;
  route: Route;
  workspace: Workspace | null;
  onWorkspaceCreated: (workspace: Workspace) => void;
  onSignedOut: () => void;
  /** The new-workspace dialog is open (the shell opens it too, from an empty dashboard). */
  creating: boolean;
  onCreatingChange: (open: boolean) => void;
}

/** Brand, workspace switcher, sections, and the signed-in user with a sign-out button. */
export function Header(props: HeaderProps) {
  const { me, route, workspace, onWorkspaceCreated, onSignedOut } = props;
  const { creating, onCreatingChange: setCreating } = props;
  const [error, setError] = useState<string | null>(null);

  const switchTo = (id: string) => {
    navigate(
      hrefOf(
        route.name === "keys" ||
          route.name === "members" ||
          route.name === "webhooks" ||
          route.name === "authors" ||
          route.name === "media"
          ? { name: route.name, ws: id }
          : route.name === "webhookLog"
            ? { name: "webhooks", ws: id }
            : { name: "blogs", ws: id, status: null },
      ),
    );
  };
  const signingOut = useRef(false);
  const signOut = async () => {
    if (signingOut.current) return; // a second click would end an ended session: a 401
    signingOut.current = true;
    setError(null);
    await requestsSettled();
    try {
      await send(api.DELETE("/session"));
    } catch (err) {
      // 401: the session was already gone, which is what signing out wanted.
      if (!(err instanceof ApiError && err.status === 401)) {
        signingOut.current = false;
        return setError(messageOf(err));
      }
    }
    onSignedOut();
  };

  const link = (
    name: "keys" | "blogs" | "media" | "authors" | "webhooks" | "members",
    label: string,
  ) => {
    if (!workspace) return null;
    const current =
      route.name === name ||
      (name === "blogs" && route.name === "blog") ||
      (name === "webhooks" && route.name === "webhookLog");
    return (
      <a
        class="nav-link"
        href={hrefOf(
          name === "blogs" ? { name, ws: workspace.id, status: null } : { name, ws: workspace.id },
        )}
        aria-current={current ? "page" : undefined}
        onClick={onLinkClick}
      >
        {label}
      </a>
    );
  };

  return (
    <header class="topbar">
      <div class="topbar-inner">
        <a class="brand" href={hrefOf({ name: "home" })} onClick={onLinkClick}>
          <Logo /> Pressroom
        </a>
        <WorkspaceMenu
          workspaces={me.workspaces}
          current={workspace}
          onSwitch={switchTo}
          onCreate={() => setCreating(true)}
        />
        <nav aria-label="Sections" class="nav">
          {link("keys", "API keys")}
          {link("blogs", "Blogs")}
          {link("media", "Media")}
          {link("authors", "Authors")}
          {link("webhooks", "Webhooks")}
          {link("members", "Members")}
        </nav>
        <div class="account">
          <span class="account-name" title={me.user.email}>
            {me.user.name}
          </span>
          <a
            class="nav-link account-link"
            href={hrefOf({ name: "account" })}
            aria-current={route.name === "account" ? "page" : undefined}
            onClick={onLinkClick}
          >
            Account
          </a>
          <button type="button" class="button small" onClick={signOut}>
            Sign out
          </button>
        </div>
      </div>
      {error && <ErrorMessage message={`Could not sign out: ${error}`} onRetry={signOut} />}
      {creating && (
        <NewWorkspaceDialog
          onClose={() => setCreating(false)}
          onCreated={(w) => {
            setCreating(false);
            onWorkspaceCreated(w);
          }}
        />
      )}
    </header>
  );
}
