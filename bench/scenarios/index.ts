/** The scenarios of bench/run.ts, in the order they run and the report shows them. */
import { badKey } from "./bad-key.js";
import { deepPage } from "./deep-page.js";
import { fields } from "./fields.js";
import { get } from "./get.js";
import { get304 } from "./get-304.js";
import { getBySlug } from "./get-by-slug.js";
import { list } from "./list.js";
import { list304 } from "./list-304.js";
import type { Scenario } from "./scenario.js";
import { tagPageCommon, tagPageRare } from "./tag-page.js";
import { tags } from "./tags.js";
import { walk } from "./walk.js";

export const SCENARIOS: readonly Scenario[] = [
  get,
  getBySlug,
  list,
  fields,
  deepPage,
  walk,
  tagPageCommon,
  tagPageRare,
  tags,
  get304,
  list304,
  badKey,
];
export const SCENARIO_IDS: readonly string[] = SCENARIOS.map((s) => s.id);
