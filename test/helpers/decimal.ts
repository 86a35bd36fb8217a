/**
 * Exact decimal arithmetic in units of 10^-18 with BigInt: the tests' own reckoning, independent of the SQL
 * it checks.
 */
export const E18 = 10n ** 18n;

/** A plain decimal string ('-12.5') in units of 10^-18; more than 18 decimals is refused. */
export function units(text: string): bigint {
  const negative = text.startsWith('-');
  const [whole = '0', frac = ''] = text.replace(/^[+-]/, '').split('.');
  if (frac.replace(/0+$/, '').length > 18) throw new Error(`${text} has more than 18 decimals`);
  const value = BigInt(whole) * E18 + BigInt((frac + '0'.repeat(18)).slice(0, 18));
  return negative ? -value : value;
}

/** Units of 10^-18 as the exports write a decimal: plain, no trailing zeros. */
export function decimalText(value: bigint): string {
  const negative = value < 0n;
  const abs = negative ? -value : value;
  const frac = (abs % E18).toString().padStart(18, '0').replace(/0+$/, '');
  return `${negative && abs !== 0n ? '-' : ''}${abs / E18}${frac === '' ? '' : `.${frac}`}`;
}

/** a x b (both in units), rounded half-even back to units. */
export function mulHalfEven(a: bigint, b: bigint): bigint {
  const product = a * b;
  const negative = product < 0n;
  const abs = negative ? -product : product;
  let quotient = abs / E18;
  const remainder = abs % E18;
  if (remainder * 2n > E18 || (remainder * 2n === E18 && quotient % 2n === 1n)) quotient++;
  return negative ? -quotient : quotient;
}
