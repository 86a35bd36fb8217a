import { readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';
import { sourceFiles } from '../helpers/source-files.js';

/**
 * Every table, view and macro users read is defined in a file under sql/ (ARCHITECTURE.md, "Invariants"):
 * TypeScript runs those files, it does not write them. These files may, each for the reason given.
 */
const ALLOWED: Readonly<Record<string, string>> = {
  'src/warehouse/registry-sql.ts':
    'the SQL made from the registry of tables: the typed tables, and the files of sql/generated/',
  'src/warehouse/typing-sql.ts':
    "the typing macros made from each stream's columns, each with its field and cast: sql/generated/typing.sql",
  'src/warehouse/macros.ts':
    'on a warehouse opened read-only the macros are made TEMP, which DuckDB takes only from the statement',
  'src/warehouse/values.ts':
    "the two views that show value_fiat under the fiat's own name: DuckDB names a column only from a statement's text",
  'src/reads/query.ts': "query --lake's views, in a database of its own in memory, one per table folder the lake holds",
};

const CREATE = /\bCREATE\s+(?:OR\s+REPLACE\s+)?(?:TEMP(?:ORARY)?\s+)?(?:VIEW|TABLE|MACRO)\b/i;

describe('SQL in the code', () => {
  it('has no CREATE VIEW, TABLE or MACRO outside sql/, the simulator and the files allowed their reason', async () => {
    const root = packageRoot();
    const offending: string[] = [];
    const seen = new Set<string>();
    for (const file of await sourceFiles(join(root, 'src'))) {
      const path = relative(root, file);
      if (path.startsWith('src/sim/')) continue;
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, i) => {
        // Comments may speak of them.
        if (!CREATE.test(line) || /^\s*(\*|\/\/)/.test(line)) return;
        if (path in ALLOWED) seen.add(path);
        else offending.push(`${path}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(offending).toEqual([]);
    // An allowance no file needs any more goes too.
    expect([...seen].sort()).toEqual(Object.keys(ALLOWED).sort());
  });
});
