import type { Workspace } from "../../api.js";
import { useTitle } from "../../hooks.js";
import { hrefOf, onLinkClick } from "../../router.js";

/**
 * Instead of a workspace's screen, for an owner of a workspace that requires two-step sign-in of
 * its owners while they have not turned it on (admin.yaml, setOwnerTwoStep): the server answers
 * `403` to every one of its routes, so the screen says why and where to turn it on, rather than
 * showing a wall of refusals.
 */
export function TwoStepRequired({ workspace }: { workspace: Workspace }) {
  useTitle(`Two-step sign-in required · ${workspace.name}`);
  return (
    <div class="empty">
      <h1 tabIndex={-1}>Two-step sign-in required</h1>
      <p>
        {workspace.name} asks its owners to use two-step sign-in. Turn it on in Account, then come
        back: everything here opens again at once.
      </p>
      <a class="button primary" href={hrefOf({ name: "account" })} onClick={onLinkClick}>
        Turn it on in Account
      </a>
    </div>
  );
}
