import { UsageError } from '../errors/usage-error.js';

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_RE = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** The wall-clock time of an instant in `timeZone`, to the second: year, month (1-12), day, hour, minute, second. */
export function wallClock(
  utcMs: number,
  timeZone: string,
): { y: number; m: number; d: number; hh: number; mm: number; ss: number } {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs));
  const get = (type: string): number => Number(parts.find((p) => p.type === type)?.value);
  return { y: get('year'), m: get('month'), d: get('day'), hh: get('hour'), mm: get('minute'), ss: get('second') };
}

/** Milliseconds to add to a UTC instant to get the wall-clock time in `timeZone` at that instant. */
function zoneOffsetMs(timeZone: string, utcMs: number): number {
  const w = wallClock(utcMs, timeZone);
  return Date.UTC(w.y, w.m - 1, w.d, w.hh, w.mm, w.ss) - Math.floor(utcMs / 1000) * 1000;
}

/** Throws a UsageError unless `timeZone` is an IANA zone this Node knows. */
export function assertTimeZone(timeZone: string): void {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch (cause) {
    throw new UsageError(
      `--tz ${timeZone} is not a known IANA time zone; use a name such as UTC or Europe/Berlin`,
      cause,
    );
  }
}

const DAY_MS = 86_400_000;

/**
 * The UTC instant of a wall-clock time in `timeZone`, by one rule wherever the clocks change (the "compatible"
 * rule of JavaScript's Temporal and of java.time): a wall time that happens twice (clocks set back) is its first
 * occurrence; a wall time that never happens (clocks set forward) is moved forward by the jump, so 02:30 on a
 * night the clocks go from 02:00 to 03:00 is 03:30, and a day whose midnight is skipped (America/Santiago,
 * Havana, Asuncion) starts when its clocks jump, at 01:00. Zones change offset at most once in two days.
 */
function wallToUtc(wallMs: number, timeZone: string): number {
  if (timeZone === 'UTC') return wallMs;
  const before = zoneOffsetMs(timeZone, wallMs - DAY_MS);
  const after = zoneOffsetMs(timeZone, wallMs + DAY_MS);
  const fits = [...new Set([before, after])]
    .map((offset) => wallMs - offset)
    .filter((utc) => utc + zoneOffsetMs(timeZone, utc) === wallMs);
  // Skipped: the offset from before the jump places it that far past the jump.
  return fits.length === 0 ? wallMs - before : Math.min(...fits);
}

/**
 * Parses an ISO date (midnight in `timeZone`) or an ISO date-time (in its own offset, else in `timeZone`)
 * into Unix milliseconds UTC.
 *
 * @example
 * parseInstant('2025-01-01', 'UTC') // => 1735689600000
 * parseInstant('2025-01-01', 'Europe/Berlin') // => 1735686000000
 * parseInstant('2025-01-01T12:00:00.000Z', 'UTC') // => 1735732800000
 */
export function parseInstant(text: string, timeZone: string, flag = 'date'): number {
  assertTimeZone(timeZone);
  const date = DATE_RE.exec(text);
  const time = date === null ? DATETIME_RE.exec(text) : null;
  const m = date ?? time;
  if (m === null) {
    throw new UsageError(`${flag} ${JSON.stringify(text)} is not an ISO date; use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SSZ`);
  }
  const [year, month, day, hour, minute, second, milli] = [1, 2, 3, 4, 5, 6, 7].map((i) =>
    Number((m[i] ?? '0').padEnd(i === 7 ? 3 : 1, '0')),
  ) as [number, number, number, number, number, number, number];
  const wall = Date.UTC(year, month - 1, day, hour, minute, second, milli);
  const check = new Date(wall);
  if (
    check.getUTCFullYear() !== year ||
    check.getUTCMonth() !== month - 1 ||
    check.getUTCDate() !== day ||
    hour > 23 ||
    minute > 59 ||
    second > 59
  ) {
    throw new UsageError(
      `${flag} ${JSON.stringify(text)} is not a real calendar date or time; check the day and month`,
    );
  }
  const offset = time?.[8];
  if (offset === undefined) return wallToUtc(wall, timeZone);
  if (offset === 'Z') return wall;
  const sign = offset.startsWith('-') ? -1 : 1;
  const digits = offset.slice(1).replace(':', '');
  const offsetMs = sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  return wall - offsetMs;
}

/** ISO 8601 with milliseconds and `Z`, the one format ledgerpipe writes times in. */
export function formatInstant(ms: number): string {
  return new Date(ms).toISOString();
}

/** `[YYYY-01-01, (YYYY+1)-01-01)` in `timeZone`, as Unix milliseconds. */
export function yearRange(year: number, timeZone: string): { from: number; to: number } {
  if (!Number.isInteger(year) || year < 2000 || year > 9998) {
    throw new UsageError(`--year ${year} is not a year ledgerpipe can export; use a four-digit year such as 2025`);
  }
  return {
    from: parseInstant(`${year}-01-01`, timeZone, '--year'),
    to: parseInstant(`${year + 1}-01-01`, timeZone, '--year'),
  };
}
