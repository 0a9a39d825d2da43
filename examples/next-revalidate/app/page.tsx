import Link from "next/link";
import { connection } from "next/server";
import { listBlogs } from "../lib/pressroom";

/**
 * The released blogs. Rendered at each request (`connection()`: no Pressroom server is needed
 * at build time), from the Data Cache: the API is asked again only after a webhook.
 */
export default async function Home() {
  await connection();
  const blogs = await listBlogs();
  return (
    <main>
      <h1>Blogs</h1>
      <ul>
        {blogs.map((blog) => (
          <li key={blog.id}>
            <Link href={`/blogs/${blog.slug}`}>{blog.title}</Link>
            <p>{blog.excerpt}</p>
          </li>
        ))}
      </ul>
    </main>
  );
}
