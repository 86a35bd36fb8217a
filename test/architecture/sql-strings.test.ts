import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';
import { sourceFiles } from '../helpers/source-files.js';
import { sqlStrings } from '../helpers/sql-strings.js';

/**
 * The SQL strings left in src/ outside the simulator (test/helpers/sql-strings.ts says what counts), per file, each
 * with why it is plumbing rather than a business rule or a read users see, which live in sql/ (ARCHITECTURE.md,
 * "Invariants"; docs/development.md, "SQL in the code"). A new string fails here until it moves to a file of sql/
 * or its file's count and reason say why it stays; a count that falls is lowered here.
 */
const ALLOWED: Readonly<Record<string, readonly [number, string]>> = {
  'src/cli/commands/demo.ts': [1, 'a query shown to the user as a hint, not run'],
  'src/cli/commands/query.ts': [1, "the query command's help"],
  'src/cli/completeness-lines.ts': [6, 'queries shown to the user as hints, not run'],
  'src/cli/plausibility-lines.ts': [1, 'a query shown to the user as a hint, not run'],
  'src/duckdb/tables.ts': [2, 'whether tables exist, and which temporary ones a connection holds (duckdb_tables)'],
  'src/export/exporter.ts': [
    8,
    "COPY of each file with its cells (CSV text, a fiat's column name, local time) made from the table's columns; the columns read from duckdb_columns() and DESCRIBE",
  ],
  'src/export/lake.ts': [2, "the lake's COPY per table and partition, its cells made from the table's columns"],
  'src/gains/event-pages.ts': [1, "the engine's pages of its own temporary table of movements"],
  'src/gains/fingerprint.ts': [2, 'the fingerprint of what a computation read: bookkeeping of the engine'],
  'src/gains/gains.ts': [5, "the engine's counts of its own tables (the result), the valuation's unit"],
  'src/gains/kept.ts': [17, "the engine's state kept between runs: its bookkeeping tables, read and written"],
  'src/gains/opening-lots.ts': [4, "the user's opening lots file loaded and read back"],
  'src/load/raw-writer.ts': [9, "the loader's appends, merges and cursors"],
  'src/pipeline/nightly-range.ts': [2, "the runs' ranges and coverage a nightly plans from: bookkeeping"],
  'src/pipeline/prices-stage.ts': [4, "the prices stage's bookkeeping: pairs listed, spans read"],
  'src/pipeline/run-rows.ts': [1, 'the accounts a warehouse holds'],
  'src/pipeline/settings.ts': [1, "whether the platform lists the fiat's pair: bookkeeping of the prices"],
  'src/prices/ecb-rates.ts': [2, "the ECB's rates appended with their coverage"],
  'src/prices/extract-prices.ts': [6, 'candles and their coverage written from the stage tables'],
  'src/prices/rates-file.ts': [2, "the user's rates file loaded"],
  'src/prices/span-writer.ts': [6, 'spans of candles written in their transactions'],
  'src/prices/unpriced.ts': [1, 'counts of the movements without a value, over a table named by the caller'],
  'src/reads/account-modes.ts': [1, "the accounts' modes: bookkeeping"],
  'src/reads/coverage.ts': [8, 'coverage: bookkeeping of the extraction'],
  'src/reads/query.ts': [3, "query --lake's views over the lake's files, in a database of its own"],
  'src/reads/reports.ts': [7, "status's reads of runs, coverage, raw_records and versions: bookkeeping"],
  'src/reads/runs.ts': [1, 'the runs recorded'],
  'src/report/report.ts': [1, "the report's temporary table dropped"],
  'src/transform/incremental.ts': [4, 'the changed records counted, lp_delta emptied, the pending streams'],
  'src/transform/readmit.ts': [4, 'quarantined records readmitted: bookkeeping of the loader'],
  'src/transform/runner.ts': [3, "pending_changes emptied, earlier releases' tables dropped"],
  'src/transform/stage.ts': [1, "each model's row count, from the registry's list of models"],
  'src/warehouse/dictionary.ts': [2, "COMMENTs from the registry's descriptions"],
  'src/warehouse/macros.ts': [
    2,
    'on a warehouse opened read-only the macros are made TEMP, which DuckDB takes only from the statement',
  ],
  'src/warehouse/migrations.ts': [3, 'schema_migrations: which migrations ran'],
  'src/warehouse/registry-sql.ts': [10, 'the SQL made from the registry of tables (typed tables, sql/generated/)'],
  'src/warehouse/settings.ts': [7, "the warehouse's settings and the books: bookkeeping"],
  'src/warehouse/typed-at-load.ts': [9, 'the typed tables brought up to date: plumbing of the loader'],
  'src/warehouse/typing-sql.ts': [1, "the streams' typing made from their columns (sql/generated/typing.sql)"],
  'src/warehouse/upgrade-views.ts': [1, "the warehouse's views (duckdb_views)"],
  'src/warehouse/values.ts': [
    8,
    "the valuation recorded, and the views that show value_fiat under the fiat's own name: DuckDB names a column only from a statement's text",
  ],
  'src/warehouse/versions.ts': [7, 'model_versions: bookkeeping'],
};

describe('SQL strings in the code', () => {
  it('are those of the allowlist, file by file: plumbing, each with its reason', async () => {
    const root = packageRoot();
    const counted: Record<string, number> = {};
    for (const file of (await sourceFiles(join(root, 'src'))).sort()) {
      const path = relative(root, file);
      if (path.startsWith('src/sim/')) continue;
      const n = sqlStrings(await readFile(file, 'utf8')).length;
      if (n > 0) counted[path] = n;
    }
    expect(counted).toEqual(Object.fromEntries(Object.entries(ALLOWED).map(([path, [n]]) => [path, n])));
  });

  it('counts quoted strings and templates, not comments or regular expressions', () => {
    const text =
      "// SELECT 1\nconst a = 'SELECT 1';\nconst b = /SELECT '/;\nconst c = `x ${`DELETE FROM t`} y`;\n/* CREATE TABLE t */";
    expect(sqlStrings(text)).toEqual([2, 4]);
  });
});
