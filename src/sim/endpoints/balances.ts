import { SimApiError } from '../api-error.js';
import { balancesAt, keyFrom, PLACES, type AccountType } from '../data/accounts.js';
import { formatUnits } from '../data/decimal.js';
import type { Dataset, Payload } from '../data/types.js';
import type { Endpoint } from './endpoint.js';
import { partFacts } from './stream-facts.js';

type Row = { asset: string; symbol: string; units: bigint };
type Rows = (t: AccountType) => Row[];
const text = (u: bigint) => formatUnits(u, PLACES);

/**
 * The balances at the server's present, per account type: the movements before it (the data reaches past its range).
 */
function balancesNow(dataset: Dataset): (now: number) => Rows {
  let at = Number.NaN;
  let rows = new Map<AccountType, Row[]>();
  return (now) => {
    const settled = Math.min(now, (dataset.account.movements.at(-1)?.ts ?? 0) + 1);
    if (settled !== at) {
      at = settled;
      rows = new Map();
      for (const [k, units] of [...balancesAt(dataset.account, settled)].sort(([x], [y]) => (x < y ? -1 : 1))) {
        const { accountType, asset, symbol } = keyFrom(k);
        rows.set(accountType, [...(rows.get(accountType) ?? []), { asset, symbol, units }]);
      }
    }
    return (t) => rows.get(t) ?? [];
  };
}

// Each endpoint's rows in the shape of the docs' example; an eighth of a spot balance frozen, say, exactly.
const spotRows = (rows: Row[], time: string): Payload[] =>
  rows
    .filter((r) => r.units !== 0n)
    .map((r) => ({
      coin: r.asset,
      available: text(r.units - r.units / 8n),
      frozen: text(r.units / 8n),
      locked: '0',
      limitAvailable: '0',
      uTime: time,
    }));

/** An open position's unrealized profit: in the equity, not in any record yet. */
const futuresRows = (rows: Row[]): Payload[] =>
  rows.map((r) => {
    const upl = r.units / 20n;
    return {
      marginCoin: r.asset,
      locked: '0',
      available: text(r.units),
      crossedMaxAvailable: text(r.units),
      isolatedMaxAvailable: text(r.units),
      maxTransferOut: text(r.units),
      accountEquity: text(r.units + upl),
      usdtEquity: text(r.units + upl),
      btcEquity: '0',
      crossedRiskRate: '0',
      unrealizedPL: text(upl),
      coupon: '0',
      crossedUnrealizedPL: text(upl),
      isolatedUnrealizedPL: '0',
      isolatedMargin: '0',
      crossedMargin: '0',
      assetMode: 'single',
    };
  });

const marginRows = (isolated: boolean, rows: Row[], time: string): Payload[] =>
  rows.map((r) => {
    const [frozen, borrow, interest] = [r.units / 10n, r.units / 4n, r.units / 1000n];
    return {
      ...(isolated ? { symbol: r.symbol } : {}),
      coin: r.asset,
      totalAmount: text(r.units),
      available: text(r.units - frozen),
      frozen: text(frozen),
      borrow: text(borrow),
      interest: text(interest),
      net: text(r.units - borrow - interest),
      coupon: '0',
      cTime: time,
      uTime: time,
    };
  });

const botRows = (rows: Row[], botType: string): Payload[] =>
  rows
    .filter((r) => r.symbol === botType)
    .map((r) =>
      botType === 'futures'
        ? {
            coin: r.asset,
            available: text(r.units),
            equity: text(r.units),
            bonus: '0',
            frozen: '0',
            usdtValue: text(r.units),
          }
        : { coin: r.asset, available: text(r.units), frozen: '0', usdtValue: text(r.units) },
    );

/** The earn account's balances: a row per asset it holds. */
function earnRows(rows: Row[]): Payload[] {
  return rows.filter((r) => r.units !== 0n).map((r) => ({ coin: r.asset, amount: text(r.units) }));
}

/** The funding account's balances: a row per asset it holds, all of it available. */
function fundingRows(rows: Row[]): Payload[] {
  return rows
    .filter((r) => r.units !== 0n)
    .map((r) => ({ coin: r.asset, available: text(r.units), frozen: '', usdtValue: text(r.units) }));
}

/**
 * The per-asset balance endpoints (docs/platform.md, "Balances"), answering the account's balances at the server's
 * present, dropped records included, in the shapes of the docs' examples. Each keeps its one quantity exactly as
 * ledgerpipe's rule reads it (docs/completeness.md, "Balances"): spot available + frozen + locked; futures
 * accountEquity - unrealizedPL; margin totalAmount; earn amount; funding available + frozen; bots as opened.
 */
export function balanceEndpoints(
  dataset: Dataset,
  options: { unavailable?: readonly AccountType[] | undefined } = {},
): Endpoint[] {
  const balances = balancesNow(dataset);
  const time = String(dataset.to);
  type Handle = (c: { now: number }) => string;
  const answer = (t: AccountType, data: (of: Rows) => Payload[]): Handle =>
    options.unavailable?.includes(t) ? denied : ({ now }) => JSON.stringify(data(balances(now)));
  const futures: Record<string, Handle> = Object.fromEntries(
    (['usdt_futures', 'coin_futures', 'usdc_futures'] as const).map((t) => [
      `${t.split('_')[0]?.toUpperCase()}-FUTURES`,
      answer(t, (of) => futuresRows(of(t))),
    ]),
  );
  const bots: Record<string, Handle> = Object.fromEntries(
    ['spot', 'futures'].map((b) => [b, answer('bots', (of) => botRows(of('bots'), b))]),
  );
  // Each account type's endpoint as the stream asset_balances reads it (its part of that name): path and rate.
  const signed = (part: string, handle: Endpoint['handle']): Endpoint => ({
    ...partFacts('asset_balances', part),
    signed: true,
    handle,
  });
  return [
    signed(
      'spot',
      answer('spot', (of) => spotRows(of('spot'), time)),
    ),
    signed('usdt_futures', ({ params, now }) => {
      const handle = futures[params.required('productType').toUpperCase()];
      if (handle === undefined) throw new SimApiError(400, '40019', 'Parameter productType error');
      return handle({ now });
    }),
    signed(
      'margin_crossed',
      answer('margin_crossed', (of) => marginRows(false, of('margin_crossed'), time)),
    ),
    signed(
      'margin_isolated',
      answer('margin_isolated', (of) => marginRows(true, of('margin_isolated'), time)),
    ),
    signed(
      'earn',
      answer('earn', (of) => earnRows(of('earn'))),
    ),
    signed(
      'funding',
      answer('funding', (of) => fundingRows(of('funding'))),
    ),
    signed('bots', ({ params, now }) =>
      (bots[params.optional('accountType') ?? 'spot'] ?? (bots['spot'] as Handle))({ now }),
    ),
  ];
}

/** An account type this key may not read: the live answer to a key without the permission. */
function denied(): string {
  throw new SimApiError(400, '40014', 'Incorrect permissions');
}
