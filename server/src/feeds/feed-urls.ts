/** The public feeds' addresses (openapi.yaml, "Feeds") on `origin`, by format. */
export const feedUrlsOf = (origin: string, feedId: string) => {
  const base = `${origin}/api/consumer/feeds/${feedId}`;
  return {
    rss: `${base}/rss.xml`,
    atom: `${base}/atom.xml`,
    json: `${base}/feed.json`,
    sitemap: `${base}/sitemap.xml`,
  };
};
