import { afterEach, describe, expect, it } from 'vitest';
import { chunksOf } from '../../src/prices/candles.js';
import { extractPrices } from '../../src/prices/extract-prices.js';
import { MISSING_REASON } from '../../src/prices/span-writer.js';
import { statusLines } from '../../src/cli/status.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import type { CandleEndTime } from '../../src/sim/endpoints/candles.js';
import { silentLogger, type Logger } from '../../src/util/logger.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

// history-candles' endTime read either way the docs' wording allows (docs/platform.md, "Prices"): "candles that
// open before it" or "candles complete by it". A year of BTCUSDT is read whole under both; an hour the platform
// truly lacks is listed in price_coverage and warned about, never filled in.

const YEAR = { start: Date.UTC(2025, 0, 1), end: Date.UTC(2026, 0, 1) };
const HOURS = (YEAR.end - YEAR.start) / 3_600_000;
const GAP = Date.UTC(2025, 5, 15, 7);

const sims: Simulator[] = [];
afterEach(async () => {
  await Promise.all(sims.splice(0).map((s) => s.close()));
});

async function readYear(endTime: CandleEndTime, missing: readonly number[] = []) {
  const sim = await startSimulator({
    seed: 'readings',
    from: YEAR.start,
    to: YEAR.end,
    records: 5,
    rateScale: 1000,
    candleEndTime: endTime,
    missingCandles: { BTCUSDT: missing },
  });
  sims.push(sim);
  const { warehouse, dispose } = await tempWarehouse();
  const warnings: string[] = [];
  const log: Logger = { ...silentLogger, warn: (m) => warnings.push(m) };
  try {
    await extractPrices({ warehouse, baseUrl: sim.baseUrl, assets: ['BTC'], range: YEAR, rateScale: 1000, log });
    const requested = sim.stats.byPath['/api/v2/spot/market/history-candles'] ?? 0;
    // A second run asks again only for a span with hours missing: the platform may have published them since.
    await extractPrices({
      warehouse,
      baseUrl: sim.baseUrl,
      assets: ['BTC'],
      range: YEAR,
      rateScale: 1000,
      log: silentLogger,
    });
    const again = (sim.stats.byPath['/api/v2/spot/market/history-candles'] ?? 0) - requested;
    const [candles] = await rows(
      warehouse,
      "SELECT count(*) AS n, count(DISTINCT ts) AS hours, lp_time_text(min(ts)) AS first, lp_time_text(max(ts)) AS last FROM price_candles WHERE symbol = 'BTCUSDT'",
    );
    const gaps = await rows(
      warehouse,
      'SELECT lp_time_text(unnest(missing_hours)) AS hour, missing_reason FROM price_coverage WHERE missing_hours IS NOT NULL',
    );
    const status = (await statusLines(warehouse)).filter((l) => l.startsWith('candles missing'));
    return { candles, gaps, warnings, status, requests: requested, again };
  } finally {
    await dispose();
  }
}

describe("history-candles' endTime, read either way", () => {
  it.each(['open-before', 'closed-before'] as const)(
    '%s: every hour of the year is read, one request a span',
    async (endTime) => {
      const read = await readYear(endTime);
      expect(read.candles).toEqual({
        n: String(HOURS),
        hours: String(HOURS),
        first: '2025-01-01T00:00:00.000Z',
        last: '2025-12-31T23:00:00.000Z',
      });
      expect([read.gaps, read.warnings, read.status]).toEqual([[], [], []]);
      // One request per span of 200 hours (45: the spans are aligned to multiples of 200 hours), none asked again.
      expect([read.requests, read.again]).toEqual([chunksOf(YEAR).length, 0]);
    },
  );

  it.each(['open-before', 'closed-before'] as const)(
    '%s: an hour the platform lacks is asked once more, then listed with its reason, not guessed',
    async (endTime) => {
      const read = await readYear(endTime, [GAP]);
      expect(read.candles).toMatchObject({ n: String(HOURS - 1), hours: String(HOURS - 1) });
      expect(read.gaps).toEqual([{ hour: '2025-06-15T07:00:00.000Z', missing_reason: MISSING_REASON }]);
      expect(read.warnings).toEqual([
        `BTCUSDT: 1 hour without a candle (2025-06-15T07:00:00.000Z): ${MISSING_REASON}; movements in them have no value (price_coverage.missing_hours)`,
      ]);
      expect(read.status).toEqual([`candles missing: BTCUSDT, 1 hour (2025-06-15T07:00:00.000Z): ${MISSING_REASON}`]);
      expect([read.requests, read.again]).toEqual([chunksOf(YEAR).length + 1, 2]);
    },
  );
});
