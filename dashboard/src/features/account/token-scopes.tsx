import { useId } from "preact/hooks";
import { type AccessTokenScope, SCOPE_TEXT, SCOPES } from "./token-text.js";

interface TokenScopesProps {
  chosen: readonly AccessTokenScope[];
  /** The group's problem ("Choose at least one scope."), from the check on submit. */
  error?: string | undefined;
  onChange: (chosen: AccessTokenScope[]) => void;
}

/**
 * The scopes of a new token, one checkbox each, named by the scope and described by what it
 * allows. With a problem, every box is `aria-invalid` and described by it first, so the form's
 * check focuses the first box and the problem is read out with it.
 */
export function TokenScopes({ chosen, error, onChange }: TokenScopesProps) {
  const id = useId();
  const errorId = `${id}-error`;
  const toggle = (scope: AccessTokenScope, on: boolean) =>
    onChange(SCOPES.filter((s) => (s === scope ? on : chosen.includes(s))));
  return (
    <fieldset class="token-scopes" aria-describedby={`${id}-hint`}>
      <legend class="label-like">Scopes</legend>
      <p class="hint" id={`${id}-hint`}>
        What the token may do. It never does more than your role allows in each workspace.
      </p>
      {SCOPES.map((scope) => {
        const boxId = `${id}-${scope.replace(":", "-")}`;
        const describedBy = [error ? errorId : null, `${boxId}-text`].filter((x) => x !== null);
        return (
          <div class="token-scope" key={scope}>
            <input
              type="checkbox"
              id={boxId}
              checked={chosen.includes(scope)}
              aria-invalid={error ? true : undefined}
              aria-describedby={describedBy.join(" ")}
              onChange={(e) => toggle(scope, e.currentTarget.checked)}
            />
            <label for={boxId}>
              <code>{scope}</code>
            </label>
            <span class="hint" id={`${boxId}-text`}>
              {SCOPE_TEXT[scope]}
            </span>
          </div>
        );
      })}
      {error && (
        <p class="field-error" id={errorId}>
          {error}
        </p>
      )}
    </fieldset>
  );
}
