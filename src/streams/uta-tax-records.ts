import { z } from 'zod';
import { decimalString, idString, msString, optionalDecimalString } from './fields.js';
import { accountColumn, amount, text, tsColumn } from './table.js';
import { field, partition } from './source.js';
import { defineStream, flatArrayPage, type PartitionDef } from './stream.js';

/**
 * GET /api/v3/tax/records, "Get Unified Account Tax Records" (https://www.bitget.com/api-doc/uta/tax/Get-Tax-Records;
 * docs mirror sebastianganser/Bitget_API uta/tax/Get-Tax-Records.md; added 2025-11-21, uta/changelog.md): "Data query
 * range: 366 days"; "Rate limit: 1/sec/UID"; `bizType` required (SPOT, MARGIN, USDT-FUTURES, COIN-FUTURES,
 * USDC-FUTURES, OTHER), `marginType` (isolated, crossed; "If not specified, the default is crossed") for MARGIN;
 * startTime and endTime required, "The time range between startTime and endTime must not exceed 7 days"; `limit`
 * "Default: 500. Maximum: 500"; `cursor`: "Do not include it for the first query. When querying the second page and
 * subsequent data, use the `id` returned from the previous query". The answer is a flat array, newest first (the
 * docs' example: ids falling), each record id, coin, type, amount, fee, balance, ts (each checked beside its column).
 */

/**
 * One partition per bizType, both margin types apart (the endpoint answers crossed when marginType is omitted, as the
 * classic margin records do: docs/platform.md). Every partition's records move the unified account
 * (docs/unified-accounts.md).
 */
export const UTA_TAX_PARTITIONS: readonly PartitionDef[] = [
  { name: 'SPOT', params: { bizType: 'SPOT' }, accountType: 'unified' },
  { name: 'MARGIN-crossed', params: { bizType: 'MARGIN', marginType: 'crossed' }, accountType: 'unified' },
  { name: 'MARGIN-isolated', params: { bizType: 'MARGIN', marginType: 'isolated' }, accountType: 'unified' },
  { name: 'USDT-FUTURES', params: { bizType: 'USDT-FUTURES' }, accountType: 'unified' },
  { name: 'COIN-FUTURES', params: { bizType: 'COIN-FUTURES' }, accountType: 'unified' },
  { name: 'USDC-FUTURES', params: { bizType: 'USDC-FUTURES' }, accountType: 'unified' },
  { name: 'OTHER', params: { bizType: 'OTHER' }, accountType: 'unified' },
];

/** A unified account's tax records: its spot, margin and futures movements, each with the coin's balance after it. */
export const utaTaxRecords = defineStream({
  kind: 'paged',
  name: 'uta_tax_records',
  path: '/api/v3/tax/records',
  partitions: UTA_TAX_PARTITIONS,
  maxWindowDays: 7,
  pageLimit: 500,
  ratePerSecond: 1,
  // Its records are acquisitions and disposals (trades, conversions, income): read as far back as they reach.
  carriesLots: true,
  reachDays: 366,
  accountModes: ['uta'],
  cursor: { param: 'cursor', descending: true },
  keyField: 'id',
  optionalFields: ['fee', 'balance'],
  readPage: flatArrayPage('id'),
  table: {
    name: 'uta_tax_records',
    kind: 'view',
    description:
      "A unified trading account's tax records (GET /api/v3/tax/records), one row per record, every bizType (sql/models/uta_tax_records.sql; docs/unified-accounts.md).",
    typedAtLoad: { partitionColumn: 'biz_type' },
    keyColumn: 'id',
    ledger: 'paired',
    columns: [
      accountColumn,
      text(
        'biz_type',
        'The bizType it was read under: SPOT, USDT-FUTURES, COIN-FUTURES, USDC-FUTURES, OTHER, or MARGIN-crossed and MARGIN-isolated (bizType MARGIN with that marginType).',
        partition(),
      ),
      text('id', "The record's id (`id`).", field('id', idString)),
      text('coin', 'The coin that moved (`coin`).', field('coin', z.string())),
      text(
        'type',
        'What moved it (`type`, the "Tax type" enumeration of the docs): the type catalog gives its category and sign.',
        field('type', z.string()),
      ),
      amount(
        'amount',
        "The amount moved (`amount`), as written: the docs' example writes it signed, negative out.",
        field('amount', decimalString),
      ),
      amount('fee', 'The fee (`fee`), as written; NULL when absent.', field('fee', optionalDecimalString)),
      amount(
        'balance',
        'The coin\'s balance after the record (`balance`, "Balance"), as written; NULL when absent.',
        field('balance', optionalDecimalString),
      ),
      tsColumn('ts', msString),
    ],
  },
});
