import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../errors/usage-error.js';
import { decimalString } from '../streams/fields.js';
import { parseInstant } from '../time/instant.js';
import { timestampTz } from '../duckdb/time-values.js';

/** One rate of a rates file: units of `fiat` for one USDT, from `ts` on. */
export interface FiatRate {
  fiat: string;
  ts: number;
  rate: string;
}

/**
 * Reads a rates file (docs/values.md): CSV with the header `time,currency,rate`; `time` an ISO date (midnight
 * UTC) or date-time, `currency` a code such as EUR, `rate` the units of that currency one USDT buys, a plain
 * decimal. A rate holds from its time until the next one of its currency. Anything else is refused with its line.
 */
export async function readRatesFile(path: string): Promise<FiatRate[]> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(
      `cannot read --fiat-rates ${path} (${(error as NodeJS.ErrnoException).code ?? 'error'}); give the path of a rates file`,
      error,
    );
  }
  const lines = text.split(/\r?\n/);
  if ((lines[0] ?? '').trim().toLowerCase() !== 'time,currency,rate') {
    throw new UsageError(`--fiat-rates ${path}: the first line must be the header time,currency,rate (docs/values.md)`);
  }
  const rates: FiatRate[] = [];
  const seen = new Set<string>();
  lines.slice(1).forEach((line, i) => {
    if (line.trim() === '') return;
    const where = `--fiat-rates ${path} line ${i + 2}`;
    const [time, currency, rate, ...rest] = line.split(',').map((cell) => cell.trim());
    if (rest.length > 0 || time === undefined || currency === undefined || rate === undefined)
      throw new UsageError(`${where}: expected time,currency,rate`);
    if (!/^[A-Z]{3,5}$/.test(currency))
      throw new UsageError(`${where}: currency ${currency} is not a code such as EUR`);
    if (!decimalString.safeParse(rate).success || !/[1-9]/.test(rate) || rate.startsWith('-'))
      throw new UsageError(`${where}: rate ${rate} is not a positive plain decimal`);
    const ts = parseInstant(time, 'UTC', where);
    if (seen.has(`${currency} ${ts}`)) throw new UsageError(`${where}: a second rate for ${currency} at ${time}`);
    seen.add(`${currency} ${ts}`);
    rates.push({ fiat: currency, ts, rate });
  });
  return rates;
}

/** Replaces the warehouse's rates of `fiat` with the file's; a file without that currency is refused. */
export async function loadRates(c: DuckDBConnection, path: string, fiat: string): Promise<number> {
  const rates = (await readRatesFile(path)).filter((r) => r.fiat === fiat);
  if (rates.length === 0)
    throw new UsageError(`--fiat-rates ${path} has no rate for ${fiat}; add lines time,${fiat},rate`);
  await c.run('DELETE FROM fiat_rates WHERE fiat = $fiat', { fiat });
  for (const r of rates) {
    await c.run('INSERT INTO fiat_rates VALUES ($fiat, $ts, lp_amount($rate), $source)', {
      fiat,
      ts: timestampTz(r.ts),
      rate: r.rate,
      source: basename(path),
    });
  }
  return rates.length;
}
