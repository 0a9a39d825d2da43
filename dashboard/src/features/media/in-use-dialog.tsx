import type { Media, MediaInUse } from "../../api.js";
import { ConfirmDialog } from "../../components/confirm.js";
import { hrefOf } from "../../router.js";

interface InUseDialogProps {
  workspaceId: string;
  media: Media;
  users: MediaInUse;
  onConfirm: () => Promise<void>;
  onClose: () => void;
}

/**
 * An image blogs show was not deleted (admin.yaml, deleteMedia's 409): the dialog names them,
 * released first, each a link to its editor (in a new tab: the question stays open), and asks
 * again. Cancel keeps the focus, so Enter is harmless.
 */
export function InUseDialog({ workspaceId, media, users, onConfirm, onClose }: InUseDialogProps) {
  const { total, blogs } = users;
  const unnamed = total - blogs.length;
  return (
    <ConfirmDialog
      title={`${media.name} is in use`}
      confirmLabel="Delete anyway"
      onConfirm={onConfirm}
      onClose={onClose}
    >
      <p>
        {total === 1 ? "A blog shows" : `${total} blogs show`} this image. Deleted, it shows as a
        broken image there, and to readers of released blogs at once.
      </p>
      <ul class="in-use-list" aria-label={`Blogs that show ${media.name}`}>
        {blogs.map((blog) => (
          <li key={blog.id}>
            <a
              href={hrefOf({ name: "blog", ws: workspaceId, blogId: blog.id })}
              target="_blank"
              rel="noopener"
            >
              {blog.title}
            </a>{" "}
            <span class={blog.status === "released" ? "badge released" : "badge draft"}>
              {blog.status === "released" ? "Released" : "Draft"}
            </span>
          </li>
        ))}
      </ul>
      {unnamed > 0 && <p>and {unnamed} more.</p>}
    </ConfirmDialog>
  );
}
