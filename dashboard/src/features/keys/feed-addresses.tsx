import type { Ref } from "preact";
import { useId } from "preact/hooks";
import type { Workspace } from "../../api.js";
import { CopyOnceField } from "../../components/copy-once-field.js";

type PublicFeeds = NonNullable<Workspace["publicFeeds"]>;

/** The four feeds, in the order openapi.yaml's "Feeds" lists them, each with its label. */
const FEEDS: readonly { key: keyof PublicFeeds["urls"]; label: string }[] = [
  { key: "rss", label: "RSS feed" },
  { key: "atom", label: "Atom feed" },
  { key: "json", label: "JSON Feed" },
  { key: "sitemap", label: "Sitemap" },
];

interface FeedAddressesProps {
  feeds: PublicFeeds;
  /** The list's heading, which takes the focus when the addresses are new (on, renewed). */
  headingRef: Ref<HTMLHeadingElement>;
}

/**
 * The public addresses of the feeds, each with a Copy button (the copy pattern of every value
 * the dashboard hands over: "Copied" for two seconds, the text selected if the clipboard is
 * refused). None takes the focus by itself: the section decides where it goes.
 */
export function FeedAddresses({ feeds, headingRef }: FeedAddressesProps) {
  const id = useId();
  return (
    <div class="feed-addresses">
      <h3 ref={headingRef} tabIndex={-1}>
        Addresses
      </h3>
      <p class="hint">
        Give them to feed readers and search engines, or link them from your pages:{" "}
        <code>{'<link rel="alternate" type="application/rss+xml" href="…">'}</code>.
      </p>
      {FEEDS.map(({ key, label }) => (
        <CopyOnceField
          key={key}
          id={`${id}-${key}`}
          label={label}
          value={feeds.urls[key]}
          what="address"
          focus={false}
        />
      ))}
    </div>
  );
}
