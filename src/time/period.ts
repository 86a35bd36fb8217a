import { UsageError } from '../errors/usage-error.js';
import { formatInstant, parseInstant, wallClock, yearRange } from './instant.js';
import type { Window } from './window.js';

/**
 * A range as a command asks for it, read once the warehouse's settings are known (its time zone and tax-year
 * start): `--year`, `--tax-year`, `--from/--to`, or a window already made (the demo, the bench).
 */
export type RangeSpec =
  | { kind: 'year'; year: number }
  | { kind: 'tax-year'; year: number }
  | { kind: 'between'; from: string; to: string }
  | { kind: 'window'; window: Window };

/** A range with its period: the folder its files go in (docs/files.md, "A folder per period") and how it is said. */
export interface Period {
  window: Window;
  /** `2025`, `2025-26`, `2025-03-01_2025-06-01`, `2026-to-date`. */
  folder: string;
  /** `2025`, `tax year 2025-26`, `2025-03-01 to 2025-06-01`, `2026 to date`. */
  label: string;
  /** The range ends after the present: it is the period to date, up to where its records were read. */
  toDate: boolean;
  /** `2025-26` when the range is a tax year (--tax-year). */
  taxYear?: string;
}

/** What the range needs of the settings. */
export interface PeriodSettings {
  timeZone: string;
  /** MM-DD. */
  taxYearStart: string;
}

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** The wall-clock parts of an instant in `timeZone`, to the millisecond. */
function wall(
  ms: number,
  timeZone: string,
): { y: number; m: number; d: number; hh: number; mm: number; ss: number; ms: number } {
  return { ...wallClock(ms, timeZone), ms: ((ms % 1000) + 1000) % 1000 };
}

/** An instant as a folder's part: its date in `timeZone` at midnight, else the date and time to the second. */
function folderInstant(ms: number, timeZone: string): string {
  const w = wall(ms, timeZone);
  const date = `${w.y}-${pad(w.m)}-${pad(w.d)}`;
  return w.hh === 0 && w.mm === 0 && w.ss === 0 && w.ms === 0 ? date : `${date}T${pad(w.hh)}${pad(w.mm)}${pad(w.ss)}`;
}

/** The year of an instant in `timeZone`. */
export function yearIn(ms: number, timeZone: string): number {
  return wall(ms, timeZone).y;
}

/** `[start of tax year Y, start of tax year Y+1)`: the tax year that starts on `start` (MM-DD) of Y, in `timeZone`. */
export function taxYearRange(year: number, start: string, timeZone: string): Window {
  return {
    start: parseInstant(`${year}-${start}`, timeZone, '--tax-year'),
    end: parseInstant(`${year + 1}-${start}`, timeZone, '--tax-year'),
  };
}

/** `2025-26`: the tax year that starts in 2025. */
export const taxYearName = (year: number): string => `${year}-${pad((year + 1) % 100)}`;

/**
 * The period of a range: its window in the settings' time zone and its folder's name. A range that starts after
 * `now` has not happened: refused (exit 2) with the last complete period named; one that ends after `now` is
 * the period to date.
 *
 * @example
 * resolvePeriod({ kind: 'year', year: 2025 }, { timeZone: 'UTC', taxYearStart: '01-01' }, Date.now()).folder // => '2025'
 */
export function resolvePeriod(spec: RangeSpec, settings: PeriodSettings, now: number): Period {
  const { timeZone } = settings;
  const current = yearIn(now, timeZone);
  switch (spec.kind) {
    case 'year': {
      const { from, to } = yearRange(spec.year, timeZone);
      if (from > now)
        throw new UsageError(
          `--year ${spec.year}: ${spec.year} has not begun; the last complete year is ${current - 1}`,
        );
      const toDate = to > now;
      return {
        window: { start: from, end: to },
        folder: toDate ? `${spec.year}-to-date` : String(spec.year),
        label: toDate ? `${spec.year} to date` : String(spec.year),
        toDate,
      };
    }
    case 'tax-year': {
      const window = taxYearRange(spec.year, settings.taxYearStart, timeZone);
      const name = taxYearName(spec.year);
      if (window.start > now) {
        const running = taxYearRange(current, settings.taxYearStart, timeZone).start <= now ? current : current - 1;
        throw new UsageError(
          `--tax-year ${name}: it has not begun (it starts ${formatInstant(window.start)}); the last complete tax year is ${taxYearName(running - 1)}`,
        );
      }
      const toDate = window.end > now;
      return {
        window,
        folder: toDate ? `${name}-to-date` : name,
        label: `tax year ${name}${toDate ? ' to date' : ''}`,
        toDate,
        taxYear: name,
      };
    }
    case 'between': {
      const start = parseInstant(spec.from, timeZone, '--from');
      const end = parseInstant(spec.to, timeZone, '--to');
      if (start >= end) throw new UsageError(`--from ${spec.from} must be before --to ${spec.to}`);
      if (start > now)
        throw new UsageError(
          `--from ${spec.from} has not come yet (it is ${formatInstant(now)} now); give a range that has begun`,
        );
      return windowPeriod({ start, end }, timeZone, now);
    }
    case 'window':
      if (spec.window.start > now)
        throw new UsageError(
          `the range starts ${formatInstant(spec.window.start)}, which has not come yet; give a range that has begun`,
        );
      return windowPeriod(spec.window, timeZone, now);
  }
}

/** The period of a window given by its ends: a calendar year when it is one, else `<from>_<to>`. */
export function windowPeriod(window: Window, timeZone: string, now: number): Period {
  const toDate = window.end > now;
  const year = yearIn(window.start, timeZone);
  const whole = yearRange(year, timeZone);
  if (whole.from === window.start && whole.to === window.end) {
    return {
      window,
      folder: toDate ? `${year}-to-date` : String(year),
      label: toDate ? `${year} to date` : String(year),
      toDate,
    };
  }
  const [a, b] = [folderInstant(window.start, timeZone), folderInstant(window.end, timeZone)];
  return { window, folder: `${a}_${b}`, label: `${a} to ${b}${toDate ? ' (to date)' : ''}`, toDate };
}

/**
 * The nightly's period: the year so far of its end, in the settings' time zone, a tax year when the tax year does not
 * start on 1 January (`2026-to-date`, or `2026-27-to-date` for the UK's, from 6 April 2026).
 */
export function yearToDate(end: number, settings: PeriodSettings, now: number): Period {
  const { timeZone, taxYearStart } = settings;
  const last = end - 1;
  if (taxYearStart === '01-01') {
    const year = yearIn(last, timeZone);
    const full = yearRange(year, timeZone);
    const toDate = full.to > now || end < full.to;
    return {
      window: { start: full.from, end },
      folder: toDate ? `${year}-to-date` : String(year),
      label: toDate ? `${year} to date` : String(year),
      toDate,
    };
  }
  const calendar = yearIn(last, timeZone);
  const year = taxYearRange(calendar, taxYearStart, timeZone).start <= last ? calendar : calendar - 1;
  const full = taxYearRange(year, taxYearStart, timeZone);
  const name = taxYearName(year);
  const toDate = full.end > now || end < full.end;
  return {
    window: { start: full.start, end },
    folder: toDate ? `${name}-to-date` : name,
    label: `tax year ${name}${toDate ? ' to date' : ''}`,
    toDate,
    taxYear: name,
  };
}
