import { STREAMS } from '../streams/index.js';
import { typedColumns, type Model, type StreamModel } from '../streams/model.js';
import { BOOKKEEPING_MODELS } from './bookkeeping.js';
import { CATALOG_MODELS } from './catalog.js';
import { COMPLETENESS_MODELS } from './completeness.js';
import { GAINS_MODELS } from './gains.js';
import { ledger } from './ledger.js';
import { SETTINGS_MODELS } from './settings.js';
import { TAX_MODELS } from './tax.js';
import { VALUE_MODELS } from './values.js';

/**
 * The models of the warehouse users read, and the lists the stages take from them: the registry of models
 * (docs/adding-a-stream.md). A stream's model is declared with its stream (src/streams/<stream>.ts).
 */

/** Each stream's model, in the streams' order. */
export const STREAM_MODELS: readonly StreamModel[] = STREAMS.map((s) => s.model);

/** The stream models typed at load, each with the column of its typed table that holds the partition. */
export const TYPED_AT_LOAD = STREAM_MODELS.filter(
  (m): m is StreamModel & { typedAtLoad: { partitionColumn: string } } => m.typedAtLoad !== undefined,
);

/** The stream models the ledger books. */
export const LEDGER_SOURCES = STREAM_MODELS.filter(
  (m): m is StreamModel & { ledger: 'paired' | 'alone' } => m.ledger !== undefined,
);

/**
 * The models the transform makes, in the order its summary counts their rows: each stream's, the models made
 * from it right after it (the fills' fee entries), and the ledger.
 */
export const TRANSFORMED_MODELS: readonly Model[] = [
  ...STREAM_MODELS.flatMap((m) => [m, ...(m.derived ?? [])]),
  ledger,
];

/** The models `export` writes as files, with the key that orders their rows after ts. */
export const EXPORTED_TABLES = TRANSFORMED_MODELS.flatMap((m) =>
  m.exported === undefined ? [] : [{ name: m.name, ...m.exported }],
);

/** The typed tables (typed_<stream>), which the typed streams' views show but for the raw key and partition. */
export const TYPED_TABLES: readonly Model[] = TYPED_AT_LOAD.map((m) => ({
  name: `typed_${m.name}`,
  kind: 'table',
  description: `The typed rows of ${m.name}, written with each record as it loads (sql/models/${m.name}.sql); read the view ${m.name}.`,
  columns: typedColumns(m),
}));

/**
 * Every table and view of the warehouse users read, with what each column means: the warehouse's data dictionary
 * (COMMENT ON, src/warehouse/dictionary.ts) and docs/tables.md are made from this list, in its order.
 */
export const DICTIONARY: readonly Model[] = [
  ...TRANSFORMED_MODELS,
  ...COMPLETENESS_MODELS,
  ...VALUE_MODELS,
  ...TAX_MODELS,
  ...GAINS_MODELS,
  ...CATALOG_MODELS,
  ...SETTINGS_MODELS,
  ...BOOKKEEPING_MODELS,
  ...TYPED_TABLES,
];
