import { balance, held, type RetailContext } from '../retail/context.js';
import type { Draft } from '../retail/book.js';
import { copyProfitRecord, copyTransferRecord, fundingRecord, utaFinancialRecord, utaTaxRecord } from './records.js';

/** One movement of the unified account: its type, coin, signed amount and fee (units of 10^-8). */
export interface UnifiedLeg {
  type: string;
  coin: string;
  units: bigint;
  fee?: bigint;
}

/**
 * Writes one event of the unified account at `ts` under `bizType` (docs/unified-accounts.md): each leg moves the coin's
 * unified balance, amount and fee, in order, and is written twice with that balance after it: a tax record and the
 * same movement among the financial records of its category. A leg that would take a balance below zero throws.
 *
 * @example
 * unifiedEvent(c, ts, 'SPOT', [{ type: 'TRANSFER_IN', coin: 'USDT', units: 500_00000000n }]);
 */
export function unifiedEvent(c: RetailContext, ts: number, bizType: string, legs: readonly UnifiedLeg[]): void {
  const tax: Draft[] = [];
  const financial: Draft[] = [];
  for (const leg of legs) {
    const fee = leg.fee ?? 0n;
    c.book.move(balance('unified', leg.coin), leg.units + fee);
    const after = held(c, 'unified', leg.coin);
    tax.push((id) => ({
      record: utaTaxRecord({ id, ts, type: leg.type, coin: leg.coin, amount: leg.units, fee, balance: after }),
    }));
    financial.push((id) => ({
      record: utaFinancialRecord({
        id,
        ts,
        category: bizType,
        type: leg.type,
        coin: leg.coin,
        amount: leg.units,
        fee,
        balance: after,
      }),
    }));
  }
  c.book.write('uta_tax_records', bizType, ts, tax);
  c.book.write('uta_financial_records', bizType, ts, financial);
}

/**
 * Writes one record of the funding account at `ts`, with the balance after it.
 *
 * @example
 * fundingEvent(c, ts, { groupType: 'deposit', type: 'DEPOSIT', coin: 'USDT', units: 1_000_00000000n });
 */
export function fundingEvent(
  c: RetailContext,
  ts: number,
  r: { groupType: string; type: string; coin: string; units: bigint; fee?: bigint },
): void {
  const fee = r.fee ?? 0n;
  c.book.move(balance('funding', r.coin), r.units + fee);
  const after = held(c, 'funding', r.coin);
  c.book.write('uta_financial_records', 'funding', ts, [
    (id) => ({
      record: fundingRecord({
        id,
        ts,
        groupType: r.groupType,
        type: r.type,
        coin: r.coin,
        amount: r.units,
        fee,
        balance: after,
      }),
    }),
  ]);
}

/**
 * Moves `units` of `coin` between the funding account and the unified account at one instant: a transfer record on
 * each side (the unified side under SPOT).
 *
 * @example
 * transferBetween(c, ts, 'USDT', 500_00000000n, 'to_unified');
 */
export function transferBetween(
  c: RetailContext,
  ts: number,
  coin: string,
  units: bigint,
  way: 'to_unified' | 'to_funding',
): void {
  if (units <= 0n) return;
  const intoUnified = way === 'to_unified';
  if (intoUnified) {
    fundingEvent(c, ts, { groupType: 'transfer', type: 'TRANSFER_OUT', coin, units: -units });
    unifiedEvent(c, ts, 'SPOT', [{ type: 'TRANSFER_IN', coin, units }]);
  } else {
    unifiedEvent(c, ts, 'SPOT', [{ type: 'TRANSFER_OUT', coin, units: -units }]);
    fundingEvent(c, ts, { groupType: 'transfer', type: 'TRANSFER_IN', coin, units });
  }
}

/**
 * Moves `units` of USDT between the funding account and a copy-trading project's account: the funding record (a
 * transfer, TRACE_TRANSFER_USER_OUT or _IN as the public client names them) and the copy transfer record, at one
 * instant.
 *
 * @example
 * copyTransfer(c, ts, '1188234567', 500_00000000n, 'to_copy');
 */
export function copyTransfer(
  c: RetailContext,
  ts: number,
  project: string,
  units: bigint,
  way: 'to_copy' | 'to_funding',
): void {
  if (units <= 0n) return;
  const intoCopy = way === 'to_copy';
  fundingEvent(c, ts, {
    groupType: 'transfer',
    type: intoCopy ? 'TRACE_TRANSFER_USER_OUT' : 'TRACE_TRANSFER_USER_IN',
    coin: 'USDT',
    units: intoCopy ? -units : units,
  });
  c.book.move(balance('copy', 'USDT', project), intoCopy ? units : -units);
  c.book.write('copy_transfers', project, ts, [
    () => ({
      record: copyTransferRecord({
        ts,
        from: intoCopy ? 'funding' : 'copy',
        to: intoCopy ? 'copy' : 'funding',
        coin: 'USDT',
        amount: units,
      }),
    }),
  ]);
}

/**
 * A profit-share settlement of a copy-trading project: the period's profit (its trading, which no record shows: the
 * caller counts it in the account's truth) and a tenth of it paid to the lead trader (the record).
 *
 * @example
 * copyProfitShare(c, ts, '1188234567', 40_00000000n);
 */
export function copyProfitShare(c: RetailContext, ts: number, project: string, profit: bigint): bigint {
  const share = profit > 0n ? profit / 10n : 0n;
  c.book.move(balance('copy', 'USDT', project), profit - share);
  c.book.write('copy_profit_shares', project, ts, [
    () => ({ record: copyProfitRecord({ ts, profit, shareProfit: share }) }),
  ]);
  return share;
}
