import { formatUnits } from '../decimal.js';
import type { Payload } from '../types.js';

/**
 * The payloads of a unified account's record streams, field for field as the simulator serves them
 * (docs/unified-accounts.md). Amounts are units of 10^-8, written signed (negative out), as the docs' examples write
 * them; `balance` is the coin's balance after the record, its fee included (docs/simulator.md, "A unified account").
 */
const text = (units: bigint): string => formatUnits(units, 8);

/** One movement of a coin as the unified account's record streams carry it (amounts in units of 10^-8). */
interface Movement {
  id: string;
  ts: number;
  type: string;
  coin: string;
  amount: bigint;
  fee?: bigint;
  balance: bigint;
}

/** The fields every one of those records ends with: the signed amount, the fee, the balance after it, the time. */
const movementFields = (r: Movement) => ({
  amount: text(r.amount),
  fee: text(r.fee ?? 0n),
  balance: text(r.balance),
  ts: String(r.ts),
});

/**
 * A unified tax record (GET /api/v3/tax/records), in the shape of the docs' example.
 *
 * @example
 * utaTaxRecord({ id, ts, type: 'ORDER_DEALT_IN', coin: 'BTC', amount: 1_000_000n, balance: 5_000_000n });
 */
export function utaTaxRecord(r: Movement): Payload {
  return {
    id: r.id,
    coin: r.coin,
    type: r.type,
    ...movementFields(r),
  };
}

/**
 * A unified financial record (GET /api/v3/account/financial-records), in the shape of the docs' example: the same
 * movement as its tax record, under its category.
 *
 * @example
 * utaFinancialRecord({ id, ts, category: 'SPOT', type: 'ORDER_DEALT_IN', coin: 'BTC', amount: 1_000_000n, balance: 5_000_000n });
 */
export function utaFinancialRecord(r: Movement & { category: string; symbol?: string }): Payload {
  return {
    category: r.category,
    id: r.id,
    symbol: r.symbol ?? '',
    coin: r.coin,
    type: r.type,
    ...movementFields(r),
  };
}

/**
 * A funding account record (GET /api/v3/account/funding-financial-records), in the fields the public clients read
 * (id, coin, groupType, type, amount, balance, ts; a fee where one was paid). The docs are not in the mirror: the
 * `type` values here (DEPOSIT, WITHDRAW, TRANSFER_IN, TRANSFER_OUT) are the simulator's own; ledgerpipe books these
 * records by `groupType`.
 *
 * @example
 * fundingRecord({ id, ts, groupType: 'deposit', type: 'DEPOSIT', coin: 'USDT', amount: 100_00000000n, balance: 100_00000000n });
 */
export function fundingRecord(r: Movement & { groupType: string }): Payload {
  return {
    id: r.id,
    coin: r.coin,
    groupType: r.groupType,
    type: r.type,
    ...movementFields(r),
  };
}

/**
 * A follower's copy-trading transfer (GET /api/v3/copy/futures/copy-transfer-record), in the fields a public client
 * reads (fromType, toType, amount, coin, status, createdTime): no id.
 *
 * @example
 * copyTransferRecord({ ts, from: 'funding', to: 'copy', coin: 'USDT', amount: 500_00000000n });
 */
export function copyTransferRecord(r: { ts: number; from: string; to: string; coin: string; amount: bigint }): Payload {
  return {
    fromType: r.from,
    toType: r.to,
    amount: text(r.amount),
    coin: r.coin,
    status: 'successful',
    createdTime: String(r.ts),
  };
}

/**
 * A follower's profit-share settlement (GET /api/v3/copy/futures/copy-profit-details): settleTime, profit,
 * allocatedPnl, pendingPnl, shareRatio, shareProfit.
 *
 * @example
 * copyProfitRecord({ ts, profit: 40_00000000n, shareProfit: 4_00000000n });
 */
export function copyProfitRecord(r: { ts: number; profit: bigint; shareProfit: bigint }): Payload {
  return {
    settleTime: String(r.ts),
    profit: text(r.profit),
    allocatedPnl: text(r.profit),
    pendingPnl: '0',
    shareRatio: '0.1',
    shareProfit: text(r.shareProfit),
  };
}
