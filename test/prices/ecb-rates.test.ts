import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEcbCsv } from '../../src/prices/ecb-csv.js';
import { readEcbRates, unreadStretches } from '../../src/prices/ecb-rates.js';
import { refuseUnvaluedFiat } from '../../src/prices/valuation.js';
import { ECB_FIXTURES, startFakeEcb, type FakeEcb } from '../helpers/fake-ecb.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

const HEADER = 'KEY,FREQ,CURRENCY,CURRENCY_DENOM,EXR_TYPE,EXR_SUFFIX,TIME_PERIOD,OBS_VALUE';

describe("the ECB's CSV (format=csvdata)", () => {
  it('reads the real answer kept in the fixtures: every day with its rate as written, CRLF and quoted commas', async () => {
    const text = await readFile(join(ECB_FIXTURES, 'EXR.D.USD.EUR.SP00.A.csv'), 'utf8');
    expect(text).toContain('\r\n');
    const rates = parseEcbCsv(text, 'USD');
    expect(rates).toHaveLength(72);
    expect(rates.slice(0, 2)).toEqual([
      { date: '2024-05-02', rate: '1.0698' },
      { date: '2024-05-03', rate: '1.0744' },
    ]);
    // A weekend has no line; the rate of a Friday is as published.
    expect(rates.find((r) => r.date === '2024-06-08')).toBeUndefined();
    expect(rates.find((r) => r.date === '2024-06-07')).toEqual({ date: '2024-06-07', rate: '1.0898' });
  });

  it('leaves out a day without a value and refuses what is not a daily euro rate of the currency asked', () => {
    const csv = (...lines: string[]) => [HEADER, ...lines].join('\r\n');
    expect(
      parseEcbCsv(
        csv(
          'EXR.D.GBP.EUR.SP00.A,D,GBP,EUR,SP00,A,2024-06-03,NaN',
          'EXR.D.GBP.EUR.SP00.A,D,GBP,EUR,SP00,A,2024-06-04,',
        ),
        'GBP',
      ),
    ).toEqual([]);
    expect(() => parseEcbCsv(csv('EXR.D.USD.EUR.SP00.A,D,USD,EUR,SP00,A,2024-06-03,1.08'), 'GBP')).toThrow(
      'line 2: a rate of USD',
    );
    expect(() => parseEcbCsv(csv('EXR.M.GBP.EUR.SP00.A,M,GBP,EUR,SP00,A,2024-06,0.85'), 'GBP')).toThrow(/line 2: FREQ/);
    expect(() => parseEcbCsv(csv('EXR.D.GBP.EUR.SP00.A,D,GBP,EUR,SP00,A,2024-06-03,8.5e-1'), 'GBP')).toThrow(
      /line 2: OBS_VALUE/,
    );
    expect(() => parseEcbCsv('<html>maintenance</html>', 'GBP')).toThrow(
      'has no column FREQ, CURRENCY, CURRENCY_DENOM, TIME_PERIOD, OBS_VALUE',
    );
  });
});

describe('the days read', () => {
  it('asks only the stretches no span covers', () => {
    expect(unreadStretches('2024-06-01', '2024-06-30', [])).toEqual([['2024-06-01', '2024-06-30']]);
    expect(
      unreadStretches('2024-06-01', '2024-06-30', [
        ['2024-05-20', '2024-06-10'],
        ['2024-06-20', '2024-06-25'],
      ]),
    ).toEqual([
      ['2024-06-11', '2024-06-19'],
      ['2024-06-26', '2024-06-30'],
    ]);
    expect(unreadStretches('2024-06-01', '2024-06-30', [['2024-05-01', '2024-07-31']])).toEqual([]);
  });
});

