// The render pool's worker thread (render-pool.ts): one body at a time, off the request thread.
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
}

const cpuMs = (): number | undefined => {
  if (typeof process.threadCpuUsage !== "function") return undefined;
  const { user, system } = process.threadCpuUsage();
  return (user + system) / 1000;
};

export default function render({ source, started }: RenderTask): RenderedBody | RenderRefusal {
  started.postMessage({ threadId, cpuMs: cpuMs() } satisfies RenderStart);
  started.close();
  return renderBody(source);
}
