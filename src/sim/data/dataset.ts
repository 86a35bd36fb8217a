import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { generateAdverts } from './adverts.js';
import { generateDeposits } from './deposits.js';
import {
  accountMovements,
  balancesAt,
  keyOf,
  neededOpenings,
  PLACES,
  settleAccount,
  usdtValuation,
} from './accounts.js';
import { randomUnits } from './decimal.js';
import { generateFills } from './fills.js';
import { generateMarginRecords } from './margin.js';
import { pricer } from './markets.js';
import {
  DAY_MS,
  PAGED_STREAMS,
  BEYOND_CLASSIC_STREAMS,
  withoutRecords,
  type Dataset,
  type GenerateOptions,
  type PagedStream,
  type Partition,
} from './types.js';
import { fundOpening } from './opening.js';
import { createRng, type Rng } from './rng.js';
import { spotMirrors } from './spot-mirrors.js';
import { generateFutureTaxRecords, generateP2pTaxRecords, generateSpotTaxRecords } from './tax-records.js';
import { generateWithdrawals } from './withdrawals.js';

/** The bots' balances: no records move them (docs/completeness.md, "Balances"), so they stay as they opened. */
function botOpenings(rng: Rng): Map<string, bigint> {
  return new Map([
    [keyOf({ accountType: 'bots', asset: 'USDT', symbol: 'spot' }), randomUnits(rng, 100, 5_000, PLACES)],
    [keyOf({ accountType: 'bots', asset: 'USDT', symbol: 'futures' }), randomUnits(rng, 100, 5_000, PLACES)],
  ]);
}

/** A stress account's registration by default: before every record (the generators reach 3 days before `from`). */
export const STRESS_OPENED_BEFORE_MS = 5 * DAY_MS;

/**
 * The simulator's stress data set, a pure function of the options: the same seed, range and scale give the same
 * records, byte for byte, on every machine. The streams describe one account (accounts.ts): its trades are priced at
 * the candles it serves, each internal transfer appears on both sides, its balances are zero at its registration
 * (`openedAt`, default `from` less 5 days) and funded then by records of their own (opening.ts), bots aside, and its
 * per-asset balances are those records plus every other.
 *
 * @example
 * const data = generateDataset({ seed: '1', from: Date.UTC(2025, 0, 1), to: Date.UTC(2026, 0, 1), records: 2000, marginWindowDays: 366 });
 */
export function generateDataset(options: GenerateOptions): Dataset {
  const rng = createRng(`ledgerpipe-sim:${options.seed}`);
  const priceAt = pricer(options.priceSeed ?? options.seed, options.markets);
  const others = {
    margin_records: generateMarginRecords(options, rng.fork('margin_records'), priceAt),
    futures_fills: generateFills(options, rng.fork('futures_fills'), priceAt),
    withdrawals: generateWithdrawals(options, rng.fork('withdrawals')),
    p2p_advertisements: generateAdverts(options, rng.fork('p2p_advertisements')),
    deposits: generateDeposits(options, rng.fork('deposits')),
    futures_tax_records: generateFutureTaxRecords(options, rng.fork('futures_tax_records')),
    p2p_tax_records: generateP2pTaxRecords(options, rng.fork('p2p_tax_records')),
  };
  const generated: Record<PagedStream, Partition[]> = {
    ...others,
    ...withoutRecords(BEYOND_CLASSIC_STREAMS),
    spot_tax_records: generateSpotTaxRecords(options, rng.fork('spot_tax_records'), priceAt, spotMirrors(others)),
  };
  const openedAt = options.openedAt ?? options.from - STRESS_OPENED_BEFORE_MS;
  const movements = accountMovements(generated);
  const streams = fundOpening(
    generated,
    movements,
    neededOpenings(movements, rng.fork('account')),
    { openedAt, from: options.from },
    rng.fork('opening'),
  );
  const account = settleAccount(streams);
  for (const [k, v] of botOpenings(rng.fork('bots'))) account.opening.set(k, v);
  const now = balancesAt(account, Number.POSITIVE_INFINITY);
  return {
    from: options.from,
    to: options.to,
    accountMode: 'classic',
    openedAt,
    streams,
    balances: usdtValuation(now, priceAt, options.to),
    account,
    dropped: [],
  };
}

/** The text of `--truth`, in chunks of about 64 KiB. */
function* truthChunks(dataset: Dataset): Generator<string> {
  let buffer = '{';
  for (const [s, stream] of PAGED_STREAMS.entries()) {
    buffer += `${s === 0 ? '' : ','}\n${JSON.stringify(stream)}: [`;
    let first = true;
    for (const partition of dataset.streams[stream]) {
      const prefix = `{"partition":${JSON.stringify(partition.name)},"record":`;
      for (const r of partition.records) {
        buffer += `${first ? '' : ','}\n${prefix}${JSON.stringify(r.record)}}`;
        first = false;
        if (buffer.length > 65_536) {
          yield buffer;
          buffer = '';
        }
      }
    }
    buffer += '\n]';
  }
  const balances = dataset.balances.map((b) => `\n{"partition":"","record":${JSON.stringify(b)}}`).join(',');
  yield `${buffer},\n"account_balances": [${balances}\n]\n}\n`;
}

/**
 * Writes `--truth`: one JSON object keyed by stream name, each an array of `{partition, record}` with the
 * record exactly as served (a withdrawal whose status moves appears in its final form). One entry per line,
 * streamed, so a million records never become one string.
 */
export async function writeTruth(dataset: Dataset, path: string): Promise<void> {
  await pipeline(Readable.from(truthChunks(dataset)), createWriteStream(path, { encoding: 'utf8' }));
}

/** The text of `--truth` for several accounts: `{"accounts": [{name, apiKey, truth}, ...]}`, each truth as above. */
function* accountsTruthChunks(
  accounts: readonly { name: string; apiKey: string; dataset: Dataset }[],
): Generator<string> {
  yield '{"accounts": [';
  for (const [i, a] of accounts.entries()) {
    yield `${i === 0 ? '' : ','}\n{"name":${JSON.stringify(a.name)},"apiKey":${JSON.stringify(a.apiKey)},"truth":`;
    yield* truthChunks(a.dataset);
    yield '}';
  }
  yield '\n]}\n';
}

/** Writes `--truth` of a simulator serving several accounts (`--accounts N`): each account's records, by name. */
export async function writeAccountsTruth(
  accounts: readonly { name: string; apiKey: string; dataset: Dataset }[],
  path: string,
): Promise<void> {
  await pipeline(Readable.from(accountsTruthChunks(accounts)), createWriteStream(path, { encoding: 'utf8' }));
}
