import { keyFrom, type AccountType, type Movement } from './accounts.js';
import type { PagedStream, Partition, Payload, SimRecord } from './types.js';
import { depositRecord, futureTaxRecord, marginRecord, p2pTaxRecord, spotTaxRecord } from './record-shapes.js';
import type { Rng } from './rng.js';
import { spotMirrors } from './spot-mirrors.js';
import { buildEventRecords } from './timeline.js';

const FUTURES_PARTITION: Partial<Record<AccountType, string>> = {
  usdt_futures: 'USDT-FUTURES',
  coin_futures: 'COIN-FUTURES',
  usdc_futures: 'USDC-FUTURES',
};

type Streams = Record<PagedStream, Partition[]>;
/** One record to add: its stream, partition and time, and its payload once it has an id. */
type Draft = { stream: PagedStream; partition: string; ts: number; build: (id: string) => Payload };

/** The spot records that mirror the funding's deposits and transfers (spot-mirrors.ts). */
function mirrorDrafts(others: readonly Draft[]): Draft[] {
  const byStream = (stream: PagedStream): Partition[] => {
    const names = [...new Set(others.filter((d) => d.stream === stream).map((d) => d.partition))];
    return names.map((name) => ({
      name,
      records: others
        .filter((d) => d.stream === stream && d.partition === name)
        .map((d): SimRecord => ({ ts: d.ts, id: '0', record: d.build('0') })),
    }));
  };
  const mirrors = spotMirrors({
    margin_records: byStream('margin_records'),
    futures_fills: [],
    withdrawals: [],
    p2p_advertisements: [],
    deposits: byStream('deposits'),
    futures_tax_records: byStream('futures_tax_records'),
    p2p_tax_records: byStream('p2p_tax_records'),
  });
  return mirrors.map((m) => ({
    stream: 'spot_tax_records',
    partition: '',
    ts: m.ts,
    build: (id) => spotTaxRecord({ id, ts: m.ts, type: m.type, coin: m.coin, amount: m.amount, fee: m.fee }),
  }));
}

/** The record that moves an opening's `units` of `asset` from spot into an account type's balance, at `ts`. */
function transferDraft(
  accountType: AccountType,
  move: { asset: string; symbol: string; units: bigint; ts: number },
): Draft {
  const { asset, symbol, units, ts } = move;
  const futures = FUTURES_PARTITION[accountType];
  if (accountType === 'margin_crossed' || accountType === 'margin_isolated') {
    const partition = accountType === 'margin_crossed' ? 'crossed' : 'isolated';
    return {
      stream: 'margin_records',
      partition,
      ts,
      build: (id) => marginRecord({ id, ts, type: 'transfer_in', coin: asset, symbol, amount: units }),
    };
  } else if (futures !== undefined) {
    return {
      stream: 'futures_tax_records',
      partition: futures,
      ts,
      build: (id) =>
        futureTaxRecord({ id, ts, type: 'trans_from_exchange', symbol: '', marginCoin: asset, amount: units }),
    };
  } else if (accountType === 'funding') {
    return {
      stream: 'p2p_tax_records',
      partition: '',
      ts,
      build: (id) => p2pTaxRecord({ id, ts, type: 'transfer-in', coin: asset, amount: units }),
    };
  } else if (accountType === 'earn') {
    return {
      stream: 'spot_tax_records',
      partition: '',
      ts,
      build: (id) => spotTaxRecord({ id, ts, type: 'Subscribe', coin: asset, amount: -units }),
    };
  } else {
    throw new Error(`no record funds a ${accountType} balance`);
  }
}

/** The streams with the drafts' records added to their partitions, older than every record already there. */
function withDrafts(streams: Streams, all: readonly Draft[], rng: Rng): Streams {
  const out = {} as Streams;
  for (const [stream, partitions] of Object.entries(streams) as [PagedStream, Partition[]][]) {
    out[stream] = partitions.map((p, index) => {
      const mine = all
        .filter((d) => d.stream === stream && d.partition === p.name)
        .map((d) => ({ ts: d.ts, legs: [d] }));
      if (mine.length === 0) return p;
      const added = buildEventRecords(mine, index, rng.fork(`${stream}:${p.name}`), (event, _leg, _ts, id) => ({
        record: (event.legs[0] as Draft).build(id),
      }));
      // Every record added is older than every record there: newest first, they come after them.
      return { name: p.name, records: [...p.records, ...added] };
    });
  }
  return out;
}

