/** bench/latency.svg, the chart BENCHMARKS.md shows: hand-written SVG, no dependency. */
import { type Measured, pairs } from "./report.js";

const PERCENTILES: [string, string][] = [
  ["p1", "1"],
  ["p10", "10"],
  ["p25", "25"],
  ["p50", "50"],
  ["p75", "75"],
  ["p90", "90"],
  ["p97_5", "97.5"],
  ["p99", "99"],
  ["p99_9", "99.9"],
];

const esc = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/**
 * Small multiples: latency (ms) by percentile, floor, driver baseline and Pressroom, one panel per
 * scenario.
 */
export function renderSvg(results: Measured[]): string {
  const rows = pairs(results);
  const cols = 3;
  const pw = 300;
  const ph = 200;
  const m = { l: 44, r: 12, t: 28, b: 34 };
  const width = cols * pw;
  const height = Math.ceil(rows.length / cols) * ph + 30;
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif" font-size="10" role="img" aria-labelledby="title">`,
    `<title id="title">Latency by percentile, SQLite floor, driver baseline and Pressroom, per scenario</title>`,
    `<rect width="100%" height="100%" fill="#fff"/>`,
    `<g transform="translate(${width / 2 - 240}, 14)"><line x1="0" y1="0" x2="20" y2="0" stroke="#2da44e" stroke-width="2"/><text x="24" y="3">floor (node:http + node:sqlite)</text><line x1="190" y1="0" x2="210" y2="0" stroke="#999" stroke-width="2"/><text x="214" y="3">baseline (node:http + driver)</text><line x1="390" y1="0" x2="410" y2="0" stroke="#1f6feb" stroke-width="2"/><text x="414" y="3">Pressroom</text></g>`,
  ];
  rows.forEach(({ title, floor, base, ours }, i) => {
    const x0 = (i % cols) * pw;
    const y0 = 30 + Math.floor(i / cols) * ph;
    const innerW = pw - m.l - m.r;
    const innerH = ph - m.t - m.b;
    const values = [floor, base, ours].flatMap((r) => PERCENTILES.map(([k]) => r.latency[k] ?? 0));
    const max = Math.max(1, ...values) * 1.1;
    const x = (j: number) => x0 + m.l + (j / (PERCENTILES.length - 1)) * innerW;
    const y = (v: number) => y0 + m.t + innerH - (v / max) * innerH;
    out.push(`<text x="${x0 + m.l}" y="${y0 + 16}" font-weight="bold">${esc(title)}</text>`);
    out.push(
      `<line x1="${x0 + m.l}" y1="${y0 + m.t + innerH}" x2="${x0 + m.l + innerW}" y2="${y0 + m.t + innerH}" stroke="#333"/>`,
    );
    out.push(
      `<line x1="${x0 + m.l}" y1="${y0 + m.t}" x2="${x0 + m.l}" y2="${y0 + m.t + innerH}" stroke="#333"/>`,
    );
    for (let t = 0; t <= 4; t++) {
      const v = (max / 4) * t;
      out.push(
        `<line x1="${x0 + m.l}" y1="${y(v)}" x2="${x0 + m.l + innerW}" y2="${y(v)}" stroke="#eee"/>`,
      );
      out.push(
        `<text x="${x0 + m.l - 4}" y="${y(v) + 3}" text-anchor="end">${v < 10 ? v.toFixed(1) : v.toFixed(0)}</text>`,
      );
    }
    PERCENTILES.forEach(([, label], j) => {
      out.push(
        `<text x="${x(j)}" y="${y0 + m.t + innerH + 12}" text-anchor="middle">${label}</text>`,
      );
    });
    out.push(
      `<text x="${x0 + m.l + innerW / 2}" y="${y0 + ph - 6}" text-anchor="middle" fill="#555">percentile · latency ms</text>`,
    );
    for (const [r, colour] of [
      [floor, "#2da44e"],
      [base, "#999"],
      [ours, "#1f6feb"],
    ] as const) {
      const points = PERCENTILES.map(
        ([k], j) => `${x(j).toFixed(1)},${y(r.latency[k] ?? 0).toFixed(1)}`,
      ).join(" ");
      out.push(`<polyline points="${points}" fill="none" stroke="${colour}" stroke-width="2"/>`);
    }
  });
  out.push("</svg>");
  return `${out.join("\n")}\n`;
}
