import { describe, expect, it } from 'vitest';
import { statusLines } from '../../src/cli/status.js';
import { runTransforms } from '../../src/transform/runner.js';
import { releaseVersions } from '../../src/warehouse/versions.js';
import { loadRaw, tempWarehouse } from '../helpers/raw.js';
import { at, GOLDEN } from './fixtures.js';

describe('year-end movements in status', () => {
  it('prints the ledger movements per asset of each year, and the completeness of the records', async () => {
    const { warehouse, dispose } = await tempWarehouse();
    try {
      const snapshot = (t: number, balance: string) => ({
        stream: 'account_balances',
        key: `${t}:spot`,
        ts: t,
        payload: { accountType: 'spot', usdtBalance: balance },
      });
      await loadRaw(warehouse, [...GOLDEN, snapshot(at(0), '1000.5'), snapshot(at(100), '1200')]);
      // The margin records' day read in full: their chains are checked only inside a span read.
      await warehouse.connection
        .run(`INSERT INTO coverage (account, stream, partition, window_start, window_end, status, cursor, pages, rows, tie_pages, run_id, updated_at)
        VALUES ('default', 'margin_records', 'crossed', TIMESTAMPTZ '2025-06-01 00:00:00+00', TIMESTAMPTZ '2025-06-02 00:00:00+00', 'done', NULL, 1, 0, 0, 'test', now())`);
      await runTransforms(warehouse);
      const lines = await statusLines(warehouse);
      expect(lines.filter((l) => l.startsWith('  2025 '))).toEqual([
        '  2025 ledger movements: ARB 12, BGB -0.05, BTC 0.16427466, ETH -0.7021, EUR 500, SOL 1.998, USDC -5, USDT -14244.35',
      ]);
      // The fixtures' margin records all say total 1000: each step that does not add up is a break, at its record.
      const block = lines.slice(lines.indexOf('  completeness'));
      expect(block.slice(0, 3)).toEqual([
        '  completeness',
        '    10 running-balance breaks, 0 unexplained differences: 10 running-balance steps checked, 5 not (the record has a fee, whose place in the balance no published example settles, or a span between the two records was not read); no per-asset balance snapshot was read, so none was set against the ledger',
        "    break: default margin_records crossed USDT at 2025-06-01T00:00:01.000Z, record 102: expected 959.5, reported 1000, difference 40.5 (a record before it is missing or misread; a missing one's movement is the difference)",
      ]);
      expect(
        block.filter((l) => l.startsWith('    break: ')).map((l) => l.split(', record ')[1]?.split(':')[0]),
      ).toEqual(['102', '104', '105', '106', '107', '111', '113', '114', '115', '116']);
      // Transfers with no other side, each listed; and the account type valued with no per-asset balance read.
      expect(block.filter((l) => l.startsWith('      default ')).map((l) => l.split(' (')[1]?.split(')')[0])).toEqual([
        'margin_records 101',
        'margin_records 102',
        'futures_tax_records 503',
        'spot_tax_records 603',
        'p2p_tax_records 701',
      ]);
      expect(block).toContain('    default spot: holds 1200 USDT of value with no per-asset balance read');
      // The types the catalog lacks, with their count and total, and the catalog the ledger was booked with.
      expect(
        lines.slice(
          lines.indexOf(
            '  types not in the type catalog, booked as unreviewed (add each to your catalog file, --catalog FILE: docs/ledger.md, "Adding a type"):',
          ),
          -1,
        ),
      ).toEqual([
        '  types not in the type catalog, booked as unreviewed (add each to your catalog file, --catalog FILE: docs/ledger.md, "Adding a type"):',
        '    default margin_records marginTaxType "special_refund": 1 record, USDT -7.7',
        '    default margin_records marginTaxType "special_transfer_out": 1 record, USDT -12674',
      ]);
      expect(lines.at(-1)).toMatch(
        new RegExp(
          `^type catalog of the last transform: ${(await releaseVersions()).catalog} \\(\\d{4}-\\d\\d-\\d\\dT`,
        ),
      );
    } finally {
      await dispose();
    }
  });
});
