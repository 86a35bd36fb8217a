import type { Window } from '../time/window.js';

/**
 * Numbers and dates as the report shows them to people (docs/report.md): thousands separators, a few
 * decimals, dates in words. Display only: every cell keeps its exact value beside it (data-exact), and the files
 * hold the exact values. Decimals are worked on as text, never as a JS number.
 */

/** Money in a currency: two decimals. */
export const MONEY_DECIMALS = 2;
/** A quantity of an asset: up to eight decimals (a satoshi), trailing zeros dropped. */
export const QUANTITY_DECIMALS = 8;

/**
 * `text`, an exact decimal (-1234.5678), rounded half away from zero to `decimals` places, with thousands
 * separators: `-1,234.57`. `fixed` keeps trailing zeros (money: 12.50); else they are dropped (0.1).
 *
 * @example
 * formatDecimal('-32068087.72925866007541', 2, true) // '-32,068,087.73'
 */
export function formatDecimal(text: string, decimals: number, fixed = false): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (match === null) return text;
  const [, sign, whole, fraction = ''] = match;
  const scale = 10n ** BigInt(decimals);
  const digits = BigInt(`${whole}${fraction.padEnd(decimals, '0').slice(0, decimals)}`);
  const roundUp = (fraction[decimals] ?? '0') >= '5';
  const units = digits + (roundUp ? 1n : 0n);
  const int = (units / scale).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = decimals === 0 ? '' : (units % scale).toString().padStart(decimals, '0');
  const shown = fixed ? frac : frac.replace(/0+$/, '');
  const body = shown === '' ? int : `${int}.${shown}`;
  return sign === '-' && units !== 0n ? `-${body}` : body;
}

/** A day in words in `timeZone`: 1 January 2025. */
function day(ms: number, timeZone: string): string {
  return new Intl.DateTimeFormat('en-GB', { timeZone, day: 'numeric', month: 'long', year: 'numeric' }).format(ms);
}

/** Whether `ms` is a midnight in `timeZone`. */
function atMidnight(ms: number, timeZone: string): boolean {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).format(ms);
  return parts === '00:00:00' && ms % 1000 === 0;
}

/**
 * A half-open range in words: whole days as their first and last day (1 January 2025 to 31 December 2025),
 * else both instants with their times.
 */
export function formatRange(range: Window, timeZone: string): string {
  if (atMidnight(range.start, timeZone) && atMidnight(range.end, timeZone)) {
    const last = day(range.end - 1, timeZone);
    const first = day(range.start, timeZone);
    return first === last ? first : `${first} to ${last}`;
  }
  const time = (ms: number) =>
    new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'long', timeStyle: 'short' }).format(ms);
  return `${time(range.start)} to ${time(range.end)} (the end not included)`;
}

/**
 * The instant a balance is held at, dated as an accountant dates it: a range's opening midnight is the start of
 * its day (start of 1 January 2025), its closing one the end of the day before (end of 31 December 2025, not 1
 * January 2026); an instant that is no midnight, with its time.
 */
export function formatBalanceDate(ms: number, timeZone: string, side: 'opening' | 'closing'): string {
  if (atMidnight(ms, timeZone))
    return side === 'opening' ? `start of ${day(ms, timeZone)}` : `end of ${day(ms - 1, timeZone)}`;
  return new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'long', timeStyle: 'short' }).format(ms);
}
