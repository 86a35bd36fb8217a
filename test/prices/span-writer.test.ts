import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSpanWriter, MISSING_REASON, type SpanRead } from '../../src/prices/span-writer.js';
import { runModel } from '../../src/warehouse/sql-graph.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

const HOUR = 3_600_000;
const T = Date.UTC(2025, 0, 1);
const NOW = Date.UTC(2025, 5, 1);

/** A span of `hours` hours from `start`, with a candle for each hour but those in `missing`. */
function span(start: number, hours: number, missing: readonly number[] = []): SpanRead {
  const all = Array.from({ length: hours }, (_, i) => start + i * HOUR);
  const candles = all
    .filter((h) => !missing.includes(h))
    .map((ts) => ({ ts, close: `${ts / HOUR}.5`, payload: `["${ts}"]` }));
  return { window: { start, end: start + hours * HOUR }, candles, missing: [...missing] };
}

let warehouse: Warehouse;
let dispose: () => Promise<void>;
let transactions: number;

beforeEach(async () => {
  const temp = await tempWarehouse();
  dispose = temp.dispose;
  await temp.warehouse.exclusive((c) => runModel(c, 'load/price_staging.sql'));
  transactions = 0;
  // The warehouse as the stage sees it, counting the transactions it is asked for.
  warehouse = { ...temp.warehouse, transaction: (work) => (transactions++, temp.warehouse.transaction(work)) };
});
afterEach(() => dispose());

const candles = () =>
  rows(
    warehouse,
    'SELECT symbol, epoch_ms(ts) AS ts, lp_decimal_text(close) AS close, payload, epoch_ms(fetched_at) AS at FROM price_candles ORDER BY symbol, ts',
  );
const coverage = () =>
  rows(
    warehouse,
    'SELECT symbol, epoch_ms(window_start) AS start, epoch_ms(window_end) AS "end", candles, CAST(list_transform(missing_hours, lambda h: epoch_ms(h)) AS VARCHAR) AS missing, missing_reason FROM price_coverage ORDER BY rowid',
  );

describe('the prices stage writer of spans', () => {
  it('commits the spans that came while one was committing in one transaction after it, each with its coverage, in order', async () => {
    const spans = createSpanWriter(warehouse, NOW);
    await Promise.all([
      spans.write('BTCUSDT', span(T, 3)),
      spans.write('ETHUSDT', span(T, 2, [T + HOUR])),
      spans.write('BTCUSDT', span(T + 3 * HOUR, 2)),
      spans.write('XRPUSDT', span(T, 1, [T])),
    ]);
    // The first alone, as nothing was waiting; the three that came meanwhile together.
    expect(transactions).toBe(2);
    const candle = (symbol: string, h: number) => ({
      symbol,
      ts: String(T + h * HOUR),
      close: `${T / HOUR + h}.5`,
      payload: `["${T + h * HOUR}"]`,
      at: String(NOW),
    });
    expect(await candles()).toEqual([
      candle('BTCUSDT', 0),
      candle('BTCUSDT', 1),
      candle('BTCUSDT', 2),
      candle('BTCUSDT', 3),
      candle('BTCUSDT', 4),
      candle('ETHUSDT', 0),
    ]);
    expect(await coverage()).toEqual([
      {
        symbol: 'BTCUSDT',
        start: String(T),
        end: String(T + 3 * HOUR),
        candles: '3',
        missing: null,
        missing_reason: null,
      },
      {
        symbol: 'ETHUSDT',
        start: String(T),
        end: String(T + 2 * HOUR),
        candles: '1',
        missing: `[${T + HOUR}]`,
        missing_reason: MISSING_REASON,
      },
      {
        symbol: 'BTCUSDT',
        start: String(T + 3 * HOUR),
        end: String(T + 5 * HOUR),
        candles: '2',
        missing: null,
        missing_reason: null,
      },
      {
        symbol: 'XRPUSDT',
        start: String(T),
        end: String(T + HOUR),
        candles: '0',
        missing: `[${T}]`,
        missing_reason: MISSING_REASON,
      },
    ]);
  });

  it('notes for the gains kept the first hour whose candle is new or closes otherwise, and nothing for a span read again the same', async () => {
    const noted = async () => {
      const found = await rows(warehouse, 'SELECT epoch_ms(since) AS since, what FROM ledger_changes ORDER BY since');
      await warehouse.connection.run('DELETE FROM ledger_changes');
      return found;
    };
    await createSpanWriter(warehouse, NOW).write('ETHUSDT', span(T, 3, [T + 2 * HOUR]));
    expect(await noted()).toEqual([{ since: String(T), what: 'candles new or changed' }]);
    await createSpanWriter(warehouse, NOW + HOUR).write('ETHUSDT', span(T, 2));
    expect(await noted()).toEqual([]);
    const changed = span(T, 3);
    changed.candles[2] = { ...(changed.candles[2] as { ts: number; close: string; payload: string }), close: '9.25' };
    await createSpanWriter(warehouse, NOW + 2 * HOUR).write('ETHUSDT', changed);
    expect(await noted()).toEqual([{ since: String(T + 2 * HOUR), what: 'candles new or changed' }]);
  });

  it('replaces a span read again, its candles and its row, and leaves the stage empty', async () => {
    await createSpanWriter(warehouse, NOW).write('ETHUSDT', span(T, 2, [T + HOUR]));
    await createSpanWriter(warehouse, NOW + HOUR).write('ETHUSDT', span(T, 2));
    expect((await candles()).map((c) => [c['ts'], c['at']])).toEqual([
      [String(T), String(NOW + HOUR)],
      [String(T + HOUR), String(NOW + HOUR)],
    ]);
    expect(await coverage()).toEqual([
      {
        symbol: 'ETHUSDT',
        start: String(T),
        end: String(T + 2 * HOUR),
        candles: '2',
        missing: null,
        missing_reason: null,
      },
    ]);
    expect(
      await rows(
        warehouse,
        'SELECT (SELECT count(*) FROM lp_stage_candles) AS candles, (SELECT count(*) FROM lp_stage_price_spans) AS spans',
      ),
    ).toEqual([{ candles: '0', spans: '0' }]);
  });

  it('fails every span of a transaction that fails, writes none of them, and goes on with the next', async () => {
    const spans = createSpanWriter(warehouse, NOW);
    // A close that is no amount fails the candles' statement (lp_amount), and with it the whole transaction.
    const bad: SpanRead = { ...span(T + 10 * HOUR, 1), candles: [{ ts: T + 10 * HOUR, close: 'x', payload: '[]' }] };
    const first = spans.write('BTCUSDT', span(T, 1));
    const together = [spans.write('ETHUSDT', span(T, 1)), spans.write('BTCUSDT', bad)];
    await first;
    const settled = await Promise.allSettled(together);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
    await spans.write('XRPUSDT', span(T, 1));
    expect((await coverage()).map((c) => c['symbol'])).toEqual(['BTCUSDT', 'XRPUSDT']);
    expect((await candles()).map((c) => c['symbol'])).toEqual(['BTCUSDT', 'XRPUSDT']);
  });
});
