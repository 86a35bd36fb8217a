import { describe, expect, it } from 'vitest';
import { sqlGraph } from '../../src/warehouse/sql-graph.js';
import { statementsOf } from '../../src/warehouse/versions.js';

describe("the release's versions (src/warehouse/versions.ts)", () => {
  it('hash what the files of sql/ do, not their comment lines: a mended comment makes no new version', () => {
    const text = [
      '-- The ledger (docs/ledger.md).',
      '-- creates: ledger',
      'CREATE TABLE ledger AS',
      "  SELECT 1 AS one, '-- not a comment' AS two -- a trailing comment stays",
      '    -- an indented comment line',
      'FROM t;',
      '',
    ].join('\n');
    expect(statementsOf(text)).toBe(
      [
        'CREATE TABLE ledger AS',
        "  SELECT 1 AS one, '-- not a comment' AS two -- a trailing comment stays",
        'FROM t;',
        '',
      ].join('\n'),
    );
    expect(statementsOf(text.replace('(docs/ledger.md)', '(docs/values.md)'))).toBe(statementsOf(text));
    expect(statementsOf(text.replace('SELECT 1', 'SELECT 2'))).not.toBe(statementsOf(text));
  });

  it('keep every line of every file of sql/ that is not a comment line', async () => {
    for (const file of (await sqlGraph()).files) {
      const kept = statementsOf(file.text).split('\n');
      const code = file.text.split('\n').filter((line) => !/^[ \t]*--/.test(line));
      expect(kept, file.name).toEqual(code);
    }
  });
});
