import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { messageOf } from "./api.js";

/** Values a load depends on, compared one by one as effect dependencies are. */
export type Inputs = readonly unknown[];

/** Asks for something; `signal` aborts once a newer request, or leaving the screen, makes it moot. */
export type Loader<T> = (signal: AbortSignal) => Promise<T>;

/** Why the latest request failed. */
export interface LoadFailure {
  /** The server's message (or the network's), for an `ErrorMessage`. */
  message: string;
  /** What was thrown: an `ApiError` tells the status. */
  cause: unknown;
}

export interface LoadOptions<T> {
  /** More values whose change asks again, keeping what is shown meanwhile (a parent's version). */
  refreshOn?: Inputs;
  /**
   * When a failure leaves the screen: on the next `"answer"` (default: a list refreshed in the
   * background keeps its error and "Try again" until then), or at once on the next `"request"`
   * (the screen shows it is loading instead).
   */
  clearError?: "answer" | "request";
  /** Called with every answer taken (not a stale one), in the same update as `data`. */
  onAnswer?: (data: T) => void;
}

export interface Load<T> {
  /** The latest answer for the current inputs; null before it (and at once when they change). */
  data: T | null;
  /** The latest failure; null after an answer (see `clearError`). */
  error: LoadFailure | null;
  /** A request for the current inputs is on its way (or about to start). */
  loading: boolean;
  /** Asks again with the same inputs ("Try again", a refresh); settles once answered or failed. */
  reload: () => Promise<void>;
  /** Runs another request (a next page) the same way: its answer replaces `data`. */
  run: (loader: Loader<T>) => Promise<void>;
  /** Changes what is shown without asking (a page fetched on the side appended to it). */
  mutate: (update: (data: T) => T) => void;
}

interface State<T> {
  /** The inputs of the latest request: data and loading are theirs. */
  inputs: Inputs;
  data: T | null;
  error: LoadFailure | null;
  loading: boolean;
}

const sameInputs = (a: Inputs, b: Inputs): boolean =>
  a.length === b.length && a.every((value, i) => Object.is(value, b[i]));

/**
 * The one load → error → "Try again" loop of the dashboard: runs `loader` when the component
 * mounts and whenever `inputs` (or `options.refreshOn`) change, and again on `reload`. Only the
 * newest request counts: an answer to an older one (the 10 s refresh answered after the reload a
 * change asked for, the list of a filter no longer chosen), or one that arrives after the
 * component is gone, is dropped, and the older request is aborted for a loader that passes
 * `signal` on. What was loaded for other inputs is never shown as theirs. A null `loader` asks
 * nothing (there is nothing to load yet).
 */
export function useLoad<T>(
  loader: Loader<T> | null,
  inputs: Inputs,
  options: LoadOptions<T> = {},
): Load<T> {
  const [state, setState] = useState<State<T>>(() => ({
    inputs,
    data: null,
    error: null,
    loading: loader !== null,
  }));
  const latest = useRef({ loader, inputs, options });
  latest.current = { loader, inputs, options };
  /** Numbers the requests: only the newest may settle. Bumped on unmount too. */
  const newest = useRef(0);
  const controller = useRef<AbortController | null>(null);

  const supersede = (): number => {
    controller.current?.abort();
    controller.current = null;
    return ++newest.current;
  };

  const run = useCallback(async (load: Loader<T>): Promise<void> => {
    const { inputs: asked, options: chosen } = latest.current;
    const request = supersede();
    const aborter = new AbortController();
    controller.current = aborter;
    setState((s) => ({
      inputs: asked,
      data: sameInputs(s.inputs, asked) ? s.data : null,
      error: chosen.clearError === "request" ? null : s.error,
      loading: true,
    }));
    try {
      const data = await load(aborter.signal);
      if (request !== newest.current) return; // a newer request took over, or the screen is gone
      latest.current.options.onAnswer?.(data);
      setState({ inputs: asked, data, error: null, loading: false });
    } catch (err) {
      if (request !== newest.current) return;
      setState((s) => ({ ...s, error: { message: messageOf(err), cause: err }, loading: false }));
    }
  }, []);

  const reload = useCallback(async (): Promise<void> => {
    const current = latest.current.loader;
    if (current) await run(current);
  }, [run]);

  const mutate = useCallback((update: (data: T) => T): void => {
    setState((s) => (s.data === null ? s : { ...s, data: update(s.data) }));
  }, []);

  useEffect(() => {
    const current = latest.current.loader;
    if (current) {
      void run(current);
      return;
    }
    supersede();
    const idle = latest.current.inputs;
    setState((s) => ({
      inputs: idle,
      data: sameInputs(s.inputs, idle) ? s.data : null,
      error: null,
      loading: false,
    }));
  }, [...inputs, ...(options.refreshOn ?? [])]);

  useEffect(
    () => () => {
      supersede();
    },
    [],
  );

  if (sameInputs(state.inputs, inputs)) {
    return { data: state.data, error: state.error, loading: state.loading, reload, run, mutate };
  }
  // The inputs changed and the effect that asks for them has not run yet.
  const error = options.clearError === "request" ? null : state.error;
  return { data: null, error, loading: loader !== null, reload, run, mutate };
}
