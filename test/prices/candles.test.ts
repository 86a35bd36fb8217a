import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { chunksOf, readCandles } from '../../src/prices/candles.js';

/** The docs' published answer of history-candles (test/fixtures/real/README.md). */
async function published(): Promise<unknown> {
  const file = JSON.parse(
    await readFile(new URL('../fixtures/real/history-candles--bitget-docs.json', import.meta.url), 'utf8'),
  ) as { response: { data: unknown } };
  return file.response.data;
}

describe('history candles as the platform publishes them', () => {
  it('reads open time and close of each candle, the later of two that share an open time, oldest first', async () => {
    const candles = readCandles(await published(), { start: 0, end: Date.UTC(2030, 0, 1) });
    expect(candles.map((c) => [c.ts, c.close])).toEqual([
      [1646064000000, '46451.9'],
      [1648742400000, '38892.5'],
      [1654012800000, '37834.5'],
      [1656604800000, '37773.5'],
    ]);
    // The candle is kept as it came, volumes and all.
    expect(JSON.parse(candles[2]!.payload)).toEqual([
      '1654012800000',
      '39270.4',
      '39270.4',
      '37834.5',
      '37834.5',
      '42.444',
      '1619934.779',
      '1619934.779',
    ]);
  });

  it('keeps only the candles that open inside the window, half-open', async () => {
    const candles = readCandles(await published(), { start: 1648742400000, end: 1656604800000 });
    expect(candles.map((c) => c.ts)).toEqual([1648742400000, 1654012800000]);
  });

  it('refuses a candle whose close is not a plain decimal, naming it', () => {
    expect(() =>
      readCandles([['1646064000000', '1', '1', '1', '4.6e4']], { start: 0, end: Date.UTC(2030, 0, 1) }),
    ).toThrow('close 4.6e4 is not a plain decimal');
  });

  it('reads no answer (data null) as no candle', () => {
    expect(readCandles(null, { start: 0, end: 1 })).toEqual([]);
  });

  it('splits a range into 200-hour spans aligned from the epoch, so every run asks the same spans', () => {
    // 2025-01-01 is 64 hours before a multiple of 200 hours (2025-01-03T16:00Z); the end rounds up to its hour.
    expect(chunksOf({ start: Date.UTC(2025, 0, 1), end: Date.UTC(2025, 0, 10, 0, 30) })).toEqual([
      { start: Date.UTC(2025, 0, 1), end: Date.UTC(2025, 0, 3, 16) },
      { start: Date.UTC(2025, 0, 3, 16), end: Date.UTC(2025, 0, 10, 1) },
    ]);
  });
});
