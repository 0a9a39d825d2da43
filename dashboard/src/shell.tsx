import type { ComponentChildren } from "preact";
import { useEffect, useRef, useState } from "preact/hooks";
import { api, call, type Me, type Workspace } from "./api.js";
import { FlashNotice, FlashProvider, useFlashState } from "./components/flash.js";
import { Account } from "./features/account/account.js";
import { Authors } from "./features/authors/authors.js";
import { BlogEditor } from "./features/blogs/blog-editor.js";
import { Blogs } from "./features/blogs/blogs.js";
import { Keys } from "./features/keys/keys.js";
import { Media } from "./features/media/media.js";
import { Members } from "./features/team/members.js";
import { WebhookLog } from "./features/webhooks/webhook-log.js";
import { Webhooks } from "./features/webhooks/webhooks.js";
import { TwoStepRequired } from "./features/workspaces/two-step-required.js";
import { rememberedWorkspace, rememberWorkspace } from "./features/workspaces/workspace-choice.js";
import { Header } from "./header.js";
import { useTitle } from "./hooks.js";
import { hrefOf, navigate, onLinkClick, useRoute } from "./router.js";

interface ShellProps {
  me: Me;
  onMeChange: (me: Me) => void;
  onSignedOut: () => void;
}

/** The signed-in frame: header, then the screen the URL names, in the workspace it names. */
export function Shell({ me, onMeChange, onSignedOut }: ShellProps) {
  const route = useRoute();
  const [creating, setCreating] = useState(false);
  const wsId = "ws" in route ? route.ws : null;
  const workspace = me.workspaces.find((w) => w.id === wsId) ?? null;
  const home = route.name === "home" ? rememberedWorkspace(me.workspaces) : undefined;
  /** The workspace requires two-step sign-in of its owners, and this owner has not turned it on. */
  const locked =
    workspace !== null &&
    workspace.role === "owner" &&
    workspace.ownersNeedTwoStep &&
    !me.twoStep.enabled;
  const changeWorkspace = (changed: Workspace) =>
    onMeChange({
      ...me,
      workspaces: me.workspaces.map((w) => (w.id === changed.id ? changed : w)),
    });

  useEffect(() => {
    // Blogs, for everyone: what a writer comes for, and the owner too most days.
    if (home) navigate(hrefOf({ name: "blogs", ws: home.id, status: null }), { replace: true });
  }, [home?.id]);
  useEffect(() => {
    if (workspace) rememberWorkspace(workspace.id);
  }, [workspace?.id]);

  // After a navigation, move focus to the new screen's heading (not on filter changes, nor
  // when a new blog's first save gives the editor its address).
  const screen = `${route.name}/${wsId}`;
  const flash = useFlashState(screen);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.querySelector<HTMLElement>("main h1")?.focus();
  }, [screen]);

  let content = null;
  if (route.name === "home" && me.workspaces.length === 0) {
    content = (
      <Missing
        title="No workspace yet"
        action={
          <button type="button" class="button primary" onClick={() => setCreating(true)}>
            Create workspace
          </button>
        }
      >
        A workspace holds blogs and API keys. Create one, or ask an owner to invite you to theirs.
      </Missing>
    );
  } else if (route.name === "home") {
    content = null; // redirecting
  } else if (route.name === "account") {
    content = <Account me={me} onMeChange={onMeChange} onSignedOutEverywhere={onSignedOut} />;
  } else if (route.name === "notFound") {
    content = <Missing title="Page not found">There is nothing at this address.</Missing>;
  } else if (!workspace) {
    content = (
      <Missing title="Workspace not found">
        It does not exist, or you are not one of its members.
      </Missing>
    );
  } else if (locked) {
    content = <TwoStepRequired workspace={workspace} />;
  } else if (route.name === "keys") {
    content = (
      <Keys
        key={workspace.id}
        workspace={workspace}
        status={route.status ?? null}
        onWorkspaceChange={changeWorkspace}
      />
    );
  } else if (route.name === "members") {
    content = (
      <Members
        key={workspace.id}
        workspace={workspace}
        meId={me.user.id}
        onOwnMembershipChanged={async (left) => {
          onMeChange(await call(api.GET("/me")));
          if (left) navigate(hrefOf({ name: "home" }), { replace: true });
        }}
        onWorkspaceChange={changeWorkspace}
      />
    );
  } else if (route.name === "authors") {
    content = <Authors key={workspace.id} workspace={workspace} />;
  } else if (route.name === "media") {
    content = <Media key={workspace.id} workspace={workspace} />;
  } else if (route.name === "webhooks") {
    content = <Webhooks key={workspace.id} workspace={workspace} />;
  } else if (route.name === "webhookLog") {
    content = (
      <WebhookLog
        key={`${workspace.id}/${route.endpointId}`}
        workspace={workspace}
        endpointId={route.endpointId}
      />
    );
  } else if (route.name === "blogs") {
    content = (
      <Blogs
        key={workspace.id}
        workspace={workspace}
        status={route.status}
        q={route.q ?? ""}
        sort={route.sort ?? "newest"}
      />
    );
  } else {
    content = (
      <BlogEditor key={workspace.id} workspace={workspace} blogId={route.blogId} user={me.user} />
    );
  }

  return (
    <>
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <Header
        me={me}
        route={route}
        workspace={workspace}
        onSignedOut={onSignedOut}
        creating={creating}
        onCreatingChange={setCreating}
        onWorkspaceCreated={(w) => {
          onMeChange({ ...me, workspaces: [...me.workspaces, w] });
          navigate(hrefOf({ name: "blogs", ws: w.id, status: null }));
        }}
      />
      <main id="main" class="page">
        <FlashNotice message={flash.message} onDismiss={flash.dismiss} />
        <FlashProvider value={flash.flash}>{content}</FlashProvider>
      </main>
    </>
  );
}

interface MissingProps {
  title: string;
  children: string;
  /** The next step; default: a link to the dashboard's home. */
  action?: ComponentChildren;
}

function Missing({ title, children, action }: MissingProps) {
  useTitle(title);
  return (
    <div class="empty">
      <h1 tabIndex={-1}>{title}</h1>
      <p>{children}</p>
      {action ?? (
        <a class="button" href={hrefOf({ name: "home" })} onClick={onLinkClick}>
          Go to the dashboard
        </a>
      )}
    </div>
  );
}
