import { useEffect, useRef, useState } from "preact/hooks";
import { api, call, type Workspace } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { FeedAddresses } from "./feed-addresses.js";
import { FeedTemplateForm } from "./feed-template-form.js";

interface PublicFeedsProps {
  workspace: Workspace;
  /** The workspace as saved, and what to tell about it ("Public feeds are on."). */
  onSaved: (workspace: Workspace, message: string) => void;
}

/** Where the focus goes once a change has rendered: the new addresses, or the section. */
type FocusTarget = "addresses" | "section";

/**
 * The workspace's public feeds (openapi.yaml, "Feeds"): RSS, Atom, JSON Feed and a sitemap of
 * the released blogs, readable with no key. The owner turns them on with a link template,
 * changes it, gives them new addresses or turns them off (both asked first: readers'
 * subscriptions stop working); members see them.
 */
export function PublicFeedsCard({ workspace, onSaved }: PublicFeedsProps) {
  const owner = workspace.role === "owner";
  const feeds = workspace.publicFeeds;
  const [dialog, setDialog] = useState<"renew" | "off" | null>(null);
  const [focus, setFocus] = useState<{ to: FocusTarget } | null>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const addressesRef = useRef<HTMLHeadingElement>(null);
  // After the render that shows the change, and after a closing dialog gave the focus back to
  // its button (gone, once feeds are off).
  useEffect(() => {
    if (focus === null) return;
    const frame = requestAnimationFrame(() =>
      (focus.to === "addresses" ? addressesRef : titleRef).current?.focus(),
    );
    return () => cancelAnimationFrame(frame);
  }, [focus]);

  const path = { params: { path: { workspaceId: workspace.id } } };
  const renew = async () => {
    const saved = await call(api.POST("/workspaces/{workspaceId}/public-feeds/renew", path));
    setDialog(null);
    onSaved(saved, "The feeds have new addresses: the old ones no longer work.");
    setFocus({ to: "addresses" });
  };
  const turnOff = async () => {
    const saved = await call(api.DELETE("/workspaces/{workspaceId}/public-feeds", path));
    setDialog(null);
    onSaved(saved, "Public feeds are off: their addresses no longer work.");
    setFocus({ to: "section" });
  };

  return (
    <section class="card limits public-feeds" aria-labelledby="public-feeds-title">
      <h2 id="public-feeds-title" ref={titleRef} tabIndex={-1}>
        Public feeds
      </h2>
      <p>
        {feeds
          ? "Feed readers and search engines follow your released blogs at these addresses, with no key. Each blog links to its page on your site."
          : "Turn on public feeds and anyone can follow your released blogs in a feed reader (RSS, Atom, JSON Feed), and search engines get a sitemap: no key needed. Each blog links to its page on your site."}
      </p>
      {feeds && <FeedAddresses feeds={feeds} headingRef={addressesRef} />}
      {owner && !feeds && (
        <FeedTemplateForm
          workspace={workspace}
          submitLabel="Turn on feeds"
          busyLabel="Turning on…"
          onSaved={(saved) => {
            onSaved(saved, "Public feeds are on.");
            setFocus({ to: "addresses" });
          }}
        />
      )}
      {owner && feeds && (
        <>
          <FeedTemplateForm
            workspace={workspace}
            submitLabel="Save"
            busyLabel="Saving…"
            onSaved={(saved) => onSaved(saved, "Saved: the feeds link to the new template.")}
          />
          <div class="feed-actions">
            <button type="button" class="button" onClick={() => setDialog("renew")}>
              Get new addresses
            </button>
            <button type="button" class="button danger-outline" onClick={() => setDialog("off")}>
              Turn off feeds
            </button>
          </div>
        </>
      )}
      {!owner && (
        <p class="hint">
          {feeds ? (
            <>
              Blogs link to <code>{feeds.linkTemplate}</code>.{" "}
            </>
          ) : null}
          Only the workspace's owner can turn public feeds on or off or change them.
        </p>
      )}
      {dialog === "renew" && (
        <ConfirmDialog
          title="Give the feeds new addresses?"
          confirmLabel="Get new addresses"
          onConfirm={renew}
          onClose={() => setDialog(null)}
        >
          <p>
            The current addresses stop working at once: everyone subscribed to them must be given
            the new ones. Do this when an address reached somewhere it should not.
          </p>
        </ConfirmDialog>
      )}
      {dialog === "off" && (
        <ConfirmDialog
          title="Turn off public feeds?"
          confirmLabel="Turn off feeds"
          onConfirm={turnOff}
          onClose={() => setDialog(null)}
        >
          <p>
            Their addresses stop working at once, and feed readers subscribed to them get nothing
            more. Turning feeds on again gives them new addresses.
          </p>
        </ConfirmDialog>
      )}
    </section>
  );
}
