import { formatInstant } from './instant.js';

/** A half-open span of time `[start, end)` in Unix ms. */
export interface Window {
  start: number;
  end: number;
}

/** A window for people: `2025-01-01T00:00:00.000Z .. 2025-02-01T00:00:00.000Z`. */
export function formatWindow(window: Window): string {
  return `${formatInstant(window.start)} .. ${formatInstant(window.end)}`;
}

/**
 * Splits `[from, to)` into consecutive half-open windows no wider than `windowMs`, from `from` on. Each is
 * requested as `startTime=start&endTime=end-1`, because the server's bounds are inclusive.
 *
 * @example
 * planWindows(0, 25, 10) // => [{start: 0, end: 10}, {start: 10, end: 20}, {start: 20, end: 25}]
 */
export function planWindows(from: number, to: number, windowMs: number): Window[] {
  if (!(windowMs > 0)) throw new RangeError(`window must be positive, got ${windowMs}`);
  const windows: Window[] = [];
  for (let start = from; start < to; start += windowMs) windows.push({ start, end: Math.min(start + windowMs, to) });
  return windows;
}

/**
 * The parts of `[from, to)` that none of `covered` holds, in order.
 *
 * @example
 * uncovered(0, 100, [{ start: 10, end: 20 }, { start: 50, end: 200 }]) // => [{0,10}, {20,50}]
 */
export function uncovered(from: number, to: number, covered: readonly Window[]): Window[] {
  const gaps: Window[] = [];
  let cursor = from;
  for (const w of [...covered].sort((a, b) => a.start - b.start)) {
    if (w.end <= cursor || w.start >= to) continue;
    if (w.start > cursor) gaps.push({ start: cursor, end: Math.min(w.start, to) });
    cursor = Math.max(cursor, w.end);
    if (cursor >= to) break;
  }
  if (cursor < to) gaps.push({ start: cursor, end: to });
  return gaps;
}

/** The request parameters of a window: the server's bounds are inclusive, so the end is `end - 1`. */
export function windowParams(window: Window): { startTime: string; endTime: string } {
  return { startTime: String(window.start), endTime: String(window.end - 1) };
}

/** Merges windows into the fewest contiguous ranges. */
export function mergeWindows(windows: readonly Window[]): Window[] {
  const sorted = [...windows].sort((a, b) => a.start - b.start);
  const out: Window[] = [];
  for (const w of sorted) {
    const last = out.at(-1);
    if (last !== undefined && w.start <= last.end) last.end = Math.max(last.end, w.end);
    else out.push({ ...w });
  }
  return out;
}
