import { DAY_MS } from './data/types.js';
import { badParam, missingParam, SimApiError } from './api-error.js';

/** Query parameters of one request, read the way the live service reads them. */
export class Params {
  private readonly query: URLSearchParams;

  constructor(rawQuery: string) {
    this.query = new URLSearchParams(rawQuery);
  }

  /** The value, or undefined when absent or empty (the live service treats both as not given). */
  optional(name: string): string | undefined {
    const value = this.query.get(name);
    return value === null || value === '' ? undefined : value;
  }

  required(name: string): string {
    const value = this.optional(name);
    if (value === undefined) throw missingParam(name);
    return value;
  }

  /** A Unix-millisecond timestamp parameter. */
  time(name: string, required: true): number;
  time(name: string, required: false): number | undefined;
  time(name: string, required: boolean): number | undefined {
    const value = required ? this.required(name) : this.optional(name);
    if (value === undefined) return undefined;
    if (!/^\d{1,16}$/.test(value)) throw badParam(name);
    return Number(value);
  }

  /** An id to page below: decimal digits only. */
  id(name: string): string | undefined {
    const value = this.optional(name);
    if (value === undefined) return undefined;
    if (!/^\d{1,30}$/.test(value)) throw badParam(name);
    return value.replace(/^0+(?=\d)/, '');
  }

  /** The page size: `fallback` when absent, an error above `max` or below 1. */
  limit(fallback: number, max: number): number {
    const value = this.optional('limit');
    if (value === undefined) return fallback;
    if (!/^\d{1,6}$/.test(value)) throw badParam('limit');
    const limit = Number(value);
    if (limit < 1 || limit > max) throw badParam('limit');
    return limit;
  }
}

/** How the live endpoints word a window that is too wide. */
export type WindowStyle = 'interval' | 'exceed';

/**
 * Rejects start after end (20001) and windows wider than `maxDays` days: `00001 startTime and endTime
 * interval cannot be greater than {n} days`, or for the 90-day endpoints `40705 The start and end time
 * cannot exceed {n} days` (docs/platform.md, "Answers and errors").
 */
export function checkWindow(startTime: number, endTime: number, maxDays: number, style: WindowStyle): void {
  if (startTime > endTime) throw new SimApiError(400, '20001', 'startTime cannot be greater than endTime');
  if (endTime - startTime > maxDays * DAY_MS) {
    throw style === 'interval'
      ? new SimApiError(400, '00001', `startTime and endTime interval cannot be greater than ${maxDays} days`)
      : new SimApiError(400, '40705', `The start and end time cannot exceed ${maxDays} days`);
  }
}

/**
 * Refuses a window that starts before the server's reach, `depthDays` days before its clock (SimulatorOptions.
 * historyDepthDays; undefined: no limit), as the live service refused spot fills older than its 90 days:
 * `{"code":"43111","msg":"param error time range illegal","requestTime":...,"data":null}` (ccxt/ccxt#21502,
 * https://github.com/ccxt/ccxt/issues/21502, 2024-03, fetchMyTrades). The report shows no HTTP status: 400, as the
 * other parameter errors. That answer was seen on spot fills only; the platform documents no depth for the record
 * endpoints the simulator applies it to (docs/simulator.md, "History depth").
 *
 * @example
 * checkDepth(startTime, now, 730); // throws 43111 when startTime < now - 730 days
 */
export function checkDepth(startTime: number, now: number, depthDays: number | undefined): void {
  if (depthDays !== undefined && startTime < now - depthDays * DAY_MS)
    throw new SimApiError(400, '43111', 'param error time range illegal');
}
