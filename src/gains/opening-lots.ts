import type { DuckDBConnection } from '@duckdb/node-api';
import { UsageError } from '../errors/usage-error.js';
import { formatInstant } from '../time/instant.js';
import { timestampTz } from '../duckdb/time-values.js';
import { dec, text, ZERO, type Dec } from './decimal.js';
import type { GainEvent } from './match.js';

/** The header of an --opening-lots file (docs/history.md, "Opening lots"). */
export const OPENING_COLUMNS = ['account', 'asset', 'quantity', 'cost', 'currency', 'acquired_at'] as const;

/** One lot held before the records ledgerpipe reads. */
export interface OpeningLot {
  account: string;
  asset: string;
  quantity: Dec;
  cost: Dec;
  currency: string;
  acquiredAt: number;
}

/**
 * The lots of an --opening-lots file. A header other than OPENING_COLUMNS, a line that does not read, or a
 * blank cost (the lines ledgerpipe lists leave it to be filled in) is refused with its line (exit 2).
 *
 * @example
 * parseOpeningLots('account,asset,quantity,cost,currency,acquired_at\ndefault,BTC,0.5,15000,GBP,2023-04-01\n', 'lots.csv')
 */
export function parseOpeningLots(content: string, file: string): OpeningLot[] {
  const lines = content.split(/\r?\n/);
  if (lines[0]?.trim() !== OPENING_COLUMNS.join(',')) {
    throw new UsageError(`--opening-lots ${file}: the first line must be the header ${OPENING_COLUMNS.join(',')}`);
  }
  const lots: OpeningLot[] = [];
  lines.forEach((line, i) => {
    if (i === 0 || line.trim() === '' || line.trimStart().startsWith('#')) return;
    lots.push(openingLot(line, `--opening-lots ${file} line ${i + 1}`));
  });
  return lots;
}

function openingLot(line: string, where: string): OpeningLot {
  const [account = '', asset = '', quantity = '', cost = '', currency = '', acquired = ''] = line
    .split(',')
    .map((f) => f.trim());
  if (cost === '' && quantity !== '') {
    throw new UsageError(
      `${where}: the cost of ${quantity} ${asset} is blank; fill in what the lot cost, in ${currency || "the gains' currency"}`,
    );
  }
  const ts = Date.parse(acquired);
  let q: Dec;
  let v: Dec;
  try {
    q = dec(quantity);
    v = dec(cost);
  } catch {
    throw new UsageError(
      `${where}: quantity and cost must be plain decimal numbers, got ${JSON.stringify(quantity)} and ${JSON.stringify(cost)}`,
    );
  }
  if (account === '' || asset === '' || currency === '' || Number.isNaN(ts) || q <= ZERO || v < ZERO) {
    throw new UsageError(
      `${where}: give an account, an asset, a quantity above zero, a cost of zero or more, its currency and acquired_at as an ISO date or instant`,
    );
  }
  return { account, asset, quantity: q, cost: v, currency: currency.toUpperCase(), acquiredAt: ts };
}

/** Replaces the lots the warehouse holds (table opening_lots) with `lots`. */
export async function replaceOpeningLots(c: DuckDBConnection, lots: readonly OpeningLot[]): Promise<void> {
  await c.run('DELETE FROM opening_lots');
  for (const lot of lots) {
    await c.run(
      'INSERT INTO opening_lots VALUES ($account, $asset, CAST($quantity AS DECIMAL(38, 18)), CAST($cost AS DECIMAL(38, 18)), $currency, $at)',
      {
        account: lot.account,
        asset: lot.asset,
        quantity: text(lot.quantity),
        cost: text(lot.cost),
        currency: lot.currency,
        at: timestampTz(lot.acquiredAt),
      },
    );
  }
}

function lotsInOtherCurrency(currency: string, unit: string): UsageError {
  return new UsageError(
    `the opening lots are in ${currency}, but the gains are now in ${unit} (the fiat setting); give --opening-lots again with each cost in ${unit}`,
  );
}

/**
 * Refuses lots whose costs are in another currency than the gains' `unit` (the fiat setting, else USDT): checked
 * when the settings are settled, so that a fiat changed without its lots is said before anything is read.
 */
export async function checkOpeningLotsCurrency(c: DuckDBConnection, unit: string): Promise<void> {
  const other = (
    await c.runAndReadAll('SELECT currency FROM opening_lots WHERE currency <> $unit LIMIT 1', { unit })
  ).getRows()[0];
  if (other !== undefined) throw lotsInOtherCurrency(String(other[0]), unit);
}

/**
 * The lots the warehouse holds as acquisitions for the engine, in the gains' unit: a lot whose cost is in
 * another currency (the fiat changed since the file was given) is refused (exit 2). Lots of one instant keep the
 * file's order.
 */
export async function openingLotEvents(
  c: DuckDBConnection,
  unit: string,
  pool: 'account' | 'all',
  localDay: (ts: number) => string,
): Promise<{ pool: string; asset: string; event: GainEvent }[]> {
  const rows = (
    await c.runAndReadAll(
      'SELECT account, asset, CAST(quantity AS VARCHAR), CAST(cost AS VARCHAR), currency, epoch_ms(acquired_at) FROM opening_lots ORDER BY rowid',
    )
  ).getRows();
  return rows.map((r) => {
    const [account, asset, quantity, cost, currency, at] = [
      String(r[0]),
      String(r[1]),
      String(r[2]),
      String(r[3]),
      String(r[4]),
      Number(r[5]),
    ];
    if (currency !== unit) throw lotsInOtherCurrency(currency, unit);
    const event: GainEvent = {
      account,
      ts: at,
      day: localDay(at),
      kind: 'acquire',
      quantity: dec(quantity),
      value: dec(cost),
      fees: ZERO,
      tradeGroup: null,
      flags: ['opening_lot'],
    };
    return { pool: pool === 'all' ? 'all' : account, asset, event };
  });
}

/** An --opening-lots line to fill in: the quantity held and when, the cost left blank. */
export function openingLotLine(lot: {
  account: string;
  asset: string;
  quantity: string;
  currency: string;
  at: number;
}): string {
  return [lot.account, lot.asset, lot.quantity, '', lot.currency, formatInstant(lot.at)].join(',');
}
