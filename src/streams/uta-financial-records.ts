import { z } from 'zod';
import { decimalString, idString, msString, optionalDecimalString, optionalText } from './fields.js';
import { accountColumn, amount, text, tsColumn } from './table.js';
import { field, partition } from './source.js';
import { defineStream, type PageRead, type PartitionDef } from './stream.js';

/**
 * The page of the v3 financial-record endpoints: `data` is `{"list": [...], "cursor": "..."}` ("Pagination is
 * implemented by omitting the cursor in the first query and applying the cursor from the previous query for
 * subsequent pages": docs mirror uta/account/Get-Financial-Records.md). A token, not a record id: the extractor checks
 * only that it changes. A flat array is read too, paged by its last record's id.
 */
export function listCursorPage(keyField: string | undefined, cursorField = 'cursor'): (data: unknown) => PageRead {
  return (data) => {
    if (data === null || data === undefined) return { records: [], cursor: undefined };
    const records = (
      Array.isArray(data)
        ? data
        : (z
            .object({ list: z.array(z.unknown()).nullish() })
            .loose()
            .parse(data).list ?? [])
    ) as unknown[];
    const given = Array.isArray(data) ? undefined : (data as Record<string, unknown>)[cursorField];
    const last = records.at(-1) as Record<string, unknown> | undefined;
    const cursor =
      typeof given === 'string' && given !== ''
        ? given
        : last === undefined || keyField === undefined
          ? undefined
          : String(last[keyField]);
    return { records, cursor };
  };
}

/**
 * A financial record of either endpoint. The unified account's (GET /api/v3/account/financial-records; the docs mirror
 * uta/account/Get-Financial-Records.md): category, id, symbol, coin, type ("All enumeration values can be viewed under
 * the Enumeration category": uta/enum.md, "type (financial records)"), amount, fee, balance, ts; a public client reads
 * positionType, positionAmount and positionBalance too (UnipayFI/go-bitget uta/account_records.go). The funding
 * account's (GET /api/v3/account/funding-financial-records): id, coin, groupType (transaction, deposit, withdraw,
 * transfer, financial, loan, convert, rwa, stock), type, amount, balance, ts, as the public clients that added it read
 * it (ccxt/ccxt#30414, JKorf/Bitget.Net#110; its docs moved to
 * https://www.bitget.com/docs/catalog/account/assets-balance and are not in the mirror): `type` may then be absent.
 * Each field is checked beside its column; the record's `category` is checked though the column of that name is the
 * partition it was read under.
 */

const CATEGORIES = ['SPOT', 'MARGIN', 'USDT-FUTURES', 'COIN-FUTURES', 'USDC-FUTURES', 'OTHER'] as const;

/**
 * The unified account's categories ("category ... Yes": SPOT, MARGIN, USDT-FUTURES, COIN-FUTURES, USDC-FUTURES, OTHER),
 * whose records are the same movements its tax records book (booked from uta_tax_records: no account type here), and
 * the funding account's ledger, a sibling endpoint with the same windows (research notes: "90 d; 30 d window").
 */
export const UTA_FINANCIAL_PARTITIONS: readonly PartitionDef[] = [
  ...CATEGORIES.map((category) => ({ name: category, params: { category } })),
  {
    name: 'funding',
    params: {},
    accountType: 'funding',
    // Its rate is not in the mirror: the unified endpoint's 20/s is not assumed; 10/s, the rate of the classic ledgers.
    endpoint: { path: '/api/v3/account/funding-financial-records', ratePerSecond: 10, readPage: listCursorPage('id') },
  },
];

/**
 * A unified account's financial records (docs/unified-accounts.md): "Query financial records within the last 90 days";
 * "Rate limit: 20/sec/UID"; "The time range between startTime and endTime must not exceed 30 days"; `limit` "Default:
 * 100. Maximum: 100"; `cursor` from the previous answer (uta/account/Get-Financial-Records.md).
 */
export const utaFinancialRecords = defineStream({
  kind: 'paged',
  name: 'uta_financial_records',
  path: '/api/v3/account/financial-records',
  partitions: UTA_FINANCIAL_PARTITIONS,
  maxWindowDays: 30,
  pageLimit: 100,
  ratePerSecond: 20,
  // The funding account's deposits and withdrawals are acquisitions and removals: read as far back as they reach.
  carriesLots: true,
  reachDays: 90,
  accountModes: ['uta'],
  cursor: { param: 'cursor', descending: false },
  recordChecks: [
    { check: (r) => (r['type'] ?? r['groupType'] ?? '') !== '', message: 'neither type nor groupType', path: ['type'] },
  ],
  keyField: 'id',
  optionalFields: [
    'category',
    'symbol',
    'type',
    'groupType',
    'fee',
    'balance',
    'positionType',
    'positionAmount',
    'positionBalance',
  ],
  readPage: listCursorPage('id'),
  table: {
    name: 'uta_financial_records',
    kind: 'view',
    description:
      "A unified trading account's financial records (GET /api/v3/account/financial-records per category, and the funding account's GET /api/v3/account/funding-financial-records), one row per record (sql/models/uta_financial_records.sql; docs/unified-accounts.md).",
    typedAtLoad: { partitionColumn: 'category' },
    keyColumn: 'id',
    ledger: 'paired',
    columns: [
      accountColumn,
      text(
        'category',
        "The category it was read under (SPOT, MARGIN, USDT-FUTURES, COIN-FUTURES, USDC-FUTURES, OTHER), or funding for the funding account's records.",
        partition(field('category', optionalText)),
      ),
      text('id', "The record's id (`id`).", field('id', idString)),
      text('symbol', 'The symbol (`symbol`); NULL when empty.', field('symbol', optionalText, { emptyAsNull: true })),
      text('coin', 'The coin that moved (`coin`).', field('coin', z.string())),
      text(
        'type',
        'What moved it (`type`, the "type (financial records)" enumeration of the docs); NULL when absent.',
        field('type', optionalText, { emptyAsNull: true }),
      ),
      text(
        'group_type',
        "The funding account's group of the record (`groupType`: deposit, withdraw, transfer, ...); NULL when absent.",
        field('groupType', optionalText, { emptyAsNull: true }),
      ),
      amount('amount', 'The amount moved (`amount`), as written.', field('amount', decimalString)),
      amount('fee', 'The fee (`fee`), as written; NULL when absent.', field('fee', optionalDecimalString)),
      amount(
        'balance',
        'The balance after the record (`balance`), as written; NULL when absent.',
        field('balance', optionalDecimalString),
      ),
      text(
        'position_type',
        'crossed or isolated (`positionType`); NULL when absent.',
        field('positionType', optionalText, { emptyAsNull: true }),
      ),
      amount(
        'position_amount',
        '`positionAmount` as written; NULL when absent.',
        field('positionAmount', optionalDecimalString),
      ),
      amount(
        'position_balance',
        '`positionBalance` as written; NULL when absent.',
        field('positionBalance', optionalDecimalString),
      ),
      tsColumn('ts', msString),
    ],
  },
});
