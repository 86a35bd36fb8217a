import { describe, expect, it } from 'vitest';
import { periodSettings } from '../../src/pipeline/settings.js';
import { resolvePeriod, windowPeriod, yearToDate } from '../../src/time/period.js';

const NOW = Date.parse('2026-11-29T05:00:00Z');
const utc = { timeZone: 'UTC', taxYearStart: '01-01' };
const london = { timeZone: 'Europe/London', taxYearStart: '04-06' };

describe('a period and its folder (docs/files.md, "A folder per period")', () => {
  it('names a complete year, a tax year, a range of dates and one of instants', () => {
    expect(resolvePeriod({ kind: 'year', year: 2025 }, utc, NOW)).toEqual({
      window: { start: Date.parse('2025-01-01T00:00:00Z'), end: Date.parse('2026-01-01T00:00:00Z') },
      folder: '2025',
      label: '2025',
      toDate: false,
    });
    // 6 April 2025 to 6 April 2026 in London: BST on both dates, so 23:00 UTC the day before.
    expect(resolvePeriod({ kind: 'tax-year', year: 2025 }, london, NOW)).toEqual({
      window: { start: Date.parse('2025-04-05T23:00:00Z'), end: Date.parse('2026-04-05T23:00:00Z') },
      folder: '2025-26',
      label: 'tax year 2025-26',
      toDate: false,
      taxYear: '2025-26',
    });
    expect(resolvePeriod({ kind: 'between', from: '2025-03-01', to: '2025-06-01' }, utc, NOW).folder).toBe(
      '2025-03-01_2025-06-01',
    );
    expect(resolvePeriod({ kind: 'between', from: '2025-03-01T12:00:00Z', to: '2025-06-01' }, utc, NOW).folder).toBe(
      '2025-03-01T120000_2025-06-01',
    );
    // A window that is a calendar year in its zone is named as one.
    expect(
      windowPeriod({ start: Date.parse('2024-01-01T00:00:00Z'), end: Date.parse('2025-01-01T00:00:00Z') }, 'UTC', NOW)
        .folder,
    ).toBe('2024');
  });

  it("says a range that ends after the present is to date, and names the nightly's year so far", () => {
    expect(resolvePeriod({ kind: 'year', year: 2026 }, utc, NOW)).toMatchObject({
      folder: '2026-to-date',
      label: '2026 to date',
      toDate: true,
    });
    expect(resolvePeriod({ kind: 'tax-year', year: 2026 }, london, NOW)).toMatchObject({
      folder: '2026-27-to-date',
      toDate: true,
    });
    expect(yearToDate(NOW, utc, NOW)).toEqual({
      window: { start: Date.parse('2026-01-01T00:00:00Z'), end: NOW },
      folder: '2026-to-date',
      label: '2026 to date',
      toDate: true,
    });
    // With the UK's tax year, the nightly's year so far is the tax year's: from 6 April, London time; in March it
    // is still the tax year begun the April before.
    expect(yearToDate(NOW, london, NOW)).toEqual({
      window: { start: Date.parse('2026-04-05T23:00:00Z'), end: NOW },
      folder: '2026-27-to-date',
      label: 'tax year 2026-27 to date',
      toDate: true,
      taxYear: '2026-27',
    });
    const march = Date.parse('2026-03-15T00:00:00Z');
    expect(yearToDate(march, london, NOW)).toMatchObject({
      window: { start: Date.parse('2025-04-05T23:00:00Z'), end: march },
      folder: '2025-26-to-date',
    });
    // A nightly that ends exactly at a tax year's end names the whole tax year.
    expect(yearToDate(Date.parse('2026-04-05T23:00:00Z'), london, NOW)).toMatchObject({
      folder: '2025-26',
      toDate: false,
    });
  });

  it('refuses, in one line, a range that has not begun', () => {
    expect(() => resolvePeriod({ kind: 'year', year: 2027 }, utc, NOW)).toThrow(
      '--year 2027: 2027 has not begun; the last complete year is 2025',
    );
    expect(() => resolvePeriod({ kind: 'tax-year', year: 2027 }, london, NOW)).toThrow(
      '--tax-year 2027-28: it has not begun (it starts 2027-04-05T23:00:00.000Z); the last complete tax year is 2025-26',
    );
    expect(() => resolvePeriod({ kind: 'between', from: '2027-01-01', to: '2027-02-01' }, utc, NOW)).toThrow(
      '--from 2027-01-01 has not come yet (it is 2026-11-29T05:00:00.000Z now); give a range that has begun',
    );
  });

  it('reads a range in the settings a command will have: given, else recorded, else the defaults of the cost basis', () => {
    expect(periodSettings({}, undefined)).toEqual({ timeZone: 'UTC', taxYearStart: '01-01' });
    expect(periodSettings({ costBasis: 'uk' }, undefined)).toEqual({
      timeZone: 'Europe/London',
      taxYearStart: '04-06',
    });
    expect(periodSettings({ costBasis: 'uk', timeZone: 'UTC' }, undefined)).toEqual({
      timeZone: 'UTC',
      taxYearStart: '04-06',
    });
  });
});
