import { formatUnits } from './decimal.js';
import type { Payload } from './types.js';

/**
 * The payloads of the record streams, field for field as the simulator serves them (docs/platform.md), for the
 * generators that write records one by one: the stress set's funded opening (opening.ts) and the retail account
 * (retail/). Amounts are units of 10^-8; running balances (`balance`, `total`) are written later from the whole
 * account (accounts.ts, settleAccount).
 */

const text = (units: bigint): string => formatUnits(units, 8);

/**
 * A spot tax record (GET /api/v2/tax/spot-record): `amount` signed, `fee` signed (paid is negative), the legs of one
 * order under one bizOrderId.
 *
 * @example
 * spotTaxRecord({ id, ts, type: 'Deposit', coin: 'USDT', amount: 100_00000000n });
 */
export function spotTaxRecord(r: {
  id: string;
  ts: number;
  type: string;
  coin: string;
  amount: bigint;
  fee?: bigint;
  bizOrderId?: string;
}): Payload {
  const fee = r.fee ?? 0n;
  return {
    id: r.id,
    coin: r.coin,
    spotTaxType: r.type,
    amount: text(r.amount),
    fee: fee === 0n ? '0' : text(fee),
    balance: '',
    bizOrderId: r.bizOrderId ?? String(BigInt(r.id) + 11n),
    ts: String(r.ts),
  };
}

/**
 * A margin tax record (GET /api/v2/tax/margin-record): outflows written negative, the fee negative when paid;
 * `symbol` the pair (isolated margin, and trades in crossed), else ''.
 *
 * @example
 * marginRecord({ id, ts, type: 'borrow', coin: 'USDT', symbol: '', amount: 500_00000000n });
 */
export function marginRecord(r: {
  id: string;
  ts: number;
  type: string;
  coin: string;
  symbol: string;
  amount: bigint;
  fee?: bigint;
}): Payload {
  const fee = r.fee ?? 0n;
  return {
    id: r.id,
    coin: r.coin,
    symbol: r.symbol,
    marginTaxType: r.type,
    amount: text(r.amount),
    fee: fee === 0n ? '0' : text(fee),
    total: '',
    ts: String(r.ts),
  };
}

/**
 * A futures tax record (GET /api/v2/tax/future-record): `amount` signed (a funding fee paid, a transfer out:
 * negative).
 *
 * @example
 * futureTaxRecord({ id, ts, type: 'trans_from_exchange', symbol: 'BTCUSDT', marginCoin: 'USDT', amount: 5_000_00000000n });
 */
export function futureTaxRecord(r: {
  id: string;
  ts: number;
  type: string;
  symbol: string;
  marginCoin: string;
  amount: bigint;
  fee?: bigint;
}): Payload {
  const fee = r.fee ?? 0n;
  return {
    id: r.id,
    symbol: r.symbol,
    marginCoin: r.marginCoin,
    futureTaxType: r.type,
    amount: text(r.amount),
    fee: fee === 0n ? '0' : text(fee),
    ts: String(r.ts),
  };
}

/**
 * A P2P tax record (GET /api/v2/tax/p2p-record), its signed amount in `balance` as the newest docs' example has it.
 *
 * @example
 * p2pTaxRecord({ id, ts, type: 'buy', coin: 'USDT', amount: 1_000_00000000n });
 */
export function p2pTaxRecord(r: { id: string; ts: number; type: string; coin: string; amount: bigint }): Payload {
  return { id: r.id, coin: r.coin, p2pTaxType: r.type, balance: text(r.amount), ts: String(r.ts) };
}

/** Where a deposit or withdrawal went: on chain (with its hash and addresses) or between platform users (UIDs). */
export interface Transit {
  dest: 'on_chain' | 'internal_transfer';
  chain: string;
  /** The hash on chain; for an internal transfer, the order id stands in (the live records do so). */
  txHash?: string;
  fromAddress: string;
  toAddress: string;
}

/**
 * A deposit record (GET /api/v2/spot/wallet/deposit-records), in the shape of the docs' example.
 *
 * @example
 * depositRecord({ orderId, ts, coin: 'USDT', size: 2_000_00000000n, status: 'success', uTime: ts + 90_000, transit });
 */
export function depositRecord(r: {
  orderId: string;
  ts: number;
  coin: string;
  size: bigint;
  status: string;
  uTime: number;
  transit: Transit;
}): Payload {
  const t = r.transit;
  return {
    orderId: r.orderId,
    tradeId: t.dest === 'on_chain' ? (t.txHash as string) : r.orderId,
    coin: r.coin,
    type: 'deposit',
    size: text(r.size),
    status: r.status,
    toAddress: t.toAddress,
    dest: t.dest,
    chain: t.chain,
    fromAddress: t.fromAddress,
    cTime: String(r.ts),
    uTime: String(r.uTime),
  };
}

/**
 * A withdrawal record (GET /api/v2/spot/wallet/withdrawal-records): `size` what was sent, `fee` negative (what the
 * account paid on top of it).
 *
 * @example
 * withdrawalRecord({ orderId, ts, coin: 'USDT', size: 500_00000000n, fee: -1_00000000n, status: 'success', confirm: '40', uTime, transit });
 */
export function withdrawalRecord(r: {
  orderId: string;
  ts: number;
  coin: string;
  size: bigint;
  fee: bigint;
  status: string;
  confirm: string;
  uTime: number;
  clientOid?: string;
  transit: Transit;
}): Payload {
  const t = r.transit;
  return {
    orderId: r.orderId,
    tradeId: t.dest === 'on_chain' ? (t.txHash as string) : r.orderId,
    coin: r.coin,
    clientOid: r.clientOid ?? '',
    type: 'withdraw',
    dest: t.dest,
    size: text(r.size),
    fee: text(r.fee),
    status: r.status,
    fromAddress: t.fromAddress,
    toAddress: t.toAddress,
    chain: t.chain,
    confirm: r.confirm,
    tag: '',
    cTime: String(r.ts),
    uTime: String(r.uTime),
  };
}
