import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_TABLES, TRANSFORMED_TABLES, TYPED_AT_LOAD } from '../../src/tables/index.js';
import { typedColumns } from '../../src/streams/table.js';
import { runTransforms } from '../../src/transform/runner.js';
import { packageRoot } from '../../src/util/package-root.js';
import { declaredStreams, streamIndex } from '../../scripts/stream-index.js';
import { generatedRegions, withRegion } from '../../src/tables/stream-docs.js';
import { generatedFiles } from '../../src/warehouse/registry-sql.js';
import { GOLDEN } from '../transform/fixtures.js';
import { loadRaw, rows, tempWarehouse } from '../helpers/raw.js';

let context: Awaited<ReturnType<typeof tempWarehouse>>;
beforeAll(async () => {
  context = await tempWarehouse();
  await loadRaw(context.warehouse, GOLDEN);
  await runTransforms(context.warehouse);
});
afterAll(() => context.dispose());

/** A relation's columns as DuckDB describes them: `name type`, in order. */
async function described(relation: string): Promise<string[]> {
  return (await rows(context.warehouse, `SELECT column_name, column_type FROM (DESCRIBE ${relation})`)).map(
    (r) => `${r['column_name']} ${r['column_type']}`,
  );
}

describe('the registry of tables', () => {
  it('gives every model the transform makes its columns and types, in the order the warehouse has them', async () => {
    for (const def of TRANSFORMED_TABLES) {
      expect(await described(def.name), def.name).toEqual(def.columns.map((c) => `${c.name} ${c.type}`));
    }
  });

  it('gives each typed table its columns, and the typing macro makes exactly those', async () => {
    for (const def of TYPED_AT_LOAD) {
      const expected = typedColumns(def).map((c) => `${c.name} ${c.type}`);
      expect(await described(`typed_${def.name}`), def.name).toEqual(expected);
      expect(await described(`SELECT * FROM lp_type_${def.name}('raw_records')`), def.name).toEqual(expected);
    }
  });

  it('types the streams made from raw_records into the columns of their tables that have a source, in order', async () => {
    for (const def of STREAM_TABLES.filter((m) => m.typedAtLoad === undefined)) {
      const sourced = def.columns.filter((c) => c.from !== undefined || c.name === 'account');
      expect(await described(`SELECT * FROM lp_type_${def.name}('raw_records')`), def.name).toEqual(
        sourced.map((c) => `${c.name} ${c.type}`),
      );
    }
  });

  it('is what the generated SQL says: npm run generate leaves sql/generated/ as it is', async () => {
    for (const [path, text] of Object.entries(generatedFiles())) {
      expect(await readFile(join(packageRoot(), path), 'utf8'), `${path} is out of date: run npm run generate`).toBe(
        text,
      );
    }
  });

  it('lists every stream its files declare, in src/streams/index.ts: npm run generate leaves it as it is', async () => {
    const dir = join(packageRoot(), 'src', 'streams');
    const index = await readFile(join(dir, 'index.ts'), 'utf8');
    expect(
      streamIndex(await declaredStreams(dir), index),
      'src/streams/index.ts is out of date: run npm run generate',
    ).toBe(index);
  });

  it("holds the docs' tables of the streams, between their markers, to the streams: npm run generate leaves them as they are", async () => {
    for (const [path, regions] of Object.entries(generatedRegions())) {
      const text = await readFile(join(packageRoot(), path), 'utf8');
      const made = Object.entries(regions).reduce((page, [name, content]) => withRegion(page, name, content), text);
      expect(text, `${path} is out of date: run npm run generate`).toBe(made);
    }
  });
});
