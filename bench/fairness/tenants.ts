/**
 * The two tenants of the fairness bench, made through the admin API only (so the same script
 * measures older builds): tenant A, whose experience is measured (a key, released blogs, a
 * webhook endpoint that answers at once), and tenant B, the abuser (its own account, its own
 * workspace, endpoints that never answer).
 */
import { type AdminCall, ANY_VERSION, adminClient, ok } from "../admin-client.js";
import { type Receiver, startSilentEndpoint } from "./http.js";

/** Tenant B as its abusers need it: where it works, and how it signs in. */
export interface TenantBPlace {
  readonly email: string;
  readonly password: string;
  readonly workspace: string;
  readonly endpoints: readonly string[];
  readonly blogs: readonly string[];
}

/** Tenant B signed in. */
export interface TenantB extends TenantBPlace {
  readonly admin: AdminCall;
}

export interface Tenants {
  readonly a: { readonly admin: AdminCall; readonly workspace: string; readonly key: string };
  readonly b: TenantBPlace;
  close(): Promise<void>;
}

/** Signs tenant B in, with a session of its own (an abuser process's). */
export async function signInB(base: string, place: TenantBPlace): Promise<TenantB> {
  const admin = adminClient(base);
  ok(
    "B signs in",
    await admin("POST", "/session", { email: place.email, password: place.password }),
  );
  return { ...place, admin };
}

const BODY = "A paragraph of *ordinary* text with a [link](https://example.com/).\n\n".repeat(30);
const PASSWORD = "bench password 1";
const B_EMAIL = "b@example.com";

/** Creates a blog in `workspace` and releases it; its ID. */
export async function releasedBlog(admin: AdminCall, workspace: string, title: string) {
  const blog = ok(
    "create blog",
    await admin<{ id: string }>("POST", `/workspaces/${workspace}/blogs`, {
      title,
      bodyMarkdown: BODY,
    }),
  );
  ok(
    "release",
    await admin(
      "POST",
      `/workspaces/${workspace}/blogs/${blog.id}/release`,
      undefined,
      ANY_VERSION,
    ),
  );
  return blog.id;
}

export const ORDINARY_BODY = BODY;

export async function makeTenants(base: string, receiver: Receiver): Promise<Tenants> {
  const owner = adminClient(base);
  const me = ok(
    "setup",
    await owner<{ workspaces: { id: string }[] }>("POST", "/setup", {
      name: "Tenant A",
      email: "a@example.com",
      password: PASSWORD,
      workspaceName: "Tenant A",
    }),
  );
  const wsA = me.workspaces[0]?.id ?? "";
  const key = ok(
    "mint key",
    await owner<{ secret: string }>("POST", `/workspaces/${wsA}/keys`, { name: "site" }),
  ).secret;
  for (let i = 0; i < 40; i++) await releasedBlog(owner, wsA, `Tenant A blog ${i}`);
  ok(
    "A's endpoint",
    await owner("POST", `/workspaces/${wsA}/webhooks`, {
      url: receiver.url,
      events: ["blog.released"],
    }),
  );

  // Tenant B: a workspace of its own, run by an account of its own (joined by invitation).
  const wsB = ok(
    "workspace B",
    await owner<{ id: string }>("POST", "/workspaces", { name: "Tenant B" }),
  ).id;
  const invitation = ok(
    "invite B",
    await owner<{ link: string }>("POST", `/workspaces/${wsB}/invitations`, {
      email: B_EMAIL,
      role: "owner",
    }),
  );
  const abuser = adminClient(base);
  ok(
    "B joins",
    await abuser("POST", "/invitations/accept", {
      token: invitation.link.split("#/join/")[1] ?? "",
      name: "Tenant B",
      password: PASSWORD,
    }),
  );
  const silent = await Promise.all(Array.from({ length: 5 }, () => startSilentEndpoint()));
  const endpoints: string[] = [];
  for (const s of silent) {
    const created = ok(
      "B's endpoint",
      await abuser<{ endpoint: { id: string } }>("POST", `/workspaces/${wsB}/webhooks`, {
        url: s.url,
        events: ["blog.released", "blog.updated", "blog.unreleased", "blog.removed"],
      }),
    );
    endpoints.push(created.endpoint.id);
  }
  const blogs: string[] = [];
  for (let i = 0; i < 5; i++) blogs.push(await releasedBlog(abuser, wsB, `Tenant B blog ${i}`));
  return {
    a: { admin: owner, workspace: wsA, key },
    b: { email: B_EMAIL, password: PASSWORD, workspace: wsB, endpoints, blogs },
    close: async () => {
      await Promise.all(silent.map((s) => s.close()));
    },
  };
}
