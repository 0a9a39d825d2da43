// The sanitiser does what its documented policy says (render.ts POLICY and
// the consumer spec's `bodyHtml`), rule by rule, for Markdown and for raw HTML in Markdown.
import { describe, expect, it } from "vitest";
import { renderBody, renderMarkdown } from "../../server/src/blogs/render.js";

const LINK_REL = 'rel="noopener noreferrer nofollow"';

describe("sanitiser policy: links", () => {
  it("every link gets rel=noopener noreferrer nofollow, whatever rel it was written with", () => {
    expect(renderMarkdown("[a](https://example.com/a)")).toBe(
      `<p><a href="https://example.com/a" ${LINK_REL}>a</a></p>`,
    );
    expect(renderMarkdown('<a href="https://example.com" rel="opener">x</a>')).toContain(LINK_REL);
    expect(renderMarkdown('<a href="https://example.com" rel="opener">x</a>')).not.toContain(
      '"opener"',
    );
  });

  it("absolute http, https and mailto links are kept", () => {
    for (const href of ["http://example.com/x", "https://example.com/y?q=1#f", "mailto:a@b.c"]) {
      expect(renderMarkdown(`[t](${href})`)).toContain(`href="${href.replace("&", "&amp;")}"`);
    }
  });

  it("relative, protocol-relative and non-http schemes lose their href; the text stays", () => {
    const hrefs = [
      "/about",
      "about.html",
      "../up",
      "#section",
      "?q=1",
      "//evil.example/x",
      "javascript:alert(1)",
      "JaVaScRiPt:alert(1)",
      "java\tscript:alert(1)",
      "data:text/html;base64,PHNjcmlwdD4=",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "ftp://example.com/f",
    ];
    for (const href of hrefs) {
      for (const html of [
        renderMarkdown(`[text](<${href}>)`),
        renderMarkdown(`<a href="${href}">text</a>`),
      ]) {
        expect(html, href).not.toContain("href=");
        expect(html, href).toContain(`<a ${LINK_REL}>text</a>`);
      }
    }
  });

  it("no name or id attribute survives (no DOM clobbering on the consumer's page)", () => {
    const html = renderMarkdown(
      '<a name="location" href="https://example.com">x</a> <img id="cookie" name="forms" src="https://example.com/i.png"> <p id="body">y</p>',
    );
    expect(html).not.toMatch(/\b(name|id)=/);
  });
});

describe("sanitiser policy: images", () => {
  it("images over absolute http(s) are kept with their alt, title and size", () => {
    expect(renderMarkdown('![alt](https://example.com/i.png "t")')).toBe(
      '<p><img src="https://example.com/i.png" alt="alt" title="t" /></p>',
    );
    expect(renderMarkdown('<img src="http://example.com/i.png" width="10" height="20">')).toBe(
      '<img src="http://example.com/i.png" width="10" height="20" />',
    );
  });

  it("srcset, sizes, loading and decoding written in a body are dropped: only the library's images get them, after sanitising (README Media)", () => {
    expect(
      renderMarkdown(
        '<img src="https://example.com/i.png" srcset="https://evil.example/x.png 2x" sizes="1px" loading="eager" decoding="sync">',
      ),
    ).toBe('<img src="https://example.com/i.png" />');
  });

  it("images from any other source are removed whole", () => {
    for (const src of [
      "/i.png",
      "i.png",
      "//evil.example/i.png",
      "data:image/png;base64,iVBORw0KGgo=",
      "javascript:alert(1)",
      "mailto:a@b.c",
    ]) {
      expect(renderMarkdown(`![alt](<${src}>)`), src).toBe("<p></p>");
      expect(renderMarkdown(`<img src="${src}" alt="a">`), src).toBe("");
    }
  });
});

describe("sanitiser policy: no active content", () => {
  it("scripts, styles, frames, forms, objects and event handlers are removed", () => {
    const html = renderMarkdown(
      [
        "<script>alert(1)</script>",
        "<style>body{display:none}</style>",
        '<iframe src="https://example.com"></iframe>',
        '<form action="https://example.com"><button>go</button></form>',
        '<object data="x"></object><embed src="x">',
        '<p onclick="alert(1)" style="color:red">text</p>',
        '<svg onload="alert(1)"><circle /></svg>',
        '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
        '<meta http-equiv="refresh" content="0;url=https://evil.example">',
        '<base href="https://evil.example/">',
      ].join("\n\n"),
    );
    expect(html).not.toMatch(
      /<(script|style|iframe|form|button|object|embed|svg|math|meta|base)\b/i,
    );
    expect(html).not.toMatch(/\bon[a-z]+=|style=|javascript:/i);
    expect(html).toContain("<p>text</p>");
  });

  it("task-list checkboxes are kept, as disabled inputs and nothing more", () => {
    const html = renderMarkdown("- [x] done\n- [ ] todo");
    expect(html).toContain('<li><input checked disabled type="checkbox" /> done</li>');
    expect(html).toContain('<li><input disabled type="checkbox" /> todo</li>');
    expect(renderMarkdown('<input type="checkbox" name="q" onclick="x()">')).toBe(
      '<input type="checkbox" disabled />',
    );
    expect(renderMarkdown('<input type="text" value="v">')).toBe("");
  });
});

describe("sanitiser policy: the excerpt", () => {
  it("is plain text from the first paragraph, entities decoded: consumers must escape it", () => {
    const rendered = renderBody("Use `<b>` & `a < b` here.\n\nSecond.");
    expect(rendered).toEqual({
      bodyHtml:
        "<p>Use <code>&lt;b&gt;</code> &amp; <code>a &lt; b</code> here.</p>\n<p>Second.</p>",
      excerpt: "Use <b> & a < b here.",
      readingTimeMinutes: 1,
    });
  });
});
