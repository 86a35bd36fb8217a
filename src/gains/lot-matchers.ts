import { min, ZERO, type Dec } from './decimal.js';
import type { GainEvent, OpenLot } from './events.js';
import {
  lotFromState,
  lotState,
  fromUnits,
  units,
  type LotsState,
  type Matcher,
  type PoolState,
} from './matcher-state.js';
import { slicesOf, takeFrom, takeFromPool, type Take } from './slices.js';

/** What the matchers of lots (fifo, hifo) do: take lots in, give takes out, say what is left open. */
interface LotBook {
  acquire(lot: OpenLot): void;
  take(quantity: Dec): Take[];
  open(): OpenLot[];
  /** The lots as they lie (fifo: in order; hifo: the heap's array), to keep. */
  lying(): OpenLot[];
}

/** Takes `wanted` from the lot `next()` gives, again and again, while lots are left; `done` drops a spent lot. */
function takeLots(wanted: Dec, rule: string, next: () => OpenLot | undefined, done: () => void): Take[] {
  const takes: Take[] = [];
  let left = wanted;
  for (let lot = next(); left > ZERO && lot !== undefined; lot = next()) {
    const take = min(left, lot.quantity);
    takes.push({ quantity: take, cost: takeFrom(lot, take), acquiredAt: lot.acquiredAt, rule });
    left -= take;
    if (lot.quantity === ZERO) done();
  }
  return takes;
}

/** FIFO: lots in a queue, the oldest first. */
function fifoBook(kept: readonly OpenLot[]): LotBook {
  const lots: OpenLot[] = [...kept];
  let head = 0;
  return {
    acquire: (lot) => void lots.push(lot),
    take: (quantity) =>
      takeLots(
        quantity,
        'fifo',
        () => lots[head],
        () => void head++,
      ),
    open: () => lots.slice(head),
    lying: () => lots.slice(head),
  };
}

/**
 * HIFO: lots in a binary heap by unit cost, the highest first (compared exactly, cross-multiplied), ties by age;
 * a lot partly taken keeps its unit cost but for the rounding of its slice's cost, so it stays where it is. The
 * heap kept is the array as it lay: lots of one unit cost and one time then fall as they would have.
 */
function hifoBook(kept: readonly OpenLot[]): LotBook {
  const heap: OpenLot[] = [...kept];
  const before = (a: OpenLot, b: OpenLot): boolean => {
    const left = a.cost * b.quantity;
    const right = b.cost * a.quantity;
    return left !== right ? left > right : (a.acquiredAt ?? 0) < (b.acquiredAt ?? 0);
  };
  const swap = (i: number, j: number) => ([heap[i], heap[j]] = [heap[j] as OpenLot, heap[i] as OpenLot]);
  const up = (start: number) => {
    for (let i = start; i > 0 && before(heap[i] as OpenLot, heap[(i - 1) >> 1] as OpenLot); i = (i - 1) >> 1)
      swap(i, (i - 1) >> 1);
  };
  const down = () => {
    for (let i = 0; ;) {
      const [l, r] = [2 * i + 1, 2 * i + 2];
      let best = i;
      if (l < heap.length && before(heap[l] as OpenLot, heap[best] as OpenLot)) best = l;
      if (r < heap.length && before(heap[r] as OpenLot, heap[best] as OpenLot)) best = r;
      if (best === i) return;
      swap(i, best);
      i = best;
    }
  };
  const pop = () => {
    const last = heap.pop() as OpenLot;
    if (heap.length > 0) {
      heap[0] = last;
      down();
    }
  };
  return {
    acquire: (lot) => {
      heap.push(lot);
      up(heap.length - 1);
    },
    take: (quantity) => takeLots(quantity, 'hifo', () => heap[0], pop),
    open: () => [...heap].sort((a, b) => (a.acquiredAt ?? 0) - (b.acquiredAt ?? 0)),
    lying: () => heap,
  };
}

/**
 * FIFO or HIFO, from the lots kept (none to start). Every slice is final when made: a disposal takes what is open
 * at its time, and nothing later changes it.
 *
 * @example
 * const m = lotMatcher('fifo'); m.feed(buy); const slices = m.feed(sale); m.finish().open;
 */
export function lotMatcher(method: 'fifo' | 'hifo', kept?: LotsState): Matcher {
  const lots = (kept?.lots ?? []).map(lotFromState);
  const book = method === 'fifo' ? fifoBook(lots) : hifoBook(lots);
  return {
    feed: (event) => {
      if (event.kind === 'acquire') {
        book.acquire({ account: event.account, quantity: event.quantity, cost: event.value, acquiredAt: event.ts });
        return [];
      }
      return slicesOf(event, book.take(event.quantity));
    },
    state: () => ({ method, lots: book.lying().map(lotState) }),
    finish: () => ({ slices: [], open: book.open() }),
  };
}

/** Average cost: one pool of the asset at its average cost; a disposal or withdrawal takes from it at that cost. */
export function averageMatcher(kept?: PoolState): Matcher {
  const pool = { quantity: fromUnits(kept?.pool[0] ?? '0'), cost: fromUnits(kept?.pool[1] ?? '0') };
  // The pool's row in `lots` is named after the first movement's account (with --pool account, the pool's own).
  let account = kept?.account ?? null;
  return {
    feed: (event: GainEvent) => {
      account ??= event.account;
      if (event.kind === 'acquire') {
        pool.quantity += event.quantity;
        pool.cost += event.value;
        return [];
      }
      return slicesOf(event, takeFromPool(pool, event.quantity, 'average'));
    },
    state: () => ({ method: 'average', account, pool: [units(pool.quantity), units(pool.cost)] }),
    finish: () => ({
      slices: [],
      open:
        pool.quantity === ZERO
          ? []
          : [{ account: account ?? '', quantity: pool.quantity, cost: pool.cost, acquiredAt: null }],
    }),
  };
}