describe('readEcbRates against the fake ECB', () => {
  let context: Awaited<ReturnType<typeof tempWarehouse>>;
  let ecb: FakeEcb;
  beforeAll(async () => {
    context = await tempWarehouse();
    ecb = await startFakeEcb();
  });
  afterAll(async () => {
    await ecb.close();
    await context.dispose();
  });

  it('reads a week before the first day, records the days over but not today before its rate, and asks again only what is new', async () => {
    // "Today" is Saturday 15 June 2024: no rate is published for it.
    const now = Date.UTC(2024, 5, 15, 12);
    const days = { first: '2024-06-03', last: '2024-06-30' };
    const first = await readEcbRates({
      warehouse: context.warehouse,
      baseUrl: ecb.baseUrl,
      currency: 'GBP',
      days,
      now,
    });
    expect(first).toEqual({ requests: 1, rates: 15 });
    expect(ecb.requests).toEqual([
      '/service/data/EXR/D.GBP.EUR.SP00.A?startPeriod=2024-05-27&endPeriod=2024-06-15&format=csvdata',
    ]);
    const coverage =
      "SELECT strftime(first_date, '%Y-%m-%d') AS f, strftime(last_date, '%Y-%m-%d') AS l, rates FROM fx_coverage ORDER BY first_date";
    expect(await rows(context.warehouse, coverage)).toEqual([{ f: '2024-05-27', l: '2024-06-14', rates: '15' }]);
    // Monday at noon, its rate published (the fake has it): the 15th to the 17th are asked, and all three are over.
    const next = await readEcbRates({
      warehouse: context.warehouse,
      baseUrl: ecb.baseUrl,
      currency: 'GBP',
      days,
      now: Date.UTC(2024, 5, 17, 12),
    });
    expect(next).toEqual({ requests: 1, rates: 1 });
    expect(ecb.requests.at(-1)).toBe(
      '/service/data/EXR/D.GBP.EUR.SP00.A?startPeriod=2024-06-15&endPeriod=2024-06-17&format=csvdata',
    );
    expect(await rows(context.warehouse, coverage)).toEqual([
      { f: '2024-05-27', l: '2024-06-14', rates: '15' },
      { f: '2024-06-15', l: '2024-06-17', rates: '1' },
    ]);
    // The weekend between takes the Friday's rate; the two spans join without a gap.
    expect(
      await rows(
        context.warehouse,
        "SELECT strftime(rate_date, '%Y-%m-%d') AS d FROM fx_rates_daily WHERE currency = 'GBP' AND date = '2024-06-16'",
      ),
    ).toEqual([{ d: '2024-06-14' }]);
  });

  it('takes a period with no rate (404, no results) as read, and a series the ECB does not have as a failure kept apart', async () => {
    const now = Date.UTC(2024, 11, 1);
    // A weekend alone has no observation: the ECB answers 404, the days are read and have no rate.
    await readEcbRates({
      warehouse: context.warehouse,
      baseUrl: ecb.baseUrl,
      currency: 'USD',
      days: { first: '2024-08-17', last: '2024-08-18' },
      now,
    });
    expect(await rows(context.warehouse, "SELECT rates FROM fx_coverage WHERE currency = 'USD'")).toEqual([
      { rates: '0' },
    ]);
    await expect(
      readEcbRates({
        warehouse: context.warehouse,
        baseUrl: 'http://127.0.0.1:9/service',
        currency: 'CHF',
        days: { first: '2024-06-03', last: '2024-06-30' },
        now,
      }),
    ).rejects.toThrow(/connection refused; check the ECB \(--ecb-url, LEDGERPIPE_ECB_URL\)/);
    expect(await rows(context.warehouse, "SELECT count(*) AS n FROM fx_coverage WHERE currency = 'CHF'")).toEqual([
      { n: '0' },
    ]);
  });
});

describe('a fiat nothing values', () => {
  it('is refused unless EUR, published by the ECB, or given by a rates file', () => {
    expect(() => refuseUnvaluedFiat('XYZ', undefined)).toThrow(
      '--fiat XYZ: the European Central Bank publishes no euro rate for XYZ',
    );
    for (const fiat of ['EUR', 'GBP', 'USD', 'JPY', 'CHF'])
      expect(() => refuseUnvaluedFiat(fiat, undefined)).not.toThrow();
    expect(() => refuseUnvaluedFiat('XYZ', 'xyz.csv')).not.toThrow();
    // No longer published: the rouble (suspended since March 2022) and the kuna (the euro since 2023).
    for (const fiat of ['RUB', 'HRK']) expect(() => refuseUnvaluedFiat(fiat, undefined)).toThrow();
  });
});
