import { defineCollection } from "astro:content";
import { pressroomLoader } from "@pressroom/astro";

const apiKey = process.env.PRESSROOM_API_KEY;
const baseUrl = process.env.PRESSROOM_BASE_URL;
if (!apiKey || !baseUrl) {
  throw new Error("Set PRESSROOM_API_KEY (a cp_live_… key) and PRESSROOM_BASE_URL to build.");
}

/**
 * The workspace's released blogs, without the Markdown source the pages never show. The first
 * build loads them all; later builds only what changed (packages/astro/README.md).
 */
const blog = defineCollection({
  loader: pressroomLoader({
    apiKey,
    baseUrl,
    fields: [
      "slug",
      "title",
      "excerpt",
      "bodyHtml",
      "tags",
      "authorName",
      "authors",
      "coverImageUrl",
      "coverImageAlt",
      "metaTitle",
      "metaDescription",
      "readingTimeMinutes",
      "releasedAt",
      "updatedAt",
    ],
    ...(process.env.PRESSROOM_TAG ? { tag: process.env.PRESSROOM_TAG } : {}),
  }),
});

export const collections = { blog };
