import { describe, expect, it } from 'vitest';
import { EXPORT_FILE_NAMES, TABLE_FILES } from '../../src/export/files.js';
import { EXPORTED_TABLES } from '../../src/tables/index.js';
import { STREAMS } from '../../src/streams/index.js';
import { editDistance, nearestFlag, typedFlags, unknownFlagsLine } from '../../src/cli/unknown-flags.js';
import { runCliProcess } from '../helpers/cli.js';

/** A help text as one line: yargs wraps it at the terminal's width. */
const flat = (text: string): string => text.replace(/\s+/g, ' ');

describe('--help made from the registries', () => {
  it('export and run name every file an export writes: each exported table, the valued ledger, the summary, the gains, the other formats', async () => {
    const [exported, run] = await Promise.all([runCliProcess(['export', '--help']), runCliProcess(['run', '--help'])]);
    expect([exported.status, run.status]).toEqual([0, 0]);
    for (const help of [flat(exported.stdout), flat(run.stdout)]) {
      const tables = /into --out(?: \([^)]*\))?: (.+?) as \.csv and \.parquet/.exec(help)?.[1]?.split(/, | and /);
      expect(tables).toEqual([...EXPORTED_TABLES.map((t) => t.name), 'ledger_valued', 'year_summary', 'disposals']);
      for (const file of EXPORT_FILE_NAMES.filter(
        (f) => !TABLE_FILES.some((t) => f === `${t}.csv` || f === `${t}.parquet`),
      ))
        expect(help).toContain(file);
    }
    // What export --help said before it was made from the registry: four of the files.
    expect(exported.stdout).not.toContain('Write margin_records, futures_fills, withdrawals and ledger');
    // The streams --streams takes, from the stream registry.
    expect(flat(exported.stdout)).toContain(
      `Comma list of streams (default all): ${STREAMS.map((s) => s.name).join(', ')}`,
    );
  });
});

describe('an unknown flag', () => {
  it('is measured with a swap of two letters as one edit', () => {
    expect([
      editDistance('fait', 'fiat'),
      editDistance('dbb', 'db'),
      editDistance('', 'tz'),
      editDistance('colour', 'config'),
    ]).toEqual([1, 1, 2, 4]);
  });

  it('names the nearest flag when one is close, and none otherwise', () => {
    const flags = ['from', 'to', 'tz', 'fiat', 'fiat-rates', 'tax-year', 'db'];
    expect([
      nearestFlag('fait', flags),
      nearestFlag('tax-yer', flags),
      nearestFlag('dbb', flags),
      nearestFlag('xyz', flags),
      nearestFlag('colour', flags),
    ]).toEqual(['fiat', 'tax-year', 'db', undefined, undefined]);
  });

  it("is the word typed: not yargs's camel-case copy, a value after =, or a word that is no flag", () => {
    expect(
      typedFlags(['fait', 'x-y', 'xY', 'extra'], ['run', 'year-end', '--fait=EUR', '--x-y', '1', 'extra']),
    ).toEqual(['--fait', '--x-y']);
    expect(typedFlags(['colour'], ['run', 'year-end', '--no-colour'])).toEqual(['--no-colour']);
  });

  it("gets one line: the flag, the nearest, the command's help", () => {
    const known = ['fiat', 'db', 'history'];
    expect(unknownFlagsLine(['--fait'], known, 'run')).toBe(
      'unknown flag --fait; did you mean --fiat? (see ledgerpipe run --help)',
    );
    expect(unknownFlagsLine(['--colour'], known, 'run')).toBe('unknown flag --colour (see ledgerpipe run --help)');
    expect(unknownFlagsLine(['--no-hstory'], known, 'run')).toBe(
      'unknown flag --no-hstory; did you mean --no-history? (see ledgerpipe run --help)',
    );
    expect(unknownFlagsLine(['--fait', '--xyz', '--dbb'], known, 'status')).toBe(
      'unknown flags --fait, --xyz, --dbb; did you mean --fiat for --fait, --db for --dbb? (see ledgerpipe status --help)',
    );
  });
});
