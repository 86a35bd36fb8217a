import type { PagedStreamDef } from '../streams/stream.js';
import { formatWindow, planWindows, uncovered, type Window } from '../time/window.js';
import { dropWindow, readCoverage } from '../reads/coverage.js';
import type { Warehouse } from '../warehouse/warehouse.js';
import type { StreamStats } from './stats.js';

/** One window of one partition to read, from its start or from a cursor an earlier run left. */
export interface Task {
  partition: string;
  params: Readonly<Record<string, string>>;
  window: Window;
  cursor?: string;
}

/** A window and partition for messages: `margin_records crossed: the window 2025-01-01T... .. 2025-02-01T...`. */
export function describeWindow(stream: { name: string }, task: Pick<Task, 'partition' | 'window'>): string {
  const partition = task.partition === '' ? '' : ` ${task.partition}`;
  return `${stream.name}${partition}: the window ${formatWindow(task.window)}`;
}

/**
 * The windows still to read of `[from, to)`: unfinished ones resume at their cursor, the rest of the range is planned
 * anew at `windowMs`, newest first. Windows inside `refresh` are forgotten first, so they are read afresh. Counts the
 * done windows it skips in `stats`.
 */
export async function planTasks(
  stream: PagedStreamDef,
  windowMs: number,
  context: { warehouse: Warehouse; account: string; from: number; to: number; refresh?: readonly Window[] | undefined },
  stats: StreamStats,
): Promise<Task[]> {
  const { warehouse, account, from, to } = context;
  const refresh = context.refresh ?? [];
  if (refresh.length > 0) {
    await warehouse.transaction(async (c) => {
      for (const row of await readCoverage(c, account, stream.name)) {
        if (refresh.some((r) => row.window.start >= r.start && row.window.end <= r.end))
          await dropWindow(c, account, stream.name, row.partition, row.window);
      }
    });
  }
  const coverage = await warehouse.exclusive((c) => readCoverage(c, account, stream.name));
  const tasks: Task[] = [];
  for (const partition of stream.partitions) {
    const rows = coverage.filter((r) => r.partition === partition.name);
    const resumable = rows.filter((r) => r.status === 'open' && r.window.start >= from && r.window.end <= to);
    // A window refused as older than the platform reaches is not asked again (docs/history.md).
    const done = rows.filter((r) => r.status === 'done' || r.status === 'unreachable');
    stats.windowsSkipped += done.filter((r) => r.window.start < to && r.window.end > from).length;
    for (const r of resumable)
      tasks.push({
        partition: partition.name,
        params: partition.params,
        window: r.window,
        ...(r.cursor === null ? {} : { cursor: r.cursor }),
      });
    // A refreshed range counts as not covered, even where a done window reaches into it.
    const covered = [
      ...done.flatMap((r) => uncovered(r.window.start, r.window.end, refresh)),
      ...resumable.map((r) => r.window),
    ];
    // Newest first: where the platform's reach ends (docs/history.md), the first window refused tells that every
    // older one is refused too, and they are recorded unreachable without being asked.
    for (const gap of uncovered(from, to, covered).reverse()) {
      for (const window of planWindows(gap.start, gap.end, windowMs).reverse())
        tasks.push({ partition: partition.name, params: partition.params, window });
    }
  }
  return tasks;
}
