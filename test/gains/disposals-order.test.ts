import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/export/exporter.js';
import { runTransforms } from '../../src/transform/runner.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, tempWarehouse } from '../helpers/raw.js';
import { GOLDEN, T } from '../transform/fixtures.js';
import { runEngine, trade } from './engine-helpers.js';

let warehouse: Warehouse;
let dir: string;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ warehouse, dir, dispose } = await tempWarehouse());
  await loadRaw(warehouse, GOLDEN);
  await runTransforms(warehouse);
});
afterEach(() => dispose());

const at = (ms: number) => new Date(ms).toISOString().replace('T', ' ').replace('Z', '+00');

describe('disposals.csv', () => {
  it('lists the slices of one instant in the same order whatever order the table holds them in', async () => {
    // Three lots bought in one millisecond, sold together later: three slices alike in time, asset, account and lot
    // date (a margin account books many records in one millisecond).
    const bought = at(T);
    await runEngine(warehouse, [...trade(bought, 'BTC', '3', '30', 'buy'), ...trade(bought, 'BTC', '1', '10', 'buy'), ...trade(bought, 'BTC', '2', '20', 'buy'), ...trade(at(T + 60_000), 'BTC', '6', '90', 'sell')], {});
    const slices = async (name: string) => {
      await exportFiles(warehouse, { out: join(dir, name), from: T, to: T + 3_600_000, formats: ['csv'] });
      return (await readFile(join(dir, name, 'disposals.csv'), 'utf8')).split('\n').filter((line) => line.startsWith('default,BTC,'));
    };
    const first = await slices('first');
    expect(first.map((line) => line.split(',').slice(2, 3).concat(line.split(',').slice(6, 8)).join(' '))).toEqual(['1 15 10', '2 30 20', '3 45 30']);
    // The same rows held in the other order: the file is the same.
    await warehouse.connection.run('SET preserve_insertion_order = true');
    await warehouse.connection.run('CREATE OR REPLACE TABLE disposals AS SELECT * FROM disposals ORDER BY quantity DESC');
    expect(await slices('reversed')).toEqual(first);
  });
});
