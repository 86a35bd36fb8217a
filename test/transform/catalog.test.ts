import { execFileSync } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runTransforms } from '../../src/transform/runner.js';
import { releaseVersions } from '../../src/warehouse/versions.js';
import { packageRoot } from '../../src/util/package-root.js';
import { sqlGraph } from '../../src/warehouse/sql-graph.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

let warehouse: Warehouse;
let dispose: () => Promise<void>;

beforeEach(async () => {
  ({ warehouse, dispose } = await tempWarehouse());
  await runTransforms(warehouse);
});
afterEach(() => dispose());

async function catalogProblems(): Promise<string[]> {
  const check = (await sqlGraph()).file('checks/00_catalog.sql');
  return (await rows(warehouse, check.text)).map((r) => String(r['problem']));
}

describe('the type catalog', () => {
  it('has as its version what `cat sql/seeds/*.csv | sha256sum` prints, recorded by the transform', async () => {
    const printed = execFileSync('sh', ['-c', 'cat sql/seeds/*.csv | sha256sum'], {
      cwd: packageRoot(),
      encoding: 'utf8',
    }).split(' ')[0];
    expect((await releaseVersions()).catalog).toBe(printed);
    expect(await rows(warehouse, "SELECT version FROM model_versions WHERE name = 'type_catalog'")).toEqual([
      { version: printed },
    ]);
  });

  it('passes its own check as shipped', async () => {
    expect(await catalogProblems()).toEqual([]);
  });

  it('names each row a careless edit breaks', async () => {
    await warehouse.connection.run(`
      INSERT INTO type_catalog SELECT * FROM type_catalog WHERE source = 'margin_records' AND type = 'borrow';
      UPDATE type_catalog SET direction = 'inward' WHERE source = 'p2p_tax_records' AND type = 'buy';
      UPDATE type_catalog SET koinly_in = 'bonus' WHERE source = 'spot_tax_records' AND type = 'Lotto rewards';
      UPDATE type_catalog SET category = '' WHERE source = 'deposits' AND type = 'success';
      UPDATE type_catalog SET tax_class = 'gift' WHERE source = 'margin_records' AND type = 'compensate';
      UPDATE type_catalog SET cointracking_out = 'Margin Fee' WHERE source = 'futures_tax_records' AND type = 'ORDER_PLF_FEE_OUT'`);
    expect((await catalogProblems()).sort()).toEqual(
      [
        'margin_records marginTaxType borrow appears 2 times',
        'p2p_tax_records p2pTaxType buy: direction inward is not in, out, signed, none or by_name',
        'spot_tax_records spotTaxType Lotto rewards: koinly value "bonus" is not in tax_tool_vocabulary.csv for money in',
        'deposits status success: moves money, so it needs a category',
        'margin_records marginTaxType compensate: tax class gift is not in tax_classes.csv',
        'category reward maps to more than one tax class or tool value: give its rows the same tax_class, koinly_in, koinly_out, cointracking_in and cointracking_out',
        'category trade_fee maps to more than one tax class or tool value: give its rows the same tax_class, koinly_in, koinly_out, cointracking_in and cointracking_out',
        'futures_tax_records futureTaxType ORDER_PLF_FEE_OUT: cointracking value "Margin Fee" is not in tax_tool_vocabulary.csv for money out',
      ].sort(),
    );
  });
});
