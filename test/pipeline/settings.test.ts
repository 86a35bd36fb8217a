import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { settleSettings, type GivenSettings } from '../../src/pipeline/settings.js';
import { useCatalog } from '../../src/warehouse/versions.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

let warehouse: Warehouse;
let dir: string;
let dispose: () => Promise<void>;
let now = Date.parse('2026-01-10T08:00:00Z');

beforeEach(async () => {
  ({ warehouse, dir, dispose } = await tempWarehouse());
});
afterEach(async () => {
  await dispose();
  await useCatalog(undefined);
});

const settle = (given: GivenSettings, command = 'run year-end', computesGains = true) =>
  settleSettings(warehouse, given, { command, now: (now += 60_000), computesGains, transforms: computesGains });
const row = async () =>
  (
    await rows(
      warehouse,
      'SELECT fiat, fiat_source, time_zone, cost_basis, pool, tax_year_start, withdrawals, history_from, set_by.cost_basis AS basis_by, set_by.pool AS pool_by FROM settings',
    )
  )[0];

describe("the warehouse's settings (docs/settings.md)", () => {
  it('start at their defaults, are set by the first command that gives them, and say nothing then', async () => {
    const first = await settle({ costBasis: 'uk', timeZone: 'Europe/Berlin' });
    expect(first.lines).toEqual([]);
    // The UK rules bring the UK's tax year (6 April) unless given; the time zone given wins over London's.
    expect(first.settings).toMatchObject({
      fiat: null,
      fiatSource: null,
      timeZone: 'Europe/Berlin',
      costBasis: 'uk',
      pool: 'all',
      taxYearStart: '04-06',
      withdrawals: 'transfer',
      historyFrom: 'opening',
    });
    expect(await row()).toEqual({
      fiat: null,
      fiat_source: null,
      time_zone: 'Europe/Berlin',
      cost_basis: 'uk',
      pool: 'all',
      tax_year_start: '04-06',
      withdrawals: 'transfer',
      history_from: 'opening',
      basis_by: 'run year-end',
      pool_by: null,
    });
  });

  it('keeps what a command is not given, changes what differs in one line each, and lets a default follow', async () => {
    await settle({ costBasis: 'uk' });
    // A command given nothing resets nothing.
    expect((await settle({}, 'run nightly')).lines).toEqual([]);
    expect((await row())?.['cost_basis']).toBe('uk');
    // The pool was never given: it follows the cost basis, and its change is said too. The UK's clock and tax year
    // came with the UK rules as settings of their own: they stay.
    const changed = await settle({ costBasis: 'fifo' }, 'export');
    expect(changed.lines).toEqual([
      'cost basis: uk -> fifo; disposals recomputed',
      'pool: all -> account; disposals recomputed',
    ]);
    expect(changed.settings).toMatchObject({ timeZone: 'Europe/London', taxYearStart: '04-06' });
    // One given keeps its value whatever the cost basis does after.
    await settle({ pool: 'all' }, 'export');
    expect((await settle({ costBasis: 'hifo' }, 'extract', false)).lines).toEqual([
      'cost basis: fifo -> hifo; the next transform or export recomputes the disposals',
    ]);
    expect(await row()).toMatchObject({ cost_basis: 'hifo', pool: 'all', basis_by: 'extract', pool_by: 'export' });
  });

  it('loads a rates file with its fiat, keeps them, and goes back to the pair for a fiat given alone', async () => {
    await writeFile(join(dir, 'gbp.csv'), 'time,currency,rate\n2025-01-01,GBP,0.79\n');
    await settle({ fiat: 'GBP', fiatRates: join(dir, 'gbp.csv') });
    expect(await rows(warehouse, 'SELECT fiat, CAST(rate AS VARCHAR) AS rate FROM fiat_rates')).toEqual([
      { fiat: 'GBP', rate: '0.790000000000000000' },
    ]);
    expect((await settle({})).settings).toMatchObject({ fiat: 'GBP', fiatSource: 'file' });
    expect((await settle({ fiat: 'EUR' })).lines).toEqual([
      'fiat: GBP -> EUR; values are made with it',
      'fiat rates: file -> pair; values are made with it',
    ]);
    expect((await settle({ fiat: null })).settings).toMatchObject({ fiat: null, fiatSource: null });
  });

  it('keeps the opening lots and the catalog given, by their contents, for commands given neither', async () => {
    await writeFile(
      join(dir, 'lots.csv'),
      'account,asset,quantity,cost,currency,acquired_at\ndefault,BTC,0.5,12000,EUR,2021-03-14\n',
    );
    const catalog =
      'source,field,type,category,direction,tax_class,trade_role,koinly_in,koinly_out,cointracking_in,cointracking_out,meaning,documented_in\nmargin_records,marginTaxType,special_transfer_out,transfer_out,out,internal_transfer,,,,,,mine,here\n';
    await writeFile(join(dir, 'mine.csv'), catalog);
    const given = await settle({ fiat: 'EUR', openingLots: join(dir, 'lots.csv'), catalog: join(dir, 'mine.csv') });
    expect(given.settings.openingLotsSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(
      await rows(
        warehouse,
        'SELECT account, asset, CAST(quantity AS VARCHAR) AS q, CAST(cost AS VARCHAR) AS c, currency FROM opening_lots',
      ),
    ).toEqual([
      { account: 'default', asset: 'BTC', q: '0.500000000000000000', c: '12000.000000000000000000', currency: 'EUR' },
    ]);
    expect(await rows(warehouse, 'SELECT content FROM user_catalog')).toEqual([{ content: catalog }]);
    // Gone from disk, still the warehouse's: the same version for a command given neither.
    await writeFile(join(dir, 'mine.csv'), 'not a catalog');
    const later = await settle({});
    expect([later.lines, later.settings.catalogVersion, later.settings.openingLotsSha256]).toEqual([
      [],
      given.settings.catalogVersion,
      given.settings.openingLotsSha256,
    ]);
    // none: back to the package's rows, said in one line.
    const back = await settle({ catalog: 'none' }, 'transform');
    expect(back.lines).toHaveLength(1);
    expect(back.lines[0]).toMatch(
      /^type catalog: [0-9a-f]{12} -> [0-9a-f]{12}; the ledger is booked again by this transform$/,
    );
    expect(await rows(warehouse, 'SELECT count(*) AS n FROM user_catalog')).toEqual([{ n: '0' }]);
  });

  it('refuses a fiat its opening lots are not in, before anything is read, and keeps the settings it had', async () => {
    await writeFile(
      join(dir, 'lots.csv'),
      'account,asset,quantity,cost,currency,acquired_at\ndefault,BTC,0.5,10000,GBP,2021-03-14\n',
    );
    await settle({ fiat: 'GBP', openingLots: join(dir, 'lots.csv') });
    await expect(settle({ fiat: 'EUR' }, 'run nightly')).rejects.toThrow(
      'the opening lots are in GBP, but the gains are now in EUR (the fiat setting); give --opening-lots again with each cost in EUR',
    );
    expect(await row()).toMatchObject({ fiat: 'GBP', fiat_source: 'pair' });
    // Given again in the new fiat, with it: accepted.
    await writeFile(
      join(dir, 'lots-eur.csv'),
      'account,asset,quantity,cost,currency,acquired_at\ndefault,BTC,0.5,11500,EUR,2021-03-14\n',
    );
    expect((await settle({ fiat: 'EUR', openingLots: join(dir, 'lots-eur.csv') }, 'run nightly')).lines).toEqual([
      'fiat: GBP -> EUR; values are made with it',
      expect.stringMatching(/^opening lots: [0-9a-f]{12} -> [0-9a-f]{12}; disposals recomputed$/),
    ]);
  });

  it("reads --history-from's date in the warehouse's time zone, as a range's dates are", async () => {
    const uk = await settle({ costBasis: 'uk', historyFrom: { date: '2023-04-06' } });
    expect(uk.settings).toMatchObject({ timeZone: 'Europe/London', historyFrom: '2023-04-05T23:00:00.000Z' });
    // Later, in the time zone the warehouse then has.
    const later = await settle({ historyFrom: { date: '2023-01-01' } }, 'run nightly');
    expect(later.settings.historyFrom).toBe('2023-01-01T00:00:00.000Z');
    expect(later.lines).toEqual([
      'history from: 2023-04-05T23:00:00.000Z -> 2023-01-01T00:00:00.000Z; the next run that computes gains reads the history from there',
    ]);
  });
});
