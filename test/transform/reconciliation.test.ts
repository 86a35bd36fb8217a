import { describe, expect, it } from 'vitest';
import { statusLines } from '../../src/cli/status.js';
import { runTransforms } from '../../src/transform/runner.js';
import { releaseVersions } from '../../src/warehouse/versions.js';
import { loadRaw, tempWarehouse } from '../helpers/raw.js';
import { at, GOLDEN } from './fixtures.js';

describe('year-end reconciliation in status', () => {
  it('sets the ledger movements per asset of each year beside the balance snapshots of that year', async () => {
    const { warehouse, dispose } = await tempWarehouse();
    try {
      const snapshot = (t: number, balance: string) => ({
        stream: 'account_balances',
        key: `${t}:spot`,
        ts: t,
        payload: { accountType: 'spot', usdtBalance: balance },
      });
      await loadRaw(warehouse, [...GOLDEN, snapshot(at(0), '1000.5'), snapshot(at(100), '1200')]);
      await runTransforms(warehouse);
      const lines = await statusLines(warehouse);
      expect(lines.filter((l) => l.startsWith('  2025 '))).toEqual([
        '  2025 ledger movements: ARB 12, BGB -0.05, BTC 0.16427466, ETH -0.7021, EUR 500, SOL 1.998, USDC -5, USDT -14244.35',
        '  2025 balance snapshots (USDT valuation of all account types): 1000.5 at 2025-06-01T00:00:00.000Z, 1200 at 2025-06-01T00:01:40.000Z; the platform gives no per-asset balances to check the movements against',
      ]);
      // The types the catalog lacks, with their count and total, and the catalog the ledger was booked with.
      expect(lines.slice(lines.indexOf('  types not in the type catalog, booked as unreviewed (add each to sql/seeds/type_catalog.csv, then run transform):'), -1)).toEqual([
        '  types not in the type catalog, booked as unreviewed (add each to sql/seeds/type_catalog.csv, then run transform):',
        '    default margin_records marginTaxType "special_refund": 1 record, USDT -7.7',
        '    default margin_records marginTaxType "special_transfer_out": 1 record, USDT -12674',
      ]);
      expect(lines.at(-1)).toMatch(new RegExp(`^type catalog of the last transform: ${(await releaseVersions()).catalog} \\(\\d{4}-\\d\\d-\\d\\dT`));
    } finally {
      await dispose();
    }
  });
});
