import { fillReadingTimes } from "./blogs/reading-time-migration.js";
import { fillSearchFields } from "./blogs/search-migration.js";
import { fillStagedMediaIds } from "./blogs/staged-media-migration.js";
import { moveStagedContentApart } from "./blogs/staged-migration.js";
import { normaliseStoredTags } from "./blogs/tag-migration.js";
import type { Migration } from "./platform/db/migrations.js";

/**
 * The data migrations every start runs (`openDatabase`), in order: the tag rewrite first, so the
 * search fields are derived from tags in normal form.
 */
export const MIGRATIONS: readonly Migration[] = [
  { name: "tags in normal form", run: normaliseStoredTags },
  { name: "blog search fields", run: fillSearchFields },
  { name: "pending changes apart from their blog", run: moveStagedContentApart },
  { name: "blog reading times", run: fillReadingTimes },
  { name: "library images of pending changes", run: fillStagedMediaIds },
];
