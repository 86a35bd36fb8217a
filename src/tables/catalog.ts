import { accountColumn, text, type TableDef } from '../streams/table.js';

// The type catalog and the lists it is checked against (sql/seeds/; docs/ledger.md, "The type catalog"), and what the
// ledger's categories and unknown types come to.

export const typeCatalog: TableDef = {
  name: 'type_catalog',
  kind: 'table',
  description:
    'One row per type the platform documents, per stream and field, with how the ledger books it and the tax files write it (sql/seeds/type_catalog.csv, loaded by sql/seeds/00_seeds.sql).',
  columns: [
    text(
      'source',
      'The stream the type belongs to (margin_records, withdrawals, ...); ledgerpipe for its own rule rows (unreviewed, unpaired_trade_leg).',
    ),
    text(
      'field',
      "The record's field the type is read from (marginTaxType, status, fee, ...); rule for ledgerpipe's rows.",
    ),
    text(
      'type',
      'The type exactly as the platform spells it, case included; * for a field booked whatever its value (fee, profit).',
    ),
    text(
      'category',
      "The ledger category its rows get (trade_in, trading_fee, ...); '' for a type that books nothing.",
    ),
    text(
      'direction',
      'How the amount is booked: in +abs(amount), out -abs(amount), signed as written, none not at all; by_name as a type not in the catalog.',
    ),
    text('tax_class', 'Its tax class (tax_classes), which decides whether its rows go into the tax files.'),
    text(
      'trade_role',
      "in, out or leg (by its sign) for the legs of a trade, fee for a trade's fee record; '' otherwise.",
    ),
    text('koinly_in', "Koinly's tag for money in; '' for none."),
    text('koinly_out', "Koinly's tag for money out; '' for none."),
    text('cointracking_in', "CoinTracking's type for money in; '' for none."),
    text('cointracking_out', "CoinTracking's type for money out; '' for none."),
    text('meaning', 'What the platform says the type is.'),
    text('documented_in', "Where: the live docs' page, or the client whose real records showed it."),
  ],
};

export const taxClasses: TableDef = {
  name: 'tax_classes',
  kind: 'table',
  description:
    'What each tax class means, and whether its rows go into the tax files (sql/seeds/tax_classes.csv, loaded by sql/seeds/00_seeds.sql).',
  columns: [
    text('tax_class', 'The tax class (trade_leg, realized_pnl, internal_transfer, ...).'),
    text('meaning', 'What it means.'),
    {
      name: 'in_tax_files',
      type: 'BOOLEAN',
      description:
        'true: its rows go into the tax files; false: they are left out (tax_export_excluded). NULL for a value other than yes or no, which the catalog check refuses.',
    },
    text('label', 'The class in words, as the report names it (Trading fees and refunds, Income, ...).'),
  ],
};

export const taxToolVocabulary: TableDef = {
  name: 'tax_tool_vocabulary',
  kind: 'table',
  description:
    "The Koinly tags and CoinTracking types the type catalog may use, each from the tool's own help (sql/seeds/tax_tool_vocabulary.csv, loaded by sql/seeds/00_seeds.sql).",
  columns: [
    text('tool', 'koinly or cointracking.'),
    text('side', 'in for money in, out for money out, both for either.'),
    text('value', 'The tag or type as the tool spells it.'),
    text('meaning', "What it means, from the tool's help."),
    text('documented_in', 'The help pages it is from.'),
  ],
};

export const categoryMeaning: TableDef = {
  name: 'category_meaning',
  kind: 'view',
  description:
    'Per ledger category: its tax class, Koinly tags and CoinTracking types, from the type catalog, and whether its rows go into the tax files (sql/ledger/20_tax_export.sql).',
  columns: [
    text('category', 'The ledger category.'),
    text('tax_class', 'Its tax class (a category maps to one only: sql/checks/00_catalog.sql).'),
    text('koinly_in', "Koinly's tag for money in; '' for none."),
    text('koinly_out', "Koinly's tag for money out; '' for none."),
    text('cointracking_in', "CoinTracking's type for money in; '' for none."),
    text('cointracking_out', "CoinTracking's type for money out; '' for none."),
    {
      name: 'in_tax_files',
      type: 'BOOLEAN',
      description: 'Whether its rows go into the tax files (tax_classes.in_tax_files).',
    },
    text('tax_class_meaning', 'What its tax class means (tax_classes.meaning).'),
  ],
};

export const unreviewedTypes: TableDef = {
  name: 'unreviewed_types',
  kind: 'view',
  description:
    'The types the type catalog lacks, per account, stream, field, type and asset: how many records, and what their ledger rows add up to (sql/ledger/30_unreviewed_types.sql).',
  columns: [
    accountColumn,
    text('source', 'The stream of the records.'),
    text('field', 'The field the type was read from (marginTaxType, status, ...).'),
    text(
      'type',
      'The type exactly as received. Adding it to sql/seeds/type_catalog.csv is the fix (docs/ledger.md, "Adding a type").',
    ),
    text('asset', 'The coin moved.'),
    { name: 'records', type: 'BIGINT', description: 'How many records carry it.' },
    text('total', 'The sum of their ledger amounts, signed, as exact decimal text (lp_total).'),
  ],
};

/** The catalog's tables and the views read from it, in the order docs/tables.md lists them. */
export const CATALOG_TABLES: readonly TableDef[] = [
  typeCatalog,
  taxClasses,
  taxToolVocabulary,
  categoryMeaning,
  unreviewedTypes,
];
