import { fileURLToPath } from "node:url";

/** Files the server reads, located from this module (works from src/ and from dist/). */
const fromHere = (relative: string): string => fileURLToPath(new URL(relative, import.meta.url));

export const CONSUMER_SPEC_PATH = fromHere("../../../openapi/openapi.yaml");
export const DOCS_HTML_PATH = fromHere("../../dist/docs/index.html");
export const ADMIN_SPEC_PATH = fromHere("../../../openapi/admin.yaml");
export const DASHBOARD_DIST_PATH = fromHere("../../../dashboard/dist");
