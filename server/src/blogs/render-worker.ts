// The render pool's worker thread (render-pool.ts): one body at a time, off the request thread.
import type { MessagePort } from "node:worker_threads";
import { type RenderedBody, type RenderRefusal, renderBody } from "./render.js";

export interface RenderTask {
  source: string;
  /** Told when the render starts, so the pool's time limit counts rendering, not queueing. */
  started: MessagePort;
}

export default function render({ source, started }: RenderTask): RenderedBody | RenderRefusal {
  started.postMessage("started");
  started.close();
  return renderBody(source);
}
