import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RANGE_VALUED, rangeValuedOf, withRangeValued } from '../../src/reads/range-valued.js';
import { runTransforms } from '../../src/transform/runner.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, rows, tempWarehouse } from '../helpers/raw.js';
import { GOLDEN, T } from '../transform/fixtures.js';

let warehouse: Warehouse;
let dispose: () => Promise<void>;
beforeEach(async () => {
  ({ warehouse, dispose } = await tempWarehouse());
  await loadRaw(warehouse, GOLDEN);
  await runTransforms(warehouse);
});
afterEach(async () => dispose());

const held = () =>
  rows(warehouse, `SELECT count(*) AS n FROM duckdb_tables() WHERE temporary AND table_name = '${RANGE_VALUED}'`);

describe("an export's valued rows of its range", () => {
  it('are the valued ledger of [start, end) in the files order, held for the work only, even when it fails', async () => {
    const range = { start: T, end: T + 3_600_000 };
    const expected = await rows(
      warehouse,
      `SELECT entry_id, value_usdt FROM ledger_valued WHERE ts >= make_timestamptz(${T * 1000}) AND ts < make_timestamptz(${(T + 3_600_000) * 1000}) ORDER BY ts, entry_id, account`,
    );
    expect(expected.length).toBeGreaterThan(10);
    const read = await withRangeValued(warehouse, range, async () => {
      expect(rangeValuedOf(warehouse)).toEqual(range);
      // As the files read it: as it lies, in the order it was made in.
      return rows(warehouse, `SELECT entry_id, value_usdt FROM ${RANGE_VALUED}`);
    });
    expect(read).toEqual(expected);
    expect([await held(), rangeValuedOf(warehouse)]).toEqual([[{ n: '0' }], undefined]);
    await expect(withRangeValued(warehouse, range, () => Promise.reject(new Error('the work failed')))).rejects.toThrow(
      'the work failed',
    );
    expect([await held(), rangeValuedOf(warehouse)]).toEqual([[{ n: '0' }], undefined]);
  });

  it('are one range at a time: a second inside the first is refused, the first one kept', async () => {
    const range = { start: T, end: T + 60_000 };
    await withRangeValued(warehouse, range, async () => {
      await expect(withRangeValued(warehouse, { start: T, end: T + 1 }, () => Promise.resolve())).rejects.toThrow(
        'the valued rows of a range are held already: withRangeValued nested',
      );
      expect([await held(), rangeValuedOf(warehouse)]).toEqual([[{ n: '1' }], range]);
    });
  });
});
