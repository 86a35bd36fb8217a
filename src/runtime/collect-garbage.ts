import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collect: (() => void) | undefined;

/**
 * Runs a full collection of the JavaScript heap now. Between the extraction and the transform it hands back
 * what the extraction left dead: V8 lets parsed pages pile up in its old space until about 75 MB before it
 * collects (it holds 100 MB at 1M fills, 50 MB after this), and the transform, where DuckDB works up to its
 * memory budget, is the run's peak. `gc` is not exposed without `--expose-gc`; setting that flag at run time
 * gives new contexts a `gc` function, the way jest's leak detector gets one.
 *
 * @example
 * await extract(options);
 * collectGarbage();
 * await runTransforms(warehouse);
 */
export function collectGarbage(): void {
  if (collect === undefined) {
    setFlagsFromString('--expose-gc');
    collect = runInNewContext('gc') as () => void;
  }
  collect();
}
