import { notFound } from "next/navigation";
import { blogBySlug } from "../../../lib/pressroom";

/** One released blog, from the Data Cache until a webhook names it (lib/pressroom.ts). */
export default async function BlogPage({ params }: { params: Promise<{ slug: string }> }) {
  const blog = await blogBySlug((await params).slug);
  if (blog === undefined) notFound();
  return (
    <article>
      <h1>{blog.title}</h1>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Pressroom's bodyHtml is rendered and sanitised by the server (no script, event handler or style survives it). */}
      <div dangerouslySetInnerHTML={{ __html: blog.bodyHtml }} />
    </article>
  );
}
