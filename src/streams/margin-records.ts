import { z } from 'zod';
import { decimalString, idString, msString, optionalText } from './fields.js';
import { accountColumn, amount, text, tsColumn } from './table.js';
import { expression, field, partition } from './source.js';
import { defineStream, flatArrayPage } from './stream.js';

/**
 * GET /api/v2/tax/margin-record, both margin types: the live service answers only `crossed` when marginType is omitted,
 * and spells it `crossed` where the spec writes `cross` (docs/platform.md, "Windows, pages and rates").
 */
export const marginRecords = defineStream({
  kind: 'paged',
  name: 'margin_records',
  path: '/api/v2/tax/margin-record',
  partitions: [
    { name: 'crossed', params: { marginType: 'crossed' }, accountType: 'margin_crossed' },
    { name: 'isolated', params: { marginType: 'isolated' }, accountType: 'margin_isolated' },
  ],
  maxWindowDays: 366,
  pageLimit: 500,
  ratePerSecond: 1,
  // Its records are acquisitions and disposals: read back to the account's opening for the cost basis
  // (docs/history.md).
  carriesLots: true,
  keyField: 'id',
  readPage: flatArrayPage('id'),
  table: {
    name: 'margin_records',
    kind: 'view',
    description:
      'Margin transaction records (GET /api/v2/tax/margin-record), one row per record, renamed and cast (sql/models/margin_records.sql).',
    typedAtLoad: { partitionColumn: 'margin_type' },
    keyColumn: 'id',
    ledger: 'paired',
    exported: { key: 'id' },
    // The record's fields, each checked beside its column (docs/platform.md, "Tax records": the margin record;
    // marginTaxType kept open).
    columns: [
      accountColumn,
      text('margin_type', 'crossed or isolated: the marginType the record was read under.', partition()),
      text('id', "The record's id (the API's `id`).", field('id', idString)),
      text('coin', 'The coin that moved (`coin`).', field('coin', z.string())),
      text(
        'symbol',
        'The isolated margin pair (`symbol`); NULL when empty.',
        field('symbol', optionalText, { emptyAsNull: true }),
      ),
      text(
        'margin_tax_type',
        'What moved it (`marginTaxType`): the type catalog gives its ledger category and sign.',
        field('marginTaxType', z.string()),
      ),
      amount('amount', 'The amount moved (`amount`), as written.', field('amount', decimalString)),
      amount('fee', 'The fee (`fee`), as written; NULL when absent.', field('fee', decimalString.nullish())),
      // The docs name it total; a client built on real records reads balance (docs/platform.md).
      amount(
        'total',
        'The `total` field as written (a client built on real records reads it as `balance`); the docs do not define it further.',
        expression(
          'lp_amount(coalesce(r.total, r.balance))',
          field('total', decimalString.nullish()),
          field('balance'),
        ),
      ),
      tsColumn('ts', msString),
    ],
  },
});
