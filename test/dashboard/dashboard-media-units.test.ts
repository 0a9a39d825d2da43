// The media library's words and addresses in the dashboard (dashboard/src/features/media/
// media-text.ts; admin.yaml, tag Media): the thumbnail a grid loads, the absolute URL a cover
// and a body need, the Markdown of an image, a pasted file's name, and what each refusal of an
// upload (413, 415, 422, 503) says.
import { describe, expect, it } from "vitest";
import { ApiError } from "../../dashboard/src/api.js";
import {
  absoluteUrl,
  factsOf,
  filesOf,
  markdownImage,
  thumbnailOf,
  uploadNameOf,
  uploadProblem,
} from "../../dashboard/src/features/media/media-text.js";

const URL_PATH = "/api/consumer/media/med_abc123/holiday.png";

describe("addresses (admin.yaml, Media.url; openapi.yaml, getMediaFile)", () => {
  it("a thumbnail is 256 px wide WebP, a width the server makes copies at", () => {
    expect(thumbnailOf({ url: URL_PATH })).toBe(`${URL_PATH}?w=256&fm=webp`);
    expect(thumbnailOf({ url: `https://cdn.example.com${URL_PATH}` }, 640)).toBe(
      `https://cdn.example.com${URL_PATH}?w=640&fm=webp`,
    );
  });

  it("a path is completed with the dashboard's origin; an absolute URL is kept", () => {
    expect(absoluteUrl(URL_PATH, "http://127.0.0.1:3000")).toBe(`http://127.0.0.1:3000${URL_PATH}`);
    expect(absoluteUrl(`https://media.example.com${URL_PATH}`, "http://127.0.0.1:3000")).toBe(
      `https://media.example.com${URL_PATH}`,
    );
  });
});

describe("Markdown of an image", () => {
  it("is ![alt](url), the alt on one line with brackets and backslashes escaped", () => {
    expect(markdownImage("A green field", "https://x.test/a.png")).toBe(
      "![A green field](https://x.test/a.png)",
    );
    expect(markdownImage("  Two\nlines [draft] \\ ok ", "https://x.test/a.png")).toBe(
      "![Two lines \\[draft\\] \\\\ ok](https://x.test/a.png)",
    );
    expect(markdownImage("", "https://x.test/a.png")).toBe("![](https://x.test/a.png)");
  });

  it("a URL with parentheses or spaces cannot end the link early", () => {
    expect(markdownImage("x", "https://x.test/a (1).png")).toBe(
      "![x](https://x.test/a%20%281%29.png)",
    );
  });
});

describe("files", () => {
  it("a pasted image without a name gets one of its type", () => {
    expect(uploadNameOf({ name: "", type: "image/jpeg" })).toBe("pasted-image.jpg");
    expect(uploadNameOf({ name: "", type: "image/webp" })).toBe("pasted-image.webp");
    expect(uploadNameOf({ name: "Photo 1.PNG", type: "image/png" })).toBe("Photo 1.PNG");
    expect(uploadNameOf({ name: "x".repeat(300), type: "" })).toHaveLength(200);
  });

  it("a paste takes only images; a drop on the screen takes every file", () => {
    const png = new File([new Uint8Array([1])], "a.png", { type: "image/png" });
    const text = new File(["hi"], "notes.txt", { type: "text/plain" });
    const data = { files: [png, text] } as unknown as DataTransfer;
    expect(filesOf(data, true)).toEqual([png]);
    expect(filesOf(data, false)).toEqual([png, text]);
    expect(filesOf(null, false)).toEqual([]);
  });

  it("a card says format, size in pixels and in bytes, each number kept with its unit", () => {
    expect(factsOf({ type: "png", width: 1200, height: 800, bytes: 49_152 })).toBe(
      "PNG · 1200\u00a0×\u00a0800 · 48\u00a0KB",
    );
    expect(factsOf({ type: "jpeg", width: 1, height: 1, bytes: 900 })).toBe(
      "JPEG · 1\u00a0×\u00a01 · 900\u00a0B",
    );
    expect(factsOf({ type: "webp", width: 9, height: 9, bytes: 3_250_000 })).toBe(
      "WEBP · 9\u00a0×\u00a09 · 3.1\u00a0MB",
    );
  });
});

describe("an upload refused (admin.yaml, uploadMedia)", () => {
  it("413, 415 and 422 say the server's reason, naming the file", () => {
    const too = new ApiError(
      "Image too large: at most 10485760 bytes (MEDIA_UPLOAD_LIMIT_BYTES).",
      413,
    );
    expect(uploadProblem("big.png", too)).toBe(
      "big.png was not uploaded. Image too large: at most 10485760 bytes (MEDIA_UPLOAD_LIMIT_BYTES).",
    );
    const type = new ApiError(
      "Not an image Pressroom takes: send JPEG, PNG, WebP, AVIF or GIF bytes.",
      415,
    );
    expect(uploadProblem("notes.txt", type)).toMatch(/^notes\.txt was not uploaded\. Not an image/);
    const pixels = new ApiError(
      "Image too large: 60000000 pixels, at most 40000000 (MEDIA_MAX_PIXELS).",
      422,
    );
    expect(uploadProblem("huge.png", pixels)).toMatch(/^huge\.png was not uploaded\. .*pixels/);
  });

  it("503 says the server is busy, and when to try again if its message does not", () => {
    const said = new ApiError(
      "Too many images of this workspace are being processed: try again in 1 second.",
      503,
      1,
    );
    expect(uploadProblem("a.png", said)).toBe(
      "a.png was not uploaded: the server is busy. Too many images of this workspace are being processed: try again in 1 second.",
    );
    expect(uploadProblem("a.png", new ApiError("Busy.", 503, 3))).toBe(
      "a.png was not uploaded: the server is busy. Busy. Try again in 3 seconds.",
    );
  });

  it("anything else, the network included, says it could not upload", () => {
    expect(uploadProblem("a.png", new ApiError("Could not reach the server.", 0))).toBe(
      "Could not upload a.png: Could not reach the server.",
    );
    expect(uploadProblem("a.png", new Error("boom"))).toBe("Could not upload a.png: boom");
  });
});
