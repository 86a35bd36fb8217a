import { OUT_OF_REACH, PlatformError, WINDOW_TOO_WIDE } from '../errors/platform-error.js';

const DAY_MS = 86_400_000;
/** Below this the server is not narrowing a window but refusing the endpoint: stop and say so. */
export const MIN_WINDOW_MS = 60_000;
const DAYS_IN_MESSAGE = /(?:greater than|exceed|more than|longer than)\s+(\d+)\s*days?/i;

/**
 * When the server refuses a window as too wide (00001, 40705, or a message saying so), the window to use
 * instead: the number of days the message names when it is narrower, else half of the current one.
 * Undefined when the error is not about the window.
 *
 * @example
 * narrowedWindowMs(new PlatformError({ path, httpStatus: 400, platformCode: '00001',
 *   platformMessage: 'startTime and endTime interval cannot be greater than 30 days' }), 366 * DAY_MS) // => 30 days
 */
export function narrowedWindowMs(error: unknown, currentMs: number): number | undefined {
  if (!(error instanceof PlatformError)) return undefined;
  const days = DAYS_IN_MESSAGE.exec(error.platformMessage);
  if (!WINDOW_TOO_WIDE.has(error.platformCode) && days === null) return undefined;
  const named = days === null ? undefined : Number(days[1]) * DAY_MS;
  if (named !== undefined && named > 0 && named < currentMs) return named;
  return Math.floor(currentMs / 2);
}

/**
 * Whether the server refused a window because it holds too many records (40303 "Can only query up to 20,000 data",
 * docs/platform.md, "Answers and errors"): that window is split in two, but the endpoint's window is not narrowed for
 * good.
 */
export function tooManyRecords(error: unknown): boolean {
  return error instanceof PlatformError && error.platformCode === '40303';
}

/**
 * Whether the server refused a window as older than it reaches (43111, docs/history.md): the window is split until
 * its part the platform answers is read and the rest, at REACH_PRECISION_MS, is recorded as unreachable.
 */
export function outOfReach(error: unknown): boolean {
  return error instanceof PlatformError && OUT_OF_REACH.has(error.platformCode);
}

/** How finely the boundary of what the platform reaches is found: a refused window this narrow is unreachable whole. */
export const REACH_PRECISION_MS = DAY_MS;
