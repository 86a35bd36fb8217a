import { units8 } from './accounts.js';
import type { BeyondClassicStream, PagedStream, Partition } from './types.js';
import type { SpotMirror } from './tax-records.js';

/**
 * The other streams' movements into and out of spot, as spot records (tax-records.ts, SPOT_MIRROR_TYPES): each
 * successful deposit and withdrawal, and each transfer with the margin, futures and P2P (funding) accounts, at the
 * other record's time, so that every internal transfer has both sides.
 *
 * @example
 * const mirrors = spotMirrors({ margin_records, futures_fills, withdrawals, p2p_advertisements, deposits, futures_tax_records, p2p_tax_records });
 */
export function spotMirrors(
  streams: Omit<Record<PagedStream, Partition[]>, 'spot_tax_records' | BeyondClassicStream>,
): SpotMirror[] {
  const out: SpotMirror[] = [];
  const abs = (u: bigint) => (u < 0n ? -u : u);
  // Into another account type is out of spot, and back.
  const transfer = (ts: number, coin: string, amount: unknown, intoOther: boolean) =>
    out.push({
      ts,
      type: intoOther ? 'Transfer out' : 'Transfer in',
      coin,
      amount: intoOther ? -abs(units8(amount)) : abs(units8(amount)),
      fee: 0n,
    });
  for (const p of streams.margin_records) {
    for (const r of p.records) {
      const type = r.record['marginTaxType'];
      if (type === 'transfer_in' || type === 'transfer_out')
        transfer(r.ts, String(r.record['coin']), r.record['amount'], type === 'transfer_in');
    }
  }
  for (const p of streams.futures_tax_records) {
    for (const r of p.records) {
      const type = r.record['futureTaxType'];
      if (type === 'trans_from_exchange' || type === 'trans_to_exchange')
        transfer(r.ts, String(r.record['marginCoin']), r.record['amount'], type === 'trans_from_exchange');
    }
  }
  for (const p of streams.p2p_tax_records) {
    for (const r of p.records) {
      const type = r.record['p2pTaxType'];
      if (type === 'transfer-in' || type === 'transfer-out')
        transfer(r.ts, String(r.record['coin']), r.record['balance'] ?? r.record['total'], type === 'transfer-in');
    }
  }
  for (const r of streams.deposits[0]?.records ?? []) {
    if (r.record['status'] === 'success')
      out.push({
        ts: r.ts,
        type: 'Deposit',
        coin: String(r.record['coin']),
        amount: units8(r.record['size']),
        fee: 0n,
      });
  }
  for (const r of streams.withdrawals[0]?.records ?? []) {
    if (r.record['status'] === 'success')
      out.push({
        ts: r.ts,
        type: 'Withdrawal',
        coin: String(r.record['coin']),
        amount: -units8(r.record['size']),
        fee: -abs(units8(r.record['fee'])),
      });
  }
  return out;
}
