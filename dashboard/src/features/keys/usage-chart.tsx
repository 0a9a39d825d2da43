import type { components } from "../../../../openapi/generated/admin.js";
import "./usage.css";

export type UsageBucket = components["schemas"]["UsageBucket"];

/**
 * The outcomes drawn, bottom to top, each in its own colour (every one at least 3:1 against the
 * white background, WCAG 1.4.11), with a white gap between segments so neighbours stay apart.
 */
const SEGMENTS = [
  { key: "served", label: "served (200, 304)", colour: "#3146a8" },
  { key: "notFound", label: "not found (404)", colour: "#58616d" },
  { key: "other", label: "other errors", colour: "#7a4b00" },
  { key: "rateLimited", label: "rate limited (429)", colour: "#b42318" },
] as const;
type Segment = (typeof SEGMENTS)[number]["key"];

const segmentCount = (b: UsageBucket, segment: Segment): number =>
  segment === "served" ? b.ok + b.notModified : b[segment];
const totalOf = (b: UsageBucket): number =>
  b.ok + b.notModified + b.notFound + b.rateLimited + b.other;
const count = (n: number) => n.toLocaleString("en");

/** One sentence of totals: what the chart shows, in words. */
export function usageSummary(buckets: UsageBucket[], span: string): string {
  const sum = (segment: Segment) => buckets.reduce((n, b) => n + segmentCount(b, segment), 0);
  const total = buckets.reduce((n, b) => n + totalOf(b), 0);
  if (total === 0) return `No requests in the ${span}.`;
  const parts = SEGMENTS.map((s) => `${count(sum(s.key))} ${s.label}`);
  return `${count(total)} requests in the ${span}: ${parts.join(", ")}.`;
}

interface ChartProps {
  buckets: UsageBucket[];
  /** "day" or "hour": how bucket starts are written. */
  unit: "day" | "hour";
  /** The chart's accessible name. */
  title: string;
  span: string;
}

const WIDTH = 600;
const HEIGHT = 140;

const labelOf = (iso: string, unit: "day" | "hour") =>
  unit === "day" ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;

/**
 * A hand-drawn bar chart of requests per bucket, stacked by outcome, 429s in red: an image
 * named by `title` and described by the totals sentence, with the numbers also in a table
 * behind a disclosure (the same data for screen readers and for reading exact values).
 */
export function UsageChart({ buckets, unit, title, span }: ChartProps) {
  const max = Math.max(1, ...buckets.map(totalOf));
  const step = WIDTH / Math.max(1, buckets.length);
  const barWidth = Math.max(1, step - 2);
  const summary = usageSummary(buckets, span);
  return (
    <figure class="usage-chart">
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={`${title}. ${summary}`}
        preserveAspectRatio="none"
        style={{ maxHeight: "160px", display: "block" }}
      >
        <line x1="0" y1={HEIGHT - 0.5} x2={WIDTH} y2={HEIGHT - 0.5} stroke="#b9c0ca" />
        {buckets.map((b, i) => {
          let y = HEIGHT;
          return (
            <g key={b.start} data-start={b.start}>
              {SEGMENTS.map((s) => {
                const value = segmentCount(b, s.key);
                if (value === 0) return null;
                const h = Math.max(1, (value / max) * (HEIGHT - 4));
                y -= h;
                return (
                  <rect
                    key={s.key}
                    data-outcome={s.key}
                    data-count={value}
                    x={i * step + 1}
                    y={y}
                    width={barWidth}
                    height={Math.max(0.5, h - 1)}
                    fill={s.colour}
                  >
                    <title>{`${labelOf(b.start, unit)}: ${count(value)} ${s.label}`}</title>
                  </rect>
                );
              })}
            </g>
          );
        })}
      </svg>
      <figcaption>
        <ul class="usage-legend">
          {SEGMENTS.map((s) => (
            <li key={s.key}>
              <svg width="12" height="12" aria-hidden="true" focusable="false">
                <rect width="12" height="12" fill={s.colour} />
              </svg>{" "}
              {s.label}
            </li>
          ))}
        </ul>
        <p>{summary}</p>
        <details>
          <summary>Show the numbers</summary>
          <table class="table usage-table">
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">{unit === "day" ? "Day" : "Hour"}</th>
                <th scope="col">2xx</th>
                <th scope="col">304</th>
                <th scope="col">404</th>
                <th scope="col">429</th>
                <th scope="col">Other</th>
              </tr>
            </thead>
            <tbody>
              {buckets
                .filter((b) => totalOf(b) > 0)
                .map((b) => (
                  <tr key={b.start}>
                    <th scope="row">{labelOf(b.start, unit)}</th>
                    <td>{count(b.ok)}</td>
                    <td>{count(b.notModified)}</td>
                    <td>{count(b.notFound)}</td>
                    <td>{count(b.rateLimited)}</td>
                    <td>{count(b.other)}</td>
                  </tr>
                ))}
            </tbody>
          </table>
        </details>
      </figcaption>
    </figure>
  );
}
