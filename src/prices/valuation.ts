import { UsageError } from '../errors/usage-error.js';
import { valuedWithoutRatesFile } from './ecb-currencies.js';

/** A fiat code as --fiat takes it: three to five capital letters (EUR, GBP, USD); `none` (or nothing) for none. */
export function parseFiat(text: string | undefined): string | null {
  if (text === undefined || text === '' || text.trim().toLowerCase() === 'none') return null;
  const fiat = text.trim().toUpperCase();
  if (!/^[A-Z]{3,5}$/.test(fiat))
    throw new UsageError(`--fiat ${text} is not a currency code; give one such as EUR, GBP or USD`);
  if (fiat === 'USDT')
    throw new UsageError('--fiat USDT: values are always given in USDT (value_usdt); give a fiat currency such as EUR');
  return fiat;
}

/**
 * Refuses a fiat nothing can value (docs/values.md, "A fiat"), before any request is sent or file touched: one that
 * is neither EUR, nor a currency the ECB publishes a euro rate for (ecb-currencies.ts), nor given rates by a
 * --fiat-rates file. Whether that file holds the currency is checked when it is read.
 *
 * @example
 * refuseUnvaluedFiat('XYZ', undefined); // throws: give --fiat-rates
 * refuseUnvaluedFiat('XYZ', 'xyz.csv'); // fine: the file's rates value it
 */
export function refuseUnvaluedFiat(fiat: string, ratesFile: string | undefined): void {
  if (ratesFile !== undefined || valuedWithoutRatesFile(fiat)) return;
  throw new UsageError(
    `--fiat ${fiat}: the European Central Bank publishes no euro rate for ${fiat} and no rates file gives one; for another currency than EUR or the ECB's (docs/values.md lists them), give its rates with --fiat-rates FILE`,
  );
}
