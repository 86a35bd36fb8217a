import { describe, expect, it } from 'vitest';
import { statusLines } from '../../src/cli/status.js';
import { runTransforms } from '../../src/transform/runner.js';
import { readCompleteness, findingsOf } from '../../src/reads/completeness.js';
import { loadRaw, rows, tempWarehouse, type RawInput } from '../helpers/raw.js';

const T = Date.UTC(2025, 5, 1);
const at = (i: number): number => T + i * 60_000;

function spot(i: number, id: string, type: string, amount: string, balance: string, coin = 'USDT'): RawInput {
  return {
    stream: 'spot_tax_records',
    key: id,
    ts: at(i),
    payload: { id, coin, spotTaxType: type, amount, fee: '0', balance, ts: String(at(i)) },
  };
}

function margin(i: number, id: string, type: string, amount: string, total: string): RawInput {
  return {
    stream: 'margin_records',
    partition: 'crossed',
    key: id,
    ts: at(i),
    payload: { id, coin: 'USDT', symbol: '', marginTaxType: type, amount, fee: '0', total, ts: String(at(i)) },
  };
}

/** The day of 2025-06-01 read in full for a stream's partition: its chains are checked only inside a span read. */
const read = (
  stream: string,
  partition: string,
) => `INSERT INTO coverage (account, stream, partition, window_start, window_end, status, cursor, pages, rows, tie_pages, run_id, updated_at)
  VALUES ('default', '${stream}', '${partition}', TIMESTAMPTZ '2025-06-01 00:00:00+00', TIMESTAMPTZ '2025-06-02 00:00:00+00', 'done', NULL, 1, 0, 0, 'test', now())`;

describe('signs checked against running balances (docs/completeness.md, "Signs checked against balances")', () => {
  it('finds a type whose booked sign is opposite to its balance step, apart from a break, with its record', async () => {
    const { warehouse, dispose } = await tempWarehouse();
    try {
      await loadRaw(warehouse, [
        spot(0, '601', 'Deposit', '100', '100'),
        // A public client's comment on these labels: "deposit from strategy ... they got it backwards"
        // (tribulnation/bitget, sdk/reporting/transactions/spot.py). Here an "Automatic deposit" written unsigned
        // while the balance went down by it: the catalog books it as written (+30), the balance says -30.
        spot(1, '602', 'Automatic deposit', '30', '70'),
        spot(2, '603', 'Transfer in', '5', '75'),
        // A break, not a mismatch: 1 in, but the balance moved 5 (a record of 4 missing before it).
        spot(3, '604', 'Interest', '1', '80'),
        // The catalog books transfer_in in: a margin transfer in whose total went down by it reads backwards too.
        margin(0, '701', 'transfer_in', '500', '500'),
        margin(1, '702', 'transfer_in', '20', '480'),
        margin(2, '703', 'transfer_out', '-30', '450'),
      ]);
      await warehouse.connection.run(read('spot_tax_records', ''));
      await warehouse.connection.run(read('margin_records', 'crossed'));
      await runTransforms(warehouse);
      expect(
        await rows(
          warehouse,
          `SELECT stream, source_id, type, lp_decimal_text(amount) AS amount, lp_decimal_text(booked) AS booked, lp_decimal_text(step) AS step
        FROM sign_mismatches ORDER BY stream, source_id`,
        ),
      ).toEqual([
        { stream: 'margin_records', source_id: '702', type: 'transfer_in', amount: '20', booked: '20', step: '-20' },
        {
          stream: 'spot_tax_records',
          source_id: '602',
          type: 'Automatic deposit',
          amount: '30',
          booked: '30',
          step: '-30',
        },
      ]);
      // Distinct from a break: the interest's step does not add up either way.
      expect(
        await rows(
          warehouse,
          'SELECT stream, source_id, lp_decimal_text(difference) AS difference FROM balance_breaks',
        ),
      ).toEqual([{ stream: 'spot_tax_records', source_id: '604', difference: '4' }]);
      const completeness = await readCompleteness(warehouse);
      expect(completeness?.counts).toEqual({ breaks: 1, signMismatches: 2, unpaired: expect.any(Number) as number });
      // Each a finding: a run that reads these exits 4 (completenessFindings, src/pipeline/run-completeness.ts).
      expect(findingsOf(completeness!)).toBe(3);
      const lines = await statusLines(warehouse);
      const block = lines.slice(lines.indexOf('  completeness'));
      expect(block[1]).toBe(
        '    1 running-balance break, 2 sign mismatches, 0 unexplained differences: 5 running-balance steps checked; no per-asset balance snapshot was read, so none was set against the ledger',
      );
      expect(block).toContain(
        '    sign mismatch: default spot_tax_records USDT at 2025-06-01T00:01:00.000Z, record 602 (spotTaxType "Automatic deposit", amount 30): booked 30, the balance moved -30 (the type\'s label, or its catalog row, reads backwards: review it, or override it with --catalog)',
      );
    } finally {
      await dispose();
    }
  });
});
