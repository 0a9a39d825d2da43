// The render pool's worker thread (render-pool.ts): one body at a time, off the request thread.
import { readlinkSync } from "node:fs";
import { type MessagePort, threadId } from "node:worker_threads";
import { type RenderedBody, type RenderRefusal, renderBody } from "./render.js";

export interface RenderTask {
  source: string;
  /** Told when the render starts, so the pool's time limit counts rendering, not queueing. */
  started: MessagePort;
}

/** What `started` is told: which thread renders, and its CPU time then (ms) where known. */
export interface RenderStart {
  readonly threadId: number;
  readonly cpuMs: number | undefined;
  /** The kernel's id of this thread (Linux), whose CPU priority the pool may lower. */
  readonly tid: number | undefined;
}

const cpuMs = (): number | undefined => {
  if (typeof process.threadCpuUsage !== "function") return undefined;
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

/** This thread's kernel id: `/proc/thread-self` links to `<pid>/task/<tid>` (Linux 3.17+). */
function kernelThreadId(): number | undefined {
  try {
    const tid = Number(readlinkSync("/proc/thread-self").split("/").pop());
    return Number.isSafeInteger(tid) && tid > 0 ? tid : undefined;
  } catch {
    return undefined;
  }
}

const tid = kernelThreadId();

/**
 * Rendered once as the module loads, before the pool counts the thread as ready: the first render
 * of a fresh isolate compiles marked's and the sanitiser's code and regular expressions, ~60 ms of
 * CPU for a 2 KB body against ~3 ms afterwards. A thread replacing one whose render timed out
 * would otherwise make that cost the next save's, whichever workspace it belongs to.
 */
const WARM_UP = `# Title

Some *emphasis*, **strong**, ~~gone~~, \`code\`, a [link](https://example.com/ "t"),
<https://example.org> and <b>raw</b> HTML.

- one
- [ ] a task
  1. nested

> a quote

\`\`\`js
let x = 1;
\`\`\`

| a | b |
|:-|-:|
| 1 | 2 |

![image](https://example.com/i.png)

---
`;
renderBody(WARM_UP);

export default function render({ source, started }: RenderTask): RenderedBody | RenderRefusal {
  started.postMessage({ threadId, cpuMs: cpuMs(), tid } satisfies RenderStart);
  started.close();
  return renderBody(source);
}
