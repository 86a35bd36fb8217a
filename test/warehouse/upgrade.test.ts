import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../../src/util/logger.js';
import { planNightly } from '../../src/pipeline/nightly-range.js';
import { readmitQuarantined } from '../../src/transform/readmit.js';
import { runTransformStage } from '../../src/transform/stage.js';
import { STREAMS } from '../../src/streams/index.js';
import { sqlGraph } from '../../src/warehouse/sql-graph.js';
import { openWarehouse } from '../../src/warehouse/warehouse.js';
import { rows } from '../helpers/raw.js';

const DAY = 86_400_000;
const T = Date.UTC(2025, 2, 3, 12);
let dir: string;
let db: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-upgrade-'));
  db = join(dir, 'first.duckdb');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const p2pTotal = { id: '1752117', coin: 'USDT', p2pTaxType: 'buy', total: '10', ts: String(T) };
const fillEmptyDeduction = {
  tradeId: '1115965644337205249',
  symbol: 'LTCUSDT',
  orderId: '1115965643967582214',
  price: '72.25',
  baseVolume: '0.1',
  quoteVolume: '7.225',
  feeDetail: [{ deduction: 'no', feeCoin: 'USDT', totalDeductionFee: '', totalFee: '-0.004335' }],
  side: 'buy',
  profit: '-0.002',
  enterPointSource: 'api',
  tradeSide: 'close',
  posMode: 'hedge_mode',
  tradeScope: 'taker',
  cTime: String(T + 1000),
};
const advert = {
  advId: '88',
  advNo: '8',
  side: 'sell',
  coin: 'USDT',
  fiat: 'EUR',
  status: 'online',
  advSize: '100',
  size: '0',
  price: '0.92',
  cTime: String(T),
  utime: String(T + 5),
};

/**
 * A warehouse as the first release left it: its bookkeeping, its marginTaxType table, its advList coverage, its
 * quarantine.
 */
async function firstReleaseWarehouse(): Promise<void> {
  const instance = await DuckDBInstance.create(db);
  const c = await instance.connect();
  try {
    await c.run("SET TimeZone = 'UTC'");
    await c.run((await sqlGraph()).file('warehouse/001_bookkeeping.sql').text);
    await c.run(
      "CREATE TABLE margin_tax_types (margin_tax_type VARCHAR PRIMARY KEY, category VARCHAR NOT NULL, direction INTEGER NOT NULL); INSERT INTO margin_tax_types VALUES ('deal_in', 'trade_in', 1)",
    );
    const ts = (ms: number) => `make_timestamptz(${ms * 1000})`;
    const window = [T - 10 * DAY, T + 20 * DAY];
    // Read a day after the window ended.
    const cover = (stream: string, partition: string) =>
      `INSERT INTO coverage VALUES ('default', '${stream}', '${partition}', ${ts(window[0] as number)}, ${ts(window[1] as number)}, 'done', NULL, 1, 1, 0, 'r1', ${ts(T + 21 * DAY)})`;
    await c.run(cover('p2p_advertisements', ''));
    await c.run(cover('p2p_tax_records', ''));
    await c.run(cover('futures_fills', 'USDT-FUTURES'));
    // Marked done at T + 25 days though it ends at T + 30: the first release did not stop at the present.
    await c.run(
      `INSERT INTO coverage VALUES ('default', 'withdrawals', '', ${ts(T + 20 * DAY)}, ${ts(T + 30 * DAY)}, 'done', NULL, 1, 0, 0, 'r1', ${ts(T + 25 * DAY)})`,
    );
    await c.run(
      `INSERT INTO raw_records VALUES ('default', 'p2p_advertisements', '', '88', ${ts(T)}, '${JSON.stringify(advert)}', ${ts(T)}, ${ts(T)})`,
    );
    const quarantine = (stream: string, partition: string, key: string, payload: unknown, error: string) =>
      c.run(
        `INSERT INTO quarantine VALUES ('default', '${stream}', '${partition}', '${key}', '${JSON.stringify(payload)}', '${error}', ${ts(T)}, 'r1')`,
      );
    await quarantine(
      'p2p_tax_records',
      '',
      '1752117',
      p2pTotal,
      'balance: Invalid input: expected string, received undefined',
    );
    await quarantine(
      'futures_fills',
      'USDT-FUTURES',
      '1115965644337205249',
      fillEmptyDeduction,
      'feeDetail.0.totalDeductionFee: not a plain decimal string',
    );
    // Still refused by this release: it stays.
    await quarantine(
      'p2p_tax_records',
      '',
      '999',
      { id: '999', coin: 'USDT', p2pTaxType: 'buy', ts: String(T) },
      'balance: missing',
    );
  } finally {
    c.closeSync();
    instance.closeSync();
  }
}

