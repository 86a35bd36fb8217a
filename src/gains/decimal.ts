/**
 * Exact decimal numbers with 18 places, as the warehouse's DECIMAL(38, 18) holds them, on BigInt: sums and
 * differences are exact; a product or quotient is rounded half-even at the 18th place, where the engine says so
 * (docs/gains.md, "Rounding"). No floating point anywhere.
 */
export type Dec = bigint;

export const SCALE = 18;
const ONE = 10n ** BigInt(SCALE);
export const ZERO: Dec = 0n;

/** "-123.45" to a Dec; throws on anything that is not a plain decimal or has more than 18 places. */
export function dec(text: string): Dec {
  const match = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(text.trim());
  if (match === null) throw new RangeError(`not a decimal number: ${JSON.stringify(text)}`);
  const [, sign, whole, fraction = ''] = match;
  if (fraction.replace(/0+$/, '').length > SCALE) throw new RangeError(`more than ${SCALE} decimal places: ${text}`);
  const value = BigInt(whole as string) * ONE + BigInt((fraction + '0'.repeat(SCALE)).slice(0, SCALE));
  return sign === '-' ? -value : value;
}

/** The plain text of a Dec, without trailing zeros: "-0.5", "42". */
export function text(value: Dec): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const whole = abs / ONE;
  const fraction = (abs % ONE).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction === '' ? '' : `.${fraction}`}`;
}

/** n / d rounded half to even (both BigInt, d not zero). */
function divideHalfEven(n: bigint, d: bigint): bigint {
  if (d < 0n) return divideHalfEven(-n, -d);
  const q = n / d;
  const r = n % d;
  if (r === 0n) return q;
  const twice = 2n * (r < 0n ? -r : r);
  const away = n < 0n ? q - 1n : q + 1n;
  if (twice > d) return away;
  if (twice < d) return q;
  return q % 2n === 0n ? q : away;
}

/** a x b / c, rounded half-even at the 18th place once (not after the product): a slice's share of a cost. */
export function mulDiv(a: Dec, b: Dec, c: Dec): Dec {
  if (c === 0n) throw new RangeError('division by zero');
  return divideHalfEven(a * b, c);
}

/** value rounded half-even to `places` decimals (the figures HMRC prints: whole pounds). */
export function round(value: Dec, places: number): Dec {
  const unit = 10n ** BigInt(SCALE - places);
  return divideHalfEven(value, unit) * unit;
}

export const abs = (value: Dec): Dec => (value < 0n ? -value : value);
export const min = (a: Dec, b: Dec): Dec => (a < b ? a : b);
