import { DuckDBInstance } from '@duckdb/node-api';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';
import {
  forgetParams,
  headerLines,
  param,
  MADE_IN_CODE,
  namedResults,
  orderFiles,
  parseHeader,
  readModel,
  runModel,
  sqlGraph,
  withGraphSection,
  withParams,
  type SqlFile,
} from '../../src/warehouse/sql-graph.js';
import { used } from '../helpers/sql-declared.js';

const file = (name: string, creates: string[], reads: string[], params: string[] = []): SqlFile => ({
  name,
  text: '',
  creates,
  reads,
  params,
  results: [],
});

describe('the model graph (src/warehouse/sql-graph.ts)', () => {
  it('reads a header of three lines after the prose, and refuses a file without one', () => {
    const text = `-- What it is.\n${headerLines({ creates: ['v'], reads: ['ledger'], params: ['lp_to'] })}\nCREATE VIEW v AS SELECT 1;\n`;
    expect(parseHeader('x/v.sql', text)).toEqual({ creates: ['v'], reads: ['ledger'], params: ['lp_to'] });
    expect(() => parseHeader('x/v.sql', '-- What it is.\nCREATE VIEW v AS SELECT 1;\n')).toThrow(
      'sql/x/v.sql has no header line "-- creates: ..."',
    );
    expect(() => parseHeader('x/v.sql', '-- creates: v\n-- params: -\n-- reads: -\nSELECT 1;')).toThrow(
      'no header line "-- reads: ..."',
    );
    expect(() => parseHeader('x/v.sql', '-- creates: main.v\n-- reads: -\n-- params: -\nSELECT 1;')).toThrow(
      'declares "main.v" in its creates',
    );
  });

  it('gives every file of sql/ a header that says what its statements create, read and take', async () => {
    const { files } = await sqlGraph();
    const universe = new Set([...files.flatMap((f) => f.creates), ...MADE_IN_CODE.keys()]);
    const wrong: string[] = [];
    for (const f of files) {
      const u = used(f.text);
      const sorted = (s: Iterable<string>) => [...s].sort().join(', ');
      if (sorted(f.creates) !== sorted(u.creates))
        wrong.push(`${f.name}: creates ${sorted(f.creates)}, its statements ${sorted(u.creates)}`);
      if (sorted(f.params) !== sorted(u.params))
        wrong.push(`${f.name}: params ${sorted(f.params)}, its statements ${sorted(u.params)}`);
      const undeclared = [...u.names].filter((n) => universe.has(n) && !u.creates.has(n) && !f.reads.includes(n));
      if (undeclared.length > 0) wrong.push(`${f.name}: reads ${undeclared.join(', ')} without saying so`);
      const absent = f.reads.filter((n) => !u.names.has(n) && !u.strings.has(n));
      if (absent.length > 0) wrong.push(`${f.name}: says it reads ${absent.join(', ')}, which it does not name`);
    }
    expect(wrong).toEqual([]);
  });

  it('splits a file into the statements DuckDB finds, so that a result is named at its statement', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    try {
      for (const f of (await sqlGraph()).files)
        expect([f.name, namedResults(f.text).length]).toEqual([f.name, (await c.extractStatements(f.text)).count]);
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  });

  it('orders files after what they read, and refuses a name nothing creates and files that wait for each other', () => {
    const order = orderFiles([
      file('ledger/b.sql', ['b'], ['a']),
      file('ledger/a.sql', ['a'], []),
      file('macros/m.sql', ['m'], []),
    ]);
    expect(order.map((f) => f.name)).toEqual(['macros/m.sql', 'ledger/a.sql', 'ledger/b.sql']);
    expect(() => orderFiles([file('ledger/a.sql', ['a'], ['nowhere'])])).toThrow(
      'sql/ledger/a.sql reads nowhere, which no file of sql/ and no code creates',
    );
    expect(() => orderFiles([file('ledger/a.sql', ['a'], ['b']), file('ledger/b.sql', ['b'], ['a'])])).toThrow(
      'wait for each other',
    );
    // A copy of a name (it creates what it reads) is not waited for by the name's other readers.
    const copies = orderFiles([
      file('ledger/r.sql', ['r'], ['t']),
      file('incremental/copy.sql', ['t'], ['t', 'r']),
      file('warehouse/001_t.sql', ['t'], []),
    ]);
    expect(copies.map((f) => f.name)).toEqual(['warehouse/001_t.sql', 'ledger/r.sql', 'incremental/copy.sql']);
  });

  it('binds parameters by name for a piece of work, gives results by name, and resets the parameters after', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    const c = await instance.connect();
    try {
      await expect(runModel(c, 'incremental/20_rows_out.sql')).rejects.toThrow(
        'sql/incremental/20_rows_out.sql takes lp_in_order: run it within withParams',
      );
      await c.run('CREATE TABLE type_catalog AS SELECT 1');
      const problems = await withParams(c, { lp_user_catalog: param.text(undefined) }, async () => {
        expect((await c.runAndReadAll("SELECT getvariable('lp_user_catalog') IS NULL")).getRows()).toEqual([[true]]);
        return readModel(c, 'checks/10_ledger_keys_unique.sql').catch((e: Error) => e.message);
      });
      expect(String(problems)).toContain('ledger');
      await withParams(c, { lp_x: 'y' }, async () =>
        expect((await c.runAndReadAll("SELECT getvariable('lp_x')")).getRows()).toEqual([['y']]),
      );
      expect((await c.runAndReadAll("SELECT getvariable('lp_x')")).getRows()).toEqual([[null]]);
      await forgetParams(c);
    } finally {
      c.closeSync();
      instance.closeSync();
    }
  });

  it('names the results of the incremental transform where their statements are', async () => {
    const graph = await sqlGraph();
    expect(graph.file('incremental/20_rows_out.sql').results.filter((r) => r !== undefined)).toEqual([
      'deleted',
      'later',
    ]);
    expect(graph.file('incremental/30_rows_in.sql').results.filter((r) => r !== undefined)).toEqual([
      'moved',
      'inserted',
    ]);
  });

  it('writes its order into ARCHITECTURE.md (npm run generate)', async () => {
    const page = await readFile(join(packageRoot(), 'ARCHITECTURE.md'), 'utf8');
    expect(withGraphSection(page, (await sqlGraph()).files)).toBe(page);
  });
});