describe('a warehouse of the first release', () => {
  it('is migrated when opened, and the next transform re-admits what this release accepts', async () => {
    await firstReleaseWarehouse();
    const warehouse = await openWarehouse(db);
    try {
      expect(await rows(warehouse, 'SELECT name FROM schema_migrations ORDER BY name')).toEqual([
        { name: 'warehouse/001_bookkeeping.sql' },
        { name: 'warehouse/002_second_release.sql' },
        { name: 'warehouse/003_reopen_future_windows.sql' },
        { name: 'warehouse/004_run_stages.sql' },
        { name: 'warehouse/005_prices.sql' },
        { name: 'warehouse/006_typed_at_load.sql' },
        { name: 'warehouse/007_incremental.sql' },
        { name: 'warehouse/008_pending_changes_unindexed.sql' },
        { name: 'warehouse/009_typed_tables_unindexed.sql' },
        { name: 'warehouse/010_holdings.sql' },
        { name: 'warehouse/011_price_gaps.sql' },
        { name: 'warehouse/012_the_books.sql' },
        { name: 'warehouse/013_plain_names.sql' },
        { name: 'warehouse/014_fx_rates.sql' },
        { name: 'warehouse/015_account_modes.sql' },
        { name: 'warehouse/016_gains_kept.sql' },
      ]);
      // pending_changes keeps no key (its index made emptying a year's notes take a minute).
      expect(
        await rows(
          warehouse,
          "SELECT constraint_type FROM duckdb_constraints() WHERE table_name = 'pending_changes' ORDER BY ALL",
        ),
      ).toEqual(['NOT NULL', 'NOT NULL', 'NOT NULL', 'NOT NULL'].map((constraint_type) => ({ constraint_type })));
      // Nor do the typed tables (a key's index over a stream typed again whole outgrew the memory budget), whose
      // record columns and time stay NOT NULL.
      expect(
        await rows(
          warehouse,
          "SELECT table_name, string_agg(constraint_column_names[1], ',' ORDER BY constraint_column_names[1]) AS not_null FROM duckdb_constraints() WHERE table_name IN ('typed_futures_fills', 'typed_withdrawals') GROUP BY ALL ORDER BY ALL",
        ),
      ).toEqual([
        { table_name: 'typed_futures_fills', not_null: 'account,key,product_type,ts' },
        { table_name: 'typed_withdrawals', not_null: 'account,key,partition,ts' },
      ]);
      // The window closed over the future is open again, from its start; the others stay done.
      expect(
        await rows(
          warehouse,
          "SELECT stream, status, cursor FROM coverage WHERE stream IN ('withdrawals', 'p2p_tax_records', 'futures_fills') ORDER BY stream",
        ),
      ).toEqual([
        { stream: 'futures_fills', status: 'done', cursor: null },
        { stream: 'p2p_tax_records', status: 'done', cursor: null },
        { stream: 'withdrawals', status: 'open', cursor: null },
      ]);
      expect(
        await rows(
          warehouse,
          "SELECT count(*) AS n FROM information_schema.tables WHERE table_name = 'margin_tax_types'",
        ),
      ).toEqual([{ n: '0' }]);
      // The first release's advList windows are unfinished windows of every side and status now.
      expect(
        await rows(
          warehouse,
          "SELECT partition, status FROM coverage WHERE stream = 'p2p_advertisements' ORDER BY partition",
        ),
      ).toEqual(
        [
          'buy:completed',
          'buy:editing',
          'buy:offline',
          'buy:online',
          'sell:completed',
          'sell:editing',
          'sell:offline',
          'sell:online',
        ].map((partition) => ({ partition, status: 'open' })),
      );
      // Nightly reads them again where they lie, and starts the rest where coverage ends.
      const plan = await planNightly(warehouse, {
        account: 'default',
        streams: STREAMS.filter((s) => s.name === 'p2p_advertisements' || s.name === 'p2p_tax_records'),
        lookBackDays: 3,
        now: T + 30 * DAY,
        refreshPending: false,
      });
      expect(plan).toEqual({
        range: { start: T + 17 * DAY, end: T + 30 * DAY },
        pendingWindows: [{ stream: 'p2p_advertisements', window: { start: T - 10 * DAY, end: T + 20 * DAY } }],
      });

      const summary = await runTransformStage(warehouse, silentLogger);
      expect(summary.readmitted).toEqual({ p2p_tax_records: 1, futures_fills: 1 });
      expect(await rows(warehouse, 'SELECT stream, key FROM quarantine')).toEqual([
        { stream: 'p2p_tax_records', key: '999' },
      ]);
      expect(
        await rows(
          warehouse,
          'SELECT entry_id, category, asset, lp_decimal_text(amount) AS amount FROM ledger ORDER BY entry_id',
        ),
      ).toEqual([
        {
          entry_id: 'futures_fills:1115965644337205249:fee1',
          category: 'trading_fee',
          asset: 'USDT',
          amount: '-0.004335',
        },
        {
          entry_id: 'futures_fills:1115965644337205249:pnl',
          category: 'realized_pnl',
          asset: 'USDT',
          amount: '-0.002',
        },
        { entry_id: 'p2p_tax_records:1752117:main', category: 'p2p_buy', asset: 'USDT', amount: '10' },
      ]);
      // The advert loaded under the first release's partition reads as before, its utime included.
      expect(
        await rows(warehouse, 'SELECT adv_id, status, lp_time_text(u_time) AS u_time FROM p2p_advertisements'),
      ).toEqual([{ adv_id: '88', status: 'online', u_time: new Date(T + 5).toISOString() }]);
      // The transform typed the first release's fills again from raw_records (their ledger rows above), and says so.
      expect(await rows(warehouse, 'SELECT name, length(version) AS n FROM model_versions ORDER BY name')).toEqual([
        { name: 'ledger_order', n: '64' },
        { name: 'models', n: '64' },
        { name: 'opening', n: '64' },
        { name: 'type_catalog', n: '64' },
        { name: 'typed_at_load', n: '64' },
      ]);
    } finally {
      await warehouse.close();
    }
    // Opening it again applies nothing more.
    const again = await openWarehouse(db);
    try {
      expect(await rows(again, 'SELECT count(*) AS n FROM schema_migrations')).toEqual([{ n: '16' }]);
    } finally {
      await again.close();
    }
  });

  it('notes the records it re-admits for the next transform, as extraction notes what it loads', async () => {
    await firstReleaseWarehouse();
    const warehouse = await openWarehouse(db);
    try {
      expect(await readmitQuarantined(warehouse, STREAMS)).toEqual({ p2p_tax_records: 1, futures_fills: 1 });
      expect(await rows(warehouse, 'SELECT stream, partition, key FROM pending_changes ORDER BY ALL')).toEqual([
        { stream: 'futures_fills', partition: 'USDT-FUTURES', key: '1115965644337205249' },
        { stream: 'p2p_tax_records', partition: '', key: '1752117' },
      ]);
    } finally {
      await warehouse.close();
    }
  });
});

