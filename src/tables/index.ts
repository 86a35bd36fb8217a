import { STREAMS } from '../streams/index.js';
import { typedColumns, type TableDef, type StreamTableDef } from '../streams/table.js';
import { BOOKKEEPING_TABLES } from './bookkeeping.js';
import { CATALOG_TABLES } from './catalog.js';
import { COMPLETENESS_TABLES } from './completeness.js';
import { GAINS_TABLES } from './gains.js';
import { ledger } from './ledger.js';
import { SETTINGS_TABLES } from './settings.js';
import { TAX_TABLES } from './tax.js';
import { VALUE_TABLES } from './values.js';

/**
 * The tables and views of the warehouse users read, each by its definition, and the lists the stages take from
 * them: the registry of tables (docs/adding-a-stream.md). A stream's table is declared with its stream
 * (src/streams/<stream>.ts).
 */

/** Each stream's table, in the streams' order. */
export const STREAM_TABLES: readonly StreamTableDef[] = STREAMS.map((s) => s.table);

/** The streams' tables typed at load, each with the column of its typed table that holds the partition. */
export const TYPED_AT_LOAD = STREAM_TABLES.filter(
  (m): m is StreamTableDef & { typedAtLoad: { partitionColumn: string } } => m.typedAtLoad !== undefined,
);

/** The streams' tables the ledger books. */
export const LEDGER_SOURCES = STREAM_TABLES.filter(
  (m): m is StreamTableDef & { ledger: 'paired' | 'alone' } => m.ledger !== undefined,
);

/**
 * The models the transform makes, in the order its summary counts their rows: each stream's, the models made
 * from it right after it (the fills' fee entries), and the ledger.
 */
export const TRANSFORMED_TABLES: readonly TableDef[] = [
  ...STREAM_TABLES.flatMap((m) => [m, ...(m.derived ?? [])]),
  ledger,
];

/** The models `export` writes as files, with the key that orders their rows after ts. */
export const EXPORTED_TABLES = TRANSFORMED_TABLES.flatMap((m) =>
  m.exported === undefined ? [] : [{ name: m.name, ...m.exported }],
);

/** The typed tables (typed_<stream>), which the typed streams' views show but for the raw key and partition. */
export const TYPED_TABLES: readonly TableDef[] = TYPED_AT_LOAD.map((m) => ({
  name: `typed_${m.name}`,
  kind: 'table',
  description: `The typed rows of ${m.name}, written with each record as it loads (sql/models/${m.name}.sql); read the view ${m.name}.`,
  columns: typedColumns(m),
}));

/**
 * Every table and view of the warehouse users read, with what each column means: the warehouse's data dictionary
 * (COMMENT ON, src/warehouse/dictionary.ts) and docs/tables.md are made from this list, in its order.
 */
export const DICTIONARY: readonly TableDef[] = [
  ...TRANSFORMED_TABLES,
  ...COMPLETENESS_TABLES,
  ...VALUE_TABLES,
  ...TAX_TABLES,
  ...GAINS_TABLES,
  ...CATALOG_TABLES,
  ...SETTINGS_TABLES,
  ...BOOKKEEPING_TABLES,
  ...TYPED_TABLES,
];
