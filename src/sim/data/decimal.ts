import type { Rng } from './rng.js';

/**
 * Decimal strings for generated amounts, built from integers so no float rounding ever reaches the data.
 * `units` is the value times 10^places.
 *
 * @example
 * formatUnits(-12345n, 4) // => '-1.2345'
 * formatUnits(100000000n, 8) // => '1.00000000'
 */
export function formatUnits(units: bigint, places: number): string {
  const negative = units < 0n;
  const digits = (negative ? -units : units).toString().padStart(places + 1, '0');
  const whole = digits.slice(0, digits.length - places);
  const frac = digits.slice(digits.length - places);
  return `${negative ? '-' : ''}${whole}${places > 0 ? `.${frac}` : ''}`;
}

/** A random amount in [min, max] (both given in whole units) with exactly `places` decimals, as units. */
export function randomUnits(rng: Rng, min: number, max: number, places: number): bigint {
  const scale = 10 ** places;
  // Two draws give enough bits for large ranges with 8 decimals without leaving float precision.
  const span = BigInt(Math.round((max - min) * scale));
  const hi = BigInt(Math.floor(rng.next() * 0x20_0000));
  const lo = BigInt(Math.floor(rng.next() * 0x1_0000_0000));
  const r = ((hi << 32n) | lo) % (span + 1n);
  return BigInt(Math.round(min * scale)) + r;
}

/** Multiplies two unit amounts and rounds half away from zero to `places` decimals. */
export function mulUnits(a: bigint, aPlaces: number, b: bigint, bPlaces: number, places: number): bigint {
  const product = a * b;
  const shift = aPlaces + bPlaces - places;
  if (shift <= 0) return product * 10n ** BigInt(-shift);
  const divisor = 10n ** BigInt(shift);
  const half = divisor / 2n;
  return product >= 0n ? (product + half) / divisor : (product - half) / divisor;
}
