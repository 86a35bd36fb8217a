import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportFiles } from '../../src/export/exporter.js';
import { runTransforms } from '../../src/transform/runner.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { loadRaw, rows, tempWarehouse, type RawInput } from '../helpers/raw.js';
import { parseCsv } from '../helpers/tax-files.js';

/**
 * One golden line per row of sql/seeds/type_catalog.csv: two records of that type (one written -2.5, one 1.25,
 * so that in, out and as-signed come out differently) to their exact ledger rows and their rows in koinly.csv
 * and cointracking.csv. A catalog row without a line fails; `LEDGERPIPE_WRITE_GOLDEN=1` writes the file anew, to
 * be read line by line before it is committed.
 */
const GOLDEN_FILE = fileURLToPath(new URL('./catalog-golden.txt', import.meta.url));
const T0 = Date.UTC(2025, 2, 1);
const WRITTEN = ['-2.5', '1.25'] as const;

interface CatalogRow {
  source: string;
  field: string;
  type: string;
}

/** The records of one catalog row, at seconds `second` and `second + 1`, and the ledger leg they are read by. */
function recordsFor(row: CatalogRow, n: number): { records: RawInput[]; leg: (entryLeg: string) => boolean } {
  return {
    records: WRITTEN.map((amount, k) => {
      const i = n * 2 + k;
      const id = String(1000 + i);
      const ts = T0 + i * 1000;
      const fee = row.field === 'fee' ? amount : '0';
      const main = row.field === 'fee' ? undefined : amount;
      switch (row.source) {
        case 'margin_records':
          return {
            stream: row.source,
            partition: 'crossed',
            key: id,
            ts,
            payload: {
              id,
              coin: 'USDT',
              symbol: '',
              marginTaxType: row.field === 'fee' ? 'borrow' : row.type,
              amount: main ?? '7',
              fee,
              total: '100',
              ts: String(ts),
            },
          };
        case 'futures_tax_records':
          return {
            stream: row.source,
            partition: 'USDT-FUTURES',
            key: id,
            ts,
            payload: {
              id,
              symbol: 'BTCUSDT',
              marginCoin: 'USDT',
              futureTaxType: row.field === 'fee' ? 'contract_main_settle_fee' : row.type,
              amount: main ?? '7',
              fee,
              ts: String(ts),
            },
          };
        case 'spot_tax_records':
          return {
            stream: row.source,
            key: id,
            ts,
            payload: {
              id,
              coin: 'USDT',
              spotTaxType: row.field === 'fee' ? 'Interest' : row.type,
              amount: main ?? '7',
              fee,
              balance: '100',
              ts: String(ts),
            },
          };
        case 'p2p_tax_records':
          return {
            stream: row.source,
            key: id,
            ts,
            payload: { id, coin: 'USDT', p2pTaxType: row.type, balance: amount, ts: String(ts) },
          };
        case 'withdrawals':
        case 'deposits':
          return {
            stream: row.source,
            key: id,
            ts,
            payload: {
              orderId: id,
              tradeId: id,
              coin: 'USDT',
              type: row.source === 'withdrawals' ? 'withdraw' : 'deposit',
              dest: 'internal_transfer',
              size: main ?? '7',
              fee,
              status: row.field === 'fee' ? 'success' : row.type,
              cTime: String(ts),
              uTime: String(ts),
            },
          };
        case 'futures_fills':
          return {
            stream: row.source,
            partition: 'USDT-FUTURES',
            key: id,
            ts,
            payload: {
              tradeId: id,
              symbol: 'BTCUSDT',
              orderId: `o${id}`,
              price: '100',
              baseVolume: '1',
              quoteVolume: '100',
              side: 'sell',
              enterPointSource: 'API',
              tradeSide: 'close',
              posMode: 'hedge_mode',
              tradeScope: 'taker',
              cTime: String(ts),
              marginCoin: 'USDT',
              profit: row.field === 'profit' ? amount : '0',
              feeDetail:
                row.field === 'profit'
                  ? []
                  : [{ deduction: row.type, feeCoin: 'USDT', totalDeductionFee: '0', totalFee: amount }],
            },
          };
        case 'uta_tax_records':
          return {
            stream: row.source,
            partition: 'SPOT',
            key: id,
            ts,
            payload: {
              id,
              coin: 'USDT',
              type: row.field === 'fee' ? 'TRANSFER_IN' : row.type,
              amount: main ?? '7',
              fee,
              balance: '100',
              ts: String(ts),
            },
          };
        case 'uta_financial_records': {
          // The unified account's categories are read by category (their type says only how the balance moves); the
          // funding account's records by groupType, their fee as field fee, type funding.
          const funding = row.field === 'groupType' || (row.field === 'fee' && row.type === 'funding');
          const category = row.field === 'category' ? row.type : funding ? 'funding' : 'SPOT';
          const type = row.field === 'type' ? row.type : 'TRANSFER_IN';
          const groupType = row.field === 'groupType' ? row.type : 'deposit';
          return {
            stream: row.source,
            partition: category,
            key: id,
            ts,
            payload: {
              id,
              coin: 'USDT',
              ...(funding ? { groupType } : { category, type }),
              amount: main ?? '7',
              fee,
              balance: '100',
              ts: String(ts),
            },
          };
        }
        case 'copy_transfers':
          // One into the copy account, one out of it: the copy side is + and - by the sides, whatever the amount's
          // sign.
          return {
            stream: row.source,
            partition: '1100000001',
            key: id,
            ts,
            payload: {
              fromType: k === 0 ? 'copy' : 'funding',
              toType: k === 0 ? 'funding' : 'copy',
              coin: 'USDT',
              amount: amount.replace('-', ''),
              status: row.type,
              createdTime: String(ts),
            },
          };
        case 'copy_profit_shares':
          return {
            stream: row.source,
            partition: '1100000001',
            key: id,
            ts,
            payload: {
              settleTime: String(ts),
              profit: '10',
              allocatedPnl: '10',
              pendingPnl: '0',
              shareRatio: '0.1',
              shareProfit: amount,
            },
          };
        case 'lead_trader_profits':
          return {
            stream: row.source,
            key: id,
            ts,
            payload: { profitId: id, coin: 'usdt', profit: amount, nickName: 'follower', profitTime: String(ts) },
          };
        default:
          throw new Error(`no record for source ${row.source}`);
      }
    }),
    leg: (entryLeg) =>
      row.field === 'fee'
        ? entryLeg === 'fee'
        : row.field === 'profit'
          ? entryLeg === 'pnl'
          : row.field === 'feeDetail.deduction'
            ? entryLeg === 'fee1'
            : entryLeg === 'main',
  };
}

