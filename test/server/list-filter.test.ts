import { describe, expect, it } from "vitest";
import { instantOf, parseListFilter } from "../../server/src/blogs/list-filter.js";

// openapi.yaml, "Archives": releasedAfter and releasedBefore are RFC 3339 date-times, compared
// exactly with the stored release times (whole milliseconds).
const iso = (text: string) => instantOf(text)?.toISOString() ?? null;

describe("an archive bound is the first millisecond at or after the instant it names", () => {
  it.each([
    ["2026-03-01T00:00:00Z", "2026-03-01T00:00:00.000Z"],
    ["2026-03-01t00:00:00z", "2026-03-01T00:00:00.000Z"],
    ["2026-03-01 00:00:00Z", "2026-03-01T00:00:00.000Z"],
    ["2026-03-01T01:00:00+01:00", "2026-03-01T00:00:00.000Z"],
    ["2026-03-01T00:00:00-0130", "2026-03-01T01:30:00.000Z"],
    ["2026-03-01T00:00:00.5Z", "2026-03-01T00:00:00.500Z"],
    ["2026-03-01T00:00:00.123Z", "2026-03-01T00:00:00.123Z"],
    // A fraction finer than a millisecond: the next millisecond, so t ≥ x and t < x stay exact.
    ["2026-03-01T00:00:00.0000001Z", "2026-03-01T00:00:00.001Z"],
    ["2026-03-01T00:00:00.1230000Z", "2026-03-01T00:00:00.123Z"],
    ["2026-12-31T23:59:59.9999Z", "2027-01-01T00:00:00.000Z"],
    // A leap second, fraction or not, compares as the next minute's start.
    ["2016-12-31T23:59:60Z", "2017-01-01T00:00:00.000Z"],
    ["2016-12-31T23:59:60.5Z", "2017-01-01T00:00:00.000Z"],
    // Years before 100 are themselves (Date.UTC would read them as 19xx); year 0 is leap.
    ["0099-03-01T00:00:00Z", "0099-03-01T00:00:00.000Z"],
    ["0000-02-29T00:00:00Z", "0000-02-29T00:00:00.000Z"],
    ["2024-02-29T00:00:00Z", "2024-02-29T00:00:00.000Z"],
  ])("%s → %s", (text, expected) => {
    expect(iso(text)).toBe(expected);
  });

  it.each([
    "2026-03-01",
    "2026-03-01T00:00:00",
    "2026-02-29T00:00:00Z",
    "2026-13-01T00:00:00Z",
    "2026-03-00T00:00:00Z",
    "2026-03-01T24:00:00Z",
    "2026-03-01T00:60:00Z",
    "2026-03-01T00:00:61Z",
    "2026-03-01T00:00:00+24:00",
    "2026-03-01T00:00:00+01:60",
    "2026-03-01T00:00:00 01:00",
    "yesterday",
  ])("%s is not an RFC 3339 date-time", (text) => {
    expect(instantOf(text)).toBeNull();
  });
});

describe("a list filter is its own representation and walk (openapi.yaml, Archives)", () => {
  it("no filter and a tag set alone keep the keys and scopes they had", () => {
    expect(parseListFilter(null, {})).toMatchObject({ key: "", scope: null });
    const tags = { tags: ["news"], key: '["news"]', scope: "abc" };
    expect(parseListFilter(tags, {})).toMatchObject({ key: 'tags=["news"]', scope: "abc" });
  });

  it("each filter has a key and a scope of its own; the same bounds spelled otherwise are one", () => {
    const a = parseListFilter(null, { releasedAfter: "2026-03-01T00:00:00Z" });
    const same = parseListFilter(null, { releasedAfter: "2026-03-01T01:00:00+01:00" });
    const other = parseListFilter(null, { releasedBefore: "2026-03-01T00:00:00Z" });
    const featured = parseListFilter(null, { featured: true });
    expect(same.key).toBe(a.key);
    expect(new Set([a.key, other.key, featured.key]).size).toBe(3);
    expect(new Set([a.scope, other.scope, featured.scope]).size).toBe(3);
  });

  it("a range whose end is not after its start is refused, naming both", () => {
    for (const [after, before] of [
      ["2026-03-01T00:00:00Z", "2026-03-01T00:00:00Z"],
      ["2026-03-02T00:00:00Z", "2026-03-01T00:00:00Z"],
      // Equal once the offset is applied.
      ["2026-03-01T01:00:00+01:00", "2026-03-01T00:00:00Z"],
    ]) {
      expect(() => parseListFilter(null, { releasedAfter: after, releasedBefore: before })).toThrow(
        "releasedAfter and releasedBefore",
      );
    }
  });
});
