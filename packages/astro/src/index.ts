/**
 * @pressroom/astro — an Astro content-layer loader for a Pressroom workspace's released blogs,
 * kept up to date build after build through the changes feed of `@pressroom/sdk`.
 */
export type { PressroomLoader, PressroomLoaderOptions, PressroomSource } from "./loader.js";
export { pressroomLoader } from "./loader.js";
export type { BlogData, BlogSchema } from "./schema.js";
export { blogSchema, schemaFor } from "./schema.js";
