import type { BodyRow } from "./conflict.js";
import "./conflict.css";

/** What the two sides of a body diff are: column headings, and short names for the marks. */
export interface DiffSides {
  /** The left (older, −) column's heading: "Theirs (saved)". */
  left: string;
  /** The right (newer, +) column's heading: "Yours (not saved)". */
  right: string;
  /** Short names, read out before a line only one side has and shown in the phone's legend. */
  leftWho: string;
  rightWho: string;
}

/**
 * A body line diff (conflict.ts `bodyRows`), the left side's lines marked − and the right's +,
 * side by side; stacked into one column on a phone, where the legend tells the marks apart.
 */
export function BodyDiff({ rows, sides }: { rows: BodyRow[]; sides: DiffSides }) {
  const visible = rows.some((r) => r.kind === "changed");
  return (
    <table class="conflict-body">
      <caption>
        Body{" "}
        <span class="conflict-legend">
          (− {sides.leftWho.toLowerCase()}, + {sides.rightWho.toLowerCase()})
        </span>
      </caption>
      <thead>
        <tr>
          <th scope="col">{sides.left}</th>
          <th scope="col">{sides.right}</th>
        </tr>
      </thead>
      <tbody>
        {!visible && (
          <tr>
            <td colSpan={2} class="skipped">
              The two differ only in blank space at the end of a line or of the text.
            </td>
          </tr>
        )}
        {rows.map((row, i) =>
          row.kind === "same" ? (
            <tr key={i}>
              <td colSpan={2} class="same">
                {row.text}
              </td>
            </tr>
          ) : row.kind === "skipped" ? (
            <tr key={i}>
              <td colSpan={2} class="skipped">
                {row.lines === 1 ? "1 unchanged line" : `${row.lines} unchanged lines`}
              </td>
            </tr>
          ) : (
            <tr key={i}>
              <Side text={row.theirs} side="left" who={sides.leftWho} />
              <Side text={row.mine} side="right" who={sides.rightWho} />
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

function Side({ text, side, who }: { text: string | null; side: "left" | "right"; who: string }) {
  if (text === null) return <td class="absent" />;
  const Tag = side === "left" ? "del" : "ins";
  return (
    <td class={side === "left" ? "theirs" : "mine"}>
      <span aria-hidden="true" class="mark">
        {side === "left" ? "−" : "+"}
      </span>
      <Tag>
        <span class="visually-hidden">{who} only: </span>
        {text}
      </Tag>
    </td>
  );
}
