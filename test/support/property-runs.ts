/**
 * How many runs each consumer property test makes (fast-check's `numRuns`): `PROPERTY_RUNS`, a
 * whole number of at least 1, or 200. The second Node line of .ci/run sets 50 (README, "Scripts
 * and CI"). Anything else stops the file at load: a value fast-check would read as no run at all
 * (`abc`, `0`) would leave a property that cannot fail.
 */
export function propertyRuns(): number {
  const raw = process.env.PROPERTY_RUNS;
  if (raw === undefined || raw === "") return 200;
  const runs = Number(raw);
  if (!Number.isInteger(runs) || runs < 1) {
    throw new Error(`PROPERTY_RUNS is "${raw}": a whole number of runs, at least 1`);
  }
  return runs;
}