let warehouse: Warehouse;
let dir: string;
let dispose: () => Promise<void>;
let catalog: CatalogRow[];
let lines: string[];

beforeAll(async () => {
  ({ warehouse, dir, dispose } = await tempWarehouse());
  // The catalog as the transform loads it.
  await runTransforms(warehouse);
  catalog = (
    await rows(
      warehouse,
      "SELECT source, field, type FROM type_catalog WHERE source <> 'ledgerpipe' ORDER BY source, field, type",
    )
  ).map((r) => ({
    source: String(r['source']),
    field: String(r['field']),
    type: String(r['type']),
  }));
  const plans = catalog.map((row, n) => ({ row, ...recordsFor(row, n) }));
  await loadRaw(
    warehouse,
    plans.flatMap((p) => p.records),
  );
  await runTransforms(warehouse);
  const out = join(dir, 'out');
  await exportFiles(warehouse, { out, from: T0, to: T0 + 86_400_000, formats: ['koinly', 'cointracking'] });
  const koinly = parseCsv(await readFile(join(out, 'koinly.csv'), 'utf8')).slice(1);
  const cointracking = parseCsv(await readFile(join(out, 'cointracking.csv'), 'utf8')).slice(1);
  const ledger = await rows(
    warehouse,
    'SELECT source, source_id, leg, entry_id, category, lp_decimal_text(amount) AS amount FROM ledger ORDER BY ts, entry_id',
  );
  lines = plans.map(({ row, records, leg }) => {
    const ids = new Set(records.map((r) => r.key));
    const booked = ledger.filter(
      (l) => l['source'] === row.source && ids.has(String(l['source_id'])) && leg(String(l['leg'])),
    );
    const entries = new Set(booked.map((l) => String(l['entry_id'])));
    // A tax row names the ledger entries it is made of, as words of its Description or Comment.
    const mentions = (text: string) => text.split(' ').some((word) => entries.has(word));
    const ko = koinly
      .filter((r) => mentions(r[10] as string))
      .map((r) =>
        [
          r[1] === '' ? '' : `sent ${r[1]}`,
          r[3] === '' ? '' : `received ${r[3]}`,
          r[5] === '' ? '' : `fee ${r[5]}`,
          r[9] === '' ? 'no tag' : `"${r[9]}"`,
          (r[10] as string).startsWith('REVIEW') ? 'REVIEW' : '',
        ]
          .filter((x) => x !== '')
          .join(' '),
      );
    const ct = cointracking
      .filter((r) => mentions(r[9] as string))
      .map((r) =>
        [
          `"${r[0]}"`,
          r[1] === '' ? '' : `buy ${r[1]}`,
          r[3] === '' ? '' : `sell ${r[3]}`,
          r[5] === '' ? '' : `fee ${r[5]}`,
          (r[9] as string).startsWith('REVIEW') ? 'REVIEW' : '',
        ]
          .filter((x) => x !== '')
          .join(' '),
      );
    const ledgerText =
      booked.length === 0
        ? 'no ledger rows'
        : booked.map((l) => `${String(l['category'])} ${String(l['amount'])}`).join(', ');
    return `${row.source} ${row.field} "${row.type}": ${ledgerText} | koinly: ${ko.join('; ') || 'none'} | cointracking: ${ct.join('; ') || 'none'}`;
  });
  if (process.env['LEDGERPIPE_WRITE_GOLDEN'] === '1') await writeFile(GOLDEN_FILE, `${lines.join('\n')}\n`);
});
afterAll(() => dispose());

describe('every row of the type catalog, one record at a time', () => {
  it('books two records of each type to exactly the ledger rows and tax rows of its golden line', async () => {
    const golden = (await readFile(GOLDEN_FILE, 'utf8')).trimEnd().split('\n');
    expect(lines).toEqual(golden);
    expect(golden).toHaveLength(catalog.length);
  });
});