describe('a warehouse of the release before the typed tables lost their keys', () => {
  it('keeps every typed row and every NOT NULL, without the key', async () => {
    // Migrations 001 to 008, as that release ran them, and a withdrawal typed into its keyed table.
    const instance = await DuckDBInstance.create(db);
    const c = await instance.connect();
    try {
      await c.run('CREATE TABLE schema_migrations (name VARCHAR PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL)');
      for (const file of (await sqlGraph()).folder('warehouse').filter((f) => f.name < 'warehouse/009')) {
        await c.run(file.text);
        await c.run('INSERT INTO schema_migrations VALUES ($name, now())', { name: file.name });
      }
      await c.run(`INSERT INTO typed_withdrawals (account, partition, key, order_id, coin, size, fee, status, ts)
        VALUES ('default', '', '7', '7', 'USDT', 12.5, 1, 'success', make_timestamptz(${T * 1000}))`);
      expect(
        (
          await c.runAndReadAll(
            "SELECT count(*) FROM duckdb_constraints() WHERE table_name = 'typed_withdrawals' AND constraint_type = 'PRIMARY KEY'",
          )
        ).getRows(),
      ).toEqual([[1n]]);
    } finally {
      c.closeSync();
      instance.closeSync();
    }
    const warehouse = await openWarehouse(db);
    try {
      expect(
        await rows(
          warehouse,
          'SELECT account, partition, key, order_id, coin, lp_decimal_text(size) AS size, lp_decimal_text(fee) AS fee, status, epoch_ms(ts) AS ts FROM typed_withdrawals',
        ),
      ).toEqual([
        {
          account: 'default',
          partition: '',
          key: '7',
          order_id: '7',
          coin: 'USDT',
          size: '12.5',
          fee: '1',
          status: 'success',
          ts: String(T),
        },
      ]);
      expect(
        await rows(
          warehouse,
          "SELECT constraint_type, constraint_column_names[1] AS col FROM duckdb_constraints() WHERE table_name = 'typed_withdrawals' ORDER BY ALL",
        ),
      ).toEqual(['account', 'key', 'partition', 'ts'].map((col) => ({ constraint_type: 'NOT NULL', col })));
      // The same columns, in the same order.
      expect(
        (
          await rows(
            warehouse,
            "SELECT string_agg(column_name, ',' ORDER BY column_index) AS c FROM duckdb_columns() WHERE table_name = 'typed_withdrawals'",
          )
        )[0]?.c,
      ).toBe(
        'account,partition,key,order_id,trade_id,coin,client_oid,type,dest,size,fee,status,from_address,to_address,chain,confirm,tag,u_time,ts',
      );
    } finally {
      await warehouse.close();
    }
  });
});
