import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DICTIONARY } from '../../src/tables/index.js';
import type { DuckDBConnection } from '@duckdb/node-api';
import { DuckDBInstance } from '../../src/duckdb/duckdb.js';

/**
 * Names users type in SQL are never keywords of the engine (docs/tables.md): `WHERE at = ...` does not parse, and
 * a name that must be quoted is a trap in every query. DuckDB sorts its keywords in four categories
 * (duckdb_keywords()): `reserved` (FROM, TO, TABLE) and `type_function` (AT, LEFT, JOIN) cannot stand bare as a
 * column name (`SELECT at FROM holdings` is a syntax error); `column_name` (POSITION, TIME, INTERVAL) can, and
 * `unreserved` (SOURCE, YEAR, PARTITION) can be any name. The first two are refused. Of the 35 type_function
 * keywords DuckDB 1.5 parses five bare in a select list (columns, generated, map, struct, try_cast), but the
 * category promises nothing: they are refused too.
 */
const REFUSED = ['reserved', 'type_function'];

let instance: DuckDBInstance;
let connection: DuckDBConnection;
beforeAll(async () => {
  instance = await DuckDBInstance.create(':memory:');
  connection = await instance.connect();
});
afterAll(() => {
  connection.closeSync();
  instance.closeSync();
});

/** DuckDB's keywords, each with its category. */
async function keywords(): Promise<Map<string, string>> {
  const reader = await connection.runAndReadAll('SELECT keyword_name, keyword_category FROM duckdb_keywords()');
  return new Map(reader.getRows().map(([name, category]) => [String(name), String(category)]));
}

describe('the names users type in SQL', () => {
  it('are in categories DuckDB still has: reserved, unreserved, type_function, column_name', async () => {
    expect([...new Set((await keywords()).values())].sort()).toEqual([
      'column_name',
      'reserved',
      'type_function',
      'unreserved',
    ]);
  });

  it('are never a reserved or type-function keyword: no table, view or column of the registry needs quotes', async () => {
    const known = await keywords();
    const offenders = DICTIONARY.flatMap((def) =>
      [def.name, ...def.columns.map((c) => `${def.name}.${c.name}`)].flatMap((name) => {
        const category = known.get((name.split('.').at(-1) as string).toLowerCase());
        return category !== undefined && REFUSED.includes(category) ? [`${name} (${category})`] : [];
      }),
    );
    expect(offenders).toEqual([]);
  });

  it('are held to what DuckDB parses: a refused keyword does not stand bare as a column, an allowed one does', async () => {
    const bare = async (name: string) =>
      connection.run(`SELECT ${name} FROM (SELECT 1 AS "${name}") WHERE ${name} = 1`).then(
        () => true,
        () => false,
      );
    expect(await Promise.all(['at', 'from', 'to', 'left'].map(bare))).toEqual([false, false, false, false]);
    expect(await Promise.all(['as_of', 'period_start', 'source', 'year', 'position'].map(bare))).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
  });
});