/**
 * A stress account's funded opening: at its registration `openedAt`, every balance is zero, and records explain the
 * balances its streams need before their first record (`needed`: accounts.ts, neededOpenings). Per asset, one
 * deposit into spot (a `success` deposit record and its spot "Deposit" mirror) of the asset's needs over every
 * account type plus a slack, the sum of the sizes of every movement of that asset before `from`, so that a reader
 * that skips some of the records before the range never runs out of coins to match; then, each a second after the
 * last, a transfer from spot into every other balance that needs one: margin `transfer_in` (crossed, and isolated
 * per pair), futures `trans_from_exchange`, P2P `transfer-in`, each with its spot "Transfer out" mirror, and earn
 * "Subscribe". The bots' balances are left as they are: no record moves them (docs/completeness.md, "Balances").
 * `movements` are the streams' own (accountMovements), which the slack is counted from. Returns the streams with
 * these records added, oldest of every partition.
 *
 * @example
 * const movements = accountMovements(streams);
 * const funded = fundOpening(streams, movements, neededOpenings(movements, rng), { openedAt: from - 5 * DAY_MS, from }, rng.fork('opening'));
 */
export function fundOpening(
  streams: Streams,
  movements: readonly Movement[],
  needed: ReadonlyMap<string, bigint>,
  range: { openedAt: number; from: number },
  rng: Rng,
): Streams {
  const earliest = Math.min(
    ...Object.values(streams).flatMap((ps) => ps.map((p) => p.records.at(-1)?.ts ?? Number.POSITIVE_INFINITY)),
  );
  const abs = (u: bigint) => (u < 0n ? -u : u);
  const slack = new Map<string, bigint>();
  for (const m of movements) if (m.ts < range.from) slack.set(m.asset, (slack.get(m.asset) ?? 0n) + abs(m.units));
  const funded = [...needed].filter(([k, units]) => units > 0n && keyFrom(k).accountType !== 'bots');
  const perAsset = new Map<string, bigint>();
  for (const [k, units] of funded) perAsset.set(keyFrom(k).asset, (perAsset.get(keyFrom(k).asset) ?? 0n) + units);
  const assets = [...perAsset.keys()].sort();
  const at = (i: number) => range.openedAt + i * 1000;
  const drafts: Draft[] = assets.map((coin, i) => ({
    stream: 'deposits',
    partition: '',
    ts: at(i),
    build: (id) =>
      depositRecord({
        orderId: id,
        ts: at(i),
        coin,
        size: (perAsset.get(coin) as bigint) + (slack.get(coin) ?? 0n),
        status: 'success',
        uTime: at(i) + 600,
        // From another user of the platform: one kind of deposit for every asset, fiat and BGB included.
        transit: {
          dest: 'internal_transfer',
          chain: '',
          fromAddress: String(rng.fork(coin).int(1_000_000_000, 9_999_999_999)),
          toAddress: '',
        },
      }),
  }));
  const transfers = funded.filter(([k]) => keyFrom(k).accountType !== 'spot').sort(([a], [b]) => (a < b ? -1 : 1));
  for (const [i, [k, units]] of transfers.entries()) {
    const { accountType, asset, symbol } = keyFrom(k);
    const ts = at(assets.length + i);
    drafts.push(transferDraft(accountType, { asset, symbol, units, ts }));
  }
  const all = [...drafts, ...mirrorDrafts(drafts.filter((d) => d.stream !== 'spot_tax_records'))];
  if (all.some((d) => d.ts >= earliest))
    throw new RangeError(
      `the registration (${range.openedAt}) must come before the first record (${earliest}), with a second for each funding record`,
    );
  return withDrafts(streams, all, rng);
}
