import { z } from 'zod';
import { decimalString, idString, msString, optionalDecimalString, optionalText } from './fields.js';
import { accountColumn, amount, text, tsColumn } from './table.js';
import { field, partition } from './source.js';
import { defineStream, flatArrayPage, FUTURES_PARTITIONS } from './stream.js';

/** The live docs give the tax-record endpoints a 30-day window; a narrower one is learned if refused. */
const TAX_WINDOW_DAYS = 30;
const TAX_PAGE = 500;

/**
 * GET /api/v2/tax/future-record per product type: funding fees (which fill-history lacks), settlements, liquidations.
 */
export const futuresTaxRecords = defineStream({
  kind: 'paged',
  name: 'futures_tax_records',
  path: '/api/v2/tax/future-record',
  partitions: FUTURES_PARTITIONS,
  maxWindowDays: TAX_WINDOW_DAYS,
  pageLimit: TAX_PAGE,
  ratePerSecond: 1,
  keyField: 'id',
  readPage: flatArrayPage('id'),
  table: {
    name: 'futures_tax_records',
    kind: 'view',
    description:
      'Futures tax records (GET /api/v2/tax/future-record): funding fees, closes, liquidations, settlements; one row per record (sql/models/futures_tax_records.sql).',
    typedAtLoad: { partitionColumn: 'partition' },
    keyColumn: 'id',
    ledger: 'paired',
    columns: [
      accountColumn,
      text(
        'product_type',
        'USDT-FUTURES, COIN-FUTURES or USDC-FUTURES: the productType the record was read under.',
        partition(),
      ),
      text('id', "The record's id (`id`).", field('id', idString)),
      text('symbol', 'The contract (`symbol`); NULL when empty.', field('symbol', optionalText, { emptyAsNull: true })),
      text('margin_coin', 'The coin that moved (`marginCoin`).', field('marginCoin', z.string())),
      text(
        'future_tax_type',
        'What moved it (`futureTaxType`), exactly as spelled: the type catalog gives its category and sign.',
        field('futureTaxType', z.string()),
      ),
      amount('amount', 'The amount moved (`amount`), as written.', field('amount', decimalString)),
      amount('fee', 'The fee (`fee`), as written; NULL when absent.', field('fee', decimalString.nullish())),
      tsColumn('ts', msString),
    ],
  },
});

/** GET /api/v2/tax/spot-record. */
export const spotTaxRecords = defineStream({
  kind: 'paged',
  name: 'spot_tax_records',
  path: '/api/v2/tax/spot-record',
  partitions: [{ name: '', params: {}, accountType: 'spot' }],
  maxWindowDays: TAX_WINDOW_DAYS,
  pageLimit: TAX_PAGE,
  ratePerSecond: 1,
  // Its records are acquisitions and disposals: read back to the account's opening for the cost basis
  // (docs/history.md).
  carriesLots: true,
  keyField: 'id',
  readPage: flatArrayPage('id'),
  table: {
    name: 'spot_tax_records',
    kind: 'view',
    description:
      'Spot tax records (GET /api/v2/tax/spot-record), one row per record (sql/models/spot_tax_records.sql).',
    typedAtLoad: { partitionColumn: 'partition' },
    keyColumn: 'id',
    ledger: 'paired',
    columns: [
      accountColumn,
      text('id', "The record's id (`id`).", field('id', idString)),
      text('coin', 'The coin that moved (`coin`).', field('coin', z.string())),
      text(
        'spot_tax_type',
        'What moved it (`spotTaxType`), a display name or a raw code as received: the type catalog gives its category and sign.',
        field('spotTaxType', z.string()),
      ),
      amount('amount', 'The amount moved (`amount`), as written.', field('amount', decimalString)),
      amount('fee', 'The fee (`fee`), as written; NULL when absent.', field('fee', decimalString.nullish())),
      amount(
        'balance',
        'The `balance` field as written; the docs do not define it further.',
        field('balance', decimalString.nullish()),
      ),
      text(
        'biz_order_id',
        'The order the record belongs to (`bizOrderId`, on newer records); NULL when empty.',
        field('bizOrderId', optionalText, { emptyAsNull: true }),
      ),
      tsColumn('ts', msString),
    ],
  },
});

/** GET /api/v2/tax/p2p-record; the amount moved is in `balance` or `total` (docs/platform.md). */
export const p2pTaxRecords = defineStream({
  kind: 'paged',
  name: 'p2p_tax_records',
  path: '/api/v2/tax/p2p-record',
  partitions: [{ name: '', params: {}, accountType: 'funding' }],
  maxWindowDays: TAX_WINDOW_DAYS,
  pageLimit: TAX_PAGE,
  ratePerSecond: 1,
  // Its records are acquisitions and disposals: read back to the account's opening for the cost basis
  // (docs/history.md).
  carriesLots: true,
  // The amount moved is `balance` in the newest docs' example and `total` in the earlier docs and in SDK types
  // (docs/platform.md, "Tax records"): either will do, one must be there.
  recordChecks: [
    {
      check: (r) => (r['balance'] ?? r['total']) !== undefined && (r['balance'] ?? r['total']) !== null,
      message: 'neither balance nor total',
      path: ['balance'],
    },
  ],
  keyField: 'id',
  optionalFields: ['balance', 'total'],
  readPage: flatArrayPage('id'),
  table: {
    name: 'p2p_tax_records',
    kind: 'view',
    description: 'P2P tax records (GET /api/v2/tax/p2p-record), one row per record (sql/models/p2p_tax_records.sql).',
    typedAtLoad: { partitionColumn: 'partition' },
    keyColumn: 'id',
    ledger: 'paired',
    columns: [
      accountColumn,
      text('id', "The record's id (`id`).", field('id', idString)),
      text('coin', 'The coin that moved (`coin`).', field('coin', z.string())),
      text(
        'p2p_tax_type',
        'What moved it (`p2pTaxType`): the type catalog gives its category and sign.',
        field('p2pTaxType', z.string()),
      ),
      amount(
        'balance',
        'The amount moved in the newest docs (`balance`, "Quantity"); the ledger reads it first.',
        field('balance', optionalDecimalString),
      ),
      amount(
        'total',
        'The amount moved in the earlier docs and SDK types (`total`); read when balance is absent.',
        field('total', optionalDecimalString),
      ),
      tsColumn('ts', msString),
    ],
  },
});
