import { SimApiError } from '../api-error.js';
import { balancesAt, keyFrom, PLACES, type AccountType } from '../data/accounts.js';
import { formatUnits } from '../data/decimal.js';
import type { Dataset, Payload } from '../data/model.js';
import type { Endpoint } from './endpoint.js';

/**
 * The per-asset balance endpoints (docs/platform.md, "Balances"), answering the account's balances after every
 * record it generated, dropped ones included, in the shapes of the docs' examples. Each keeps its one quantity
 * exactly as ledgerpipe's rule reads it (docs/completeness.md, "Balances"): spot available + frozen + locked; futures
 * accountEquity - unrealizedPL; margin totalAmount; earn amount; funding available + frozen; bots as opened.
 */
export function balanceEndpoints(dataset: Dataset, options: { unavailable?: readonly AccountType[] | undefined } = {}): Endpoint[] {
  const now = balancesAt(dataset.account, Number.POSITIVE_INFINITY);
  const rows = new Map<AccountType, { asset: string; symbol: string; units: bigint }[]>();
  for (const [k, units] of [...now].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const { accountType, asset, symbol } = keyFrom(k);
    rows.set(accountType, [...(rows.get(accountType) ?? []), { asset, symbol, units }]);
  }
  const of = (t: AccountType) => rows.get(t) ?? [];
  const text = (u: bigint) => formatUnits(u, PLACES);
  // A share of a balance, exactly: an eighth of it frozen, say.
  const part = (u: bigint, d: bigint) => u / d;
  const answer = (t: AccountType, data: () => Payload[]) => (options.unavailable?.includes(t) ? denied : () => JSON.stringify(data()));
  const time = String(dataset.to);

  const spot = (): Payload[] =>
    of('spot')
      .filter((r) => r.units !== 0n)
      .map((r) => {
        const frozen = part(r.units, 8n);
        return { coin: r.asset, available: text(r.units - frozen), frozen: text(frozen), locked: '0', limitAvailable: '0', uTime: time };
      });
  const futures = (t: AccountType) => (): Payload[] =>
    of(t).map((r) => {
      // An open position's unrealized profit: in the equity, not in any record yet.
      const unrealized = part(r.units, 20n);
      return {
        marginCoin: r.asset, locked: '0', available: text(r.units), crossedMaxAvailable: text(r.units), isolatedMaxAvailable: text(r.units),
        maxTransferOut: text(r.units), accountEquity: text(r.units + unrealized), usdtEquity: text(r.units + unrealized), btcEquity: '0',
        crossedRiskRate: '0', unrealizedPL: text(unrealized), coupon: '0', crossedUnrealizedPL: text(unrealized), isolatedUnrealizedPL: '0',
        isolatedMargin: '0', crossedMargin: '0', assetMode: 'single',
      };
    });
  const margin = (t: AccountType) => (): Payload[] =>
    of(t).map((r) => {
      const frozen = part(r.units, 10n);
      const borrow = part(r.units, 4n);
      const interest = part(r.units, 1000n);
      return {
        ...(t === 'margin_isolated' ? { symbol: r.symbol } : {}),
        coin: r.asset, totalAmount: text(r.units), available: text(r.units - frozen), frozen: text(frozen), borrow: text(borrow),
        interest: text(interest), net: text(r.units - borrow - interest), coupon: '0', cTime: time, uTime: time,
      };
    });
  const bots = (botType: string) => (): Payload[] =>
    of('bots')
      .filter((r) => r.symbol === botType)
      .map((r) => (botType === 'futures' ? { coin: r.asset, available: text(r.units), equity: text(r.units), bonus: '0', frozen: '0', usdtValue: text(r.units) } : { coin: r.asset, available: text(r.units), frozen: '0', usdtValue: text(r.units) }));

  const futuresParts: Record<string, () => string> = {
    'USDT-FUTURES': answer('usdt_futures', futures('usdt_futures')),
    'COIN-FUTURES': answer('coin_futures', futures('coin_futures')),
    'USDC-FUTURES': answer('usdc_futures', futures('usdc_futures')),
  };
  const botParts: Record<string, () => string> = { spot: answer('bots', bots('spot')), futures: answer('bots', bots('futures')) };
  return [
    { path: '/api/v2/spot/account/assets', signed: true, rate: 10, handle: answer('spot', spot) },
    {
      path: '/api/v2/mix/account/accounts',
      signed: true,
      rate: 10,
      handle: ({ params }) => {
        const handle = futuresParts[params.required('productType').toUpperCase()];
        if (handle === undefined) throw new SimApiError(400, '40019', 'Parameter productType error');
        return handle();
      },
    },
    { path: '/api/v2/margin/crossed/account/assets', signed: true, rate: 10, handle: answer('margin_crossed', margin('margin_crossed')) },
    { path: '/api/v2/margin/isolated/account/assets', signed: true, rate: 10, handle: answer('margin_isolated', margin('margin_isolated')) },
    { path: '/api/v2/earn/account/assets', signed: true, rate: 10, handle: answer('earn', () => of('earn').filter((r) => r.units !== 0n).map((r) => ({ coin: r.asset, amount: text(r.units) }))) },
    {
      path: '/api/v2/account/funding-assets',
      signed: true,
      rate: 10,
      handle: answer('funding', () => of('funding').filter((r) => r.units !== 0n).map((r) => ({ coin: r.asset, available: text(r.units), frozen: '', usdtValue: text(r.units) }))),
    },
    {
      path: '/api/v2/account/bot-assets',
      signed: true,
      rate: 10,
      handle: ({ params }) => (botParts[params.optional('accountType') ?? 'spot'] ?? botParts['spot'] as () => string)(),
    },
  ];
}

/** An account type this key may not read: the live answer to a key without the permission. */
function denied(): string {
  throw new SimApiError(400, '40014', 'Incorrect permissions');
}
