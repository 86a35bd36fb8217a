import type { Rng } from '../rng.js';
import { NETWORK_FEES } from '../network-fees.js';
import { depositRecord, p2pTaxRecord, spotTaxRecord, withdrawalRecord, type Transit } from '../record-shapes.js';
import { balance, held, type RetailContext } from './context.js';

const spot = (coin: string) => balance('spot', coin);

/** An address of `chain` as its explorers write them. */
function address(rng: Rng, chain: string): string {
  if (chain === 'btc') return `bc1q${rng.hex(38)}`;
  if (chain === 'trc20') return `T${rng.hex(33)}`;
  return `0x${rng.hex(40)}`;
}

function onChain(rng: Rng, chain: string): Transit {
  return {
    dest: 'on_chain',
    chain,
    txHash: chain === 'btc' ? rng.hex(64) : `0x${rng.hex(64)}`,
    fromAddress: address(rng, chain),
    toAddress: address(rng, chain),
  };
}

/**
 * A deposit from outside, on chain: its record (`success`) and its spot "Deposit" mirror at its creation time.
 *
 * @example
 * deposit(c, ts, 'USDT', 2_000_00000000n, 'trc20');
 */
export function deposit(c: RetailContext, ts: number, coin: string, size: bigint, chain: string): void {
  const transit = onChain(c.rng, chain);
  const uTime = ts + c.rng.int(60_000, 1_800_000);
  c.book.write('deposits', '', ts, [
    (orderId) => ({ record: depositRecord({ orderId, ts, coin, size, status: 'success', uTime, transit }) }),
  ]);
  c.book.write('spot_tax_records', '', ts, [
    (id) => ({ record: spotTaxRecord({ id, ts, type: 'Deposit', coin, amount: size }) }),
  ]);
  c.book.move(spot(coin), size);
}

/**
 * A withdrawal on chain of `size`, its network fee on top (network-fees.ts). `success` takes both from spot (its
 * spot "Withdrawal" mirror); `reject` moves nothing; `pendingFirst` serves it `pending` until the simulator's
 * pendingMs has passed, as the stress set's last-day withdrawals (the truth holds its final form). Too little in
 * spot for size and fee: no withdrawal; a size under 100 times the fee is raised to that.
 *
 * @example
 * withdraw(c, ts, { coin: 'USDT', chain: 'trc20', size: 500_00000000n, status: 'success' });
 */
export function withdraw(
  c: RetailContext,
  ts: number,
  w: { coin: string; chain: string; size: bigint; status: 'success' | 'reject'; pendingFirst?: boolean },
): void {
  const fee = NETWORK_FEES[`${w.coin}:${w.chain}`];
  if (fee === undefined) throw new Error(`no network fee for ${w.coin} on ${w.chain}`);
  // Nobody sends an amount the network fee would take more than 1% of (docs/review.md flags such a fee).
  const size = w.size < fee * 100n ? fee * 100n : w.size;
  if (w.size <= 0n || (w.status === 'success' && size + fee > held(c, 'spot', w.coin))) return;
  const transit = onChain(c.rng, w.chain);
  const uTime = ts + c.rng.int(120_000, 2_400_000);
  const confirm = w.status === 'success' ? String(c.rng.int(12, 120)) : '0';
  const clientOid = c.rng.chance(0.3) ? `lp${c.rng.hex(16)}` : '';
  c.book.write('withdrawals', '', ts, [
    (orderId) => {
      const record = withdrawalRecord({
        orderId,
        ts,
        coin: w.coin,
        size,
        fee: -fee,
        status: w.status,
        confirm,
        uTime,
        clientOid,
        transit,
      });
      return w.pendingFirst === true
        ? { record, before: { ...record, status: 'pending', confirm: '0', uTime: String(ts) } }
        : { record };
    },
  ]);
  if (w.status !== 'success') return;
  c.book.write('spot_tax_records', '', ts, [
    (id) => ({ record: spotTaxRecord({ id, ts, type: 'Withdrawal', coin: w.coin, amount: -size, fee: -fee }) }),
  ]);
  c.book.move(spot(w.coin), -(size + fee));
}

/** A transfer between spot and the P2P (funding) account: the P2P record and its spot mirror, at one time. */
function p2pTransfer(c: RetailContext, ts: number, coin: string, amount: bigint, intoFunding: boolean): void {
  c.book.write('p2p_tax_records', '', ts, [
    (id) => ({
      record: p2pTaxRecord({
        id,
        ts,
        type: intoFunding ? 'transfer-in' : 'transfer-out',
        coin,
        amount: intoFunding ? amount : -amount,
      }),
    }),
  ]);
  c.book.write('spot_tax_records', '', ts, [
    (id) => ({
      record: spotTaxRecord({
        id,
        ts,
        type: intoFunding ? 'Transfer out' : 'Transfer in',
        coin,
        amount: intoFunding ? -amount : amount,
      }),
    }),
  ]);
  c.book.move(balance('funding', coin), intoFunding ? amount : -amount);
  c.book.move(spot(coin), intoFunding ? -amount : amount);
}

/**
 * USDT bought from another user for fiat paid outside the platform (P2P `buy`, into the funding account), then
 * moved to spot `later` ms after.
 *
 * @example
 * p2pBuy(c, ts, 1_000_00000000n, 900_000);
 */
export function p2pBuy(c: RetailContext, ts: number, amount: bigint, later: number): void {
  c.book.write('p2p_tax_records', '', ts, [
    (id) => ({ record: p2pTaxRecord({ id, ts, type: 'buy', coin: 'USDT', amount }) }),
  ]);
  c.book.move(balance('funding', 'USDT'), amount);
  p2pTransfer(c, ts + later, 'USDT', amount, false);
}

/**
 * USDT moved from spot to the funding account and sold there to another user (P2P `sell`) `later` ms after; no
 * more than spot holds.
 *
 * @example
 * p2pSell(c, ts, 500_00000000n, 600_000);
 */
export function p2pSell(c: RetailContext, ts: number, amount: bigint, later: number): void {
  if (amount <= 0n || amount > held(c, 'spot', 'USDT')) return;
  p2pTransfer(c, ts, 'USDT', amount, true);
  const at = ts + later;
  c.book.write('p2p_tax_records', '', at, [
    (id) => ({ record: p2pTaxRecord({ id, ts: at, type: 'sell', coin: 'USDT', amount: -amount }) }),
  ]);
  c.book.move(balance('funding', 'USDT'), -amount);
}
