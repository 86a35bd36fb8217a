import pLimit from 'p-limit';

/**
 * Runs `work` on every item, at most `concurrency` at a time (p-limit's queue). Work may hand back follow-up
 * items (a window split in two), which join the queue. The first failure stops the pool: no queued item starts
 * after it, the ones running finish, and that failure is thrown once all have settled. Used wherever work runs
 * N at a time: extraction's windows, the export's COPY statements.
 *
 * @example
 * await runPool(windows, { concurrency: 4 }, async (w) => (await readWindow(w)).replacements);
 */
export async function runPool<T>(
  items: readonly T[],
  options: { concurrency: number },
  work: (item: T) => Promise<readonly T[] | void>,
): Promise<void> {
  const limit = pLimit(Math.max(1, options.concurrency));
  let failure: { error: unknown } | undefined;
  const runs: Promise<void>[] = [];
  const add = (item: T): void => {
    runs.push(
      limit(async () => {
        // Set before p-limit starts the next item, so nothing queued starts after a failure.
        if (failure !== undefined) return;
        try {
          for (const next of (await work(item)) ?? []) add(next);
        } catch (error) {
          failure ??= { error };
        }
      }),
    );
  };
  for (const item of items) add(item);
  // Follow-ups are added while earlier items run: wait until the list stops growing.
  for (let i = 0; i < runs.length; i++) await runs[i];
  if (failure !== undefined) throw failure.error;
}
