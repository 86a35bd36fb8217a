import { UsageError } from '../errors/usage-error.js';

/** A fiat code as --fiat takes it: three to five capital letters (EUR, GBP, USD); `none` (or nothing) for none. */
export function parseFiat(text: string | undefined): string | null {
  if (text === undefined || text === '' || text.trim().toLowerCase() === 'none') return null;
  const fiat = text.trim().toUpperCase();
  if (!/^[A-Z]{3,5}$/.test(fiat)) throw new UsageError(`--fiat ${text} is not a currency code; give one such as EUR, GBP or USD`);
  if (fiat === 'USDT') throw new UsageError('--fiat USDT: values are always given in USDT (value_usdt); give a fiat currency such as EUR');
  return fiat;
}
