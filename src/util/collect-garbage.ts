import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/** V8's `gc`: the global one under `--expose-gc`, else one from a context made while the flag is on. */
function findCollector(): () => void {
  const global = (globalThis as { gc?: unknown }).gc;
  if (typeof global === 'function') return global as () => void;
  try {
    setFlagsFromString('--expose-gc');
    const exposed: unknown = runInNewContext('gc');
    if (typeof exposed === 'function') return exposed as () => void;
  } catch {
    // Node may ignore a flag set at run time: collecting is a saving, never a reason to fail a run.
  } finally {
    // Only the context above gets `gc`, as in jest's leak detector: later contexts are left as they were.
    setFlagsFromString('--no-expose-gc');
  }
  return () => undefined;
}

/**
 * Runs full collections of the JavaScript heap now, where V8 would wait. After an extraction most of the heap
 * is dead pages that waited for their commit, which V8 collects only once its old space has grown; collecting
 * before the transform (the run's memory peak, where DuckDB works up to its budget) halves the heap
 * (docs/performance.md, "Memory"). Does nothing where `gc` cannot be had.
 *
 * @example
 * await extract(options);
 * collectGarbage();
 * await runTransforms(warehouse);
 */
export function collectGarbage(): void {
  collect ??= findCollector();
  // The first collection frees the dead objects and leaves their pages empty; V8 releases empty pages to the
  // system at the next one.
  collect();
  collect();
}
