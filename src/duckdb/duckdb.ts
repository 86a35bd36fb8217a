import { createRequire } from 'node:module';
import type * as NodeApi from '@duckdb/node-api';

/**
 * The values ledgerpipe uses from DuckDB's Node API, loaded with `require`. The package is CommonJS, and its
 * index re-exports some 120 files: an ESM `import` of it has Node's CommonJS lexer read every one of them for
 * the names they export, which cost each process about 0.2 s of CPU before its first query (docs/performance.md,
 * "Start-up"). Types still come from the package: `import type` is erased.
 *
 * @example
 * import { DuckDBInstance } from './duckdb.js';
 * const instance = await DuckDBInstance.create(':memory:');
 */
const api = createRequire(import.meta.url)('@duckdb/node-api') as typeof NodeApi;

export const {
  BIGINT,
  DuckDBDecimalValue,
  DuckDBInstance,
  DuckDBTimestampTZValue,
  DuckDBTypeId,
  LIST,
  StatementType,
  TIMESTAMPTZ,
  VARCHAR,
  listValue,
} = api;
export type DuckDBInstance = NodeApi.DuckDBInstance;
export type DuckDBDecimalValue = NodeApi.DuckDBDecimalValue;
export type DuckDBTimestampTZValue = NodeApi.DuckDBTimestampTZValue;
export type DuckDBTypeId = NodeApi.DuckDBTypeId;
export type StatementType = NodeApi.StatementType;
