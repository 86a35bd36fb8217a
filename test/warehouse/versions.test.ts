import { describe, expect, it } from 'vitest';
import { sqlGraph } from '../../src/warehouse/sql-graph.js';
import { statementsOf } from '../../src/warehouse/versions.js';

describe("the release's versions (src/warehouse/versions.ts)", () => {
  it('hash what the files of sql/ do and their headers, not their prose comment lines', () => {
    const text = [
      '-- The ledger (docs/ledger.md).',
      '-- creates: ledger',
      '-- reads: t',
      'CREATE TABLE ledger AS',
      "  SELECT 1 AS one, '-- not a comment' AS two -- a trailing comment stays",
      '    -- an indented comment line',
      'FROM t;',
      '',
    ].join('\n');
    expect(statementsOf(text)).toBe(
      [
        '-- creates: ledger',
        '-- reads: t',
        'CREATE TABLE ledger AS',
        "  SELECT 1 AS one, '-- not a comment' AS two -- a trailing comment stays",
        'FROM t;',
        '',
      ].join('\n'),
    );
    // A mended comment is no new version; a changed statement or header is one.
    expect(statementsOf(text.replace('(docs/ledger.md)', '(docs/values.md)'))).toBe(statementsOf(text));
    expect(statementsOf(text.replace('SELECT 1', 'SELECT 2'))).not.toBe(statementsOf(text));
    expect(statementsOf(text.replace('-- reads: t', '-- reads: t, u'))).not.toBe(statementsOf(text));
  });

  it('finds no string of sql/ with a line that starts as a comment, which the versions would leave out', async () => {
    // Quoted strings ('...' with '' inside), quoted names ("...") and dollar-quoted strings ($$...$$), after the
    // comments that are not in a string are set aside.
    const literal = /'(?:[^']|'')*'|"(?:[^"]|"")*"|\$\$[\s\S]*?\$\$|--[^\n]*/g;
    const hidden: string[] = [];
    for (const file of (await sqlGraph()).files) {
      for (const [token] of file.text.matchAll(literal)) {
        if (token.startsWith('--')) continue;
        if (
          token
            .split('\n')
            .slice(1)
            .some((line) => /^[ \t]*--/.test(line))
        )
          hidden.push(`${file.name}: ${token}`);
      }
    }
    expect(hidden).toEqual([]);
  });
});
