import { min, mulDiv, ZERO, type Dec } from './decimal.js';
import type { GainEvent, Slice } from './events.js';

/** What a disposal takes from the lots: quantity, cost, the acquisition's time (null for a pool) and the rule. */
export interface Take {
  quantity: Dec;
  cost: Dec;
  acquiredAt: number | null;
  rule: string;
}

/**
 * Takes `take` of `lot` and returns the slice's cost: its share, rounded once; the lot keeps the rest.
 *
 * @example
 * const lot = { quantity: dec('3'), cost: dec('10') };
 * takeFrom(lot, dec('1')); // 3.333333333333333333; lot.cost is then 6.666666666666666667
 */
export function takeFrom(lot: { quantity: Dec; cost: Dec }, take: Dec): Dec {
  const cost = take === lot.quantity ? lot.cost : mulDiv(lot.cost, take, lot.quantity);
  lot.quantity -= take;
  lot.cost -= cost;
  return cost;
}

/**
 * The slices of one disposal from its takes: its proceeds and fees shared by quantity, each rounded once, the
 * last slice taking what is left so that they add up exactly. A part no lot covers is an `unmatched` slice at
 * zero cost, flagged.
 *
 * @example
 * slicesOf(sale, [{ quantity: sale.quantity, cost: dec('100'), acquiredAt: boughtAt, rule: 'fifo' }]);
 */
export function slicesOf(event: GainEvent, takes: readonly Take[]): Slice[] {
  const covered = takes.reduce((sum, t) => sum + t.quantity, ZERO);
  const all =
    covered < event.quantity
      ? [...takes, { quantity: event.quantity - covered, cost: ZERO, acquiredAt: null, rule: 'unmatched' }]
      : takes;
  let proceedsLeft = event.value;
  let feesLeft = event.fees;
  let quantityLeft = event.quantity;
  return all.map((take) => {
    const last = take.quantity === quantityLeft;
    const proceeds = last ? proceedsLeft : mulDiv(event.value, take.quantity, event.quantity);
    const fees = last ? feesLeft : mulDiv(event.fees, take.quantity, event.quantity);
    proceedsLeft -= proceeds;
    feesLeft -= fees;
    quantityLeft -= take.quantity;
    const removal = event.kind === 'remove';
    const flags = take.rule === 'unmatched' ? [...event.flags, 'no_acquisition'] : [...event.flags];
    return {
      account: event.account,
      quantity: take.quantity,
      disposedAt: event.ts,
      acquiredAt: take.acquiredAt,
      proceeds: removal ? null : proceeds,
      cost: take.cost,
      fees: removal ? null : fees,
      matchRule: removal ? `withdrawal_${take.rule}` : take.rule,
      tradeGroup: event.tradeGroup,
      flags,
    };
  });
}

/**
 * What a pool (average cost, section 104) gives a disposal of `wanted`: one take at the pool's average cost, as
 * far as the pool goes (none when it is empty).
 */
export function takeFromPool(pool: { quantity: Dec; cost: Dec }, wanted: Dec, rule: string): Take[] {
  const quantity = min(wanted, pool.quantity);
  return quantity === ZERO ? [] : [{ quantity, cost: takeFrom(pool, quantity), acquiredAt: null, rule }];
}
