import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { adoptEarlierExports } from '../../src/export/earlier-exports.js';
import type { Logger } from '../../src/util/logger.js';

let root: string;
let lines: string[];
const log: Logger = {
  debug: () => {},
  info: (m) => lines.push(m),
  warn: (m) => lines.push(`warn: ${m}`),
  error: () => {},
};
const NOW = Date.parse('2026-11-29T00:00:00Z');
/** The manifest an earlier release wrote: its range, no to_date. */
const earlier = JSON.stringify({
  range: { from: '2025-01-01T00:00:00.000Z', to: '2026-01-01T00:00:00.000Z', time_zone: 'UTC' },
});

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'lp-earlier-'));
  lines = [];
});
afterEach(() => rm(root, { recursive: true, force: true }));

describe('the exports an earlier release wrote at the top of ./exports (docs/upgrading.md)', () => {
  it("move into their period's folder, and only the files an export writes", async () => {
    await writeFile(join(root, 'manifest.json'), earlier);
    await writeFile(join(root, 'ledger.csv'), 'entry_id\n1\n');
    await mkdir(join(root, 'accounts', 'main'), { recursive: true });
    await writeFile(join(root, 'accounts', 'main', 'ledger.csv'), 'entry_id\n1\n');
    await writeFile(join(root, 'notes.txt'), 'mine');
    await adoptEarlierExports(root, 'UTC', log, NOW);
    expect((await readdir(root)).sort()).toEqual(['2025', 'notes.txt']);
    expect((await readdir(join(root, '2025'))).sort()).toEqual(['accounts', 'ledger.csv', 'manifest.json']);
    expect(await readFile(join(root, '2025', 'accounts', 'main', 'ledger.csv'), 'utf8')).toBe('entry_id\n1\n');
    expect(lines).toEqual([
      `moved the 3 files of 2025 an earlier release wrote at the top of ${root} into ${join(root, '2025')}, where this release writes that period (docs/upgrading.md)`,
    ]);
  });

  it('leave a set this release wrote there (--out ./exports, its manifest says to_date) where it is', async () => {
    const current = JSON.stringify({
      range: {
        from: '2025-01-01T00:00:00.000Z',
        to: '2026-01-01T00:00:00.000Z',
        to_date: '2025-12-31',
        time_zone: 'UTC',
      },
    });
    await writeFile(join(root, 'manifest.json'), current);
    await writeFile(join(root, 'ledger.csv'), 'entry_id\n');
    await adoptEarlierExports(root, 'UTC', log, NOW);
    expect((await readdir(root)).sort()).toEqual(['ledger.csv', 'manifest.json']);
    expect(lines).toEqual([]);
  });

  it('finish a move a killed run left: the rest moved while the manifest is at the top, the hidden folder renamed once complete', async () => {
    // Killed after ledger.csv moved: the manifest, last to move, is still at the top.
    await mkdir(join(root, '.2025.moving'));
    await writeFile(join(root, '.2025.moving', 'ledger.csv'), 'entry_id\n1\n');
    await writeFile(join(root, 'manifest.json'), earlier);
    await writeFile(join(root, 'disposals.csv'), 'asset\n');
    await adoptEarlierExports(root, 'UTC', log, NOW);
    expect(await readdir(root)).toEqual(['2025']);
    expect((await readdir(join(root, '2025'))).sort()).toEqual(['disposals.csv', 'ledger.csv', 'manifest.json']);
    // Killed between the last move and the rename: the next run renames it, and nothing else is said.
    await rm(join(root, '2025'), { recursive: true });
    await mkdir(join(root, '.2025.moving'));
    await writeFile(join(root, '.2025.moving', 'manifest.json'), earlier);
    lines = [];
    await adoptEarlierExports(root, 'UTC', log, NOW);
    expect(await readdir(root)).toEqual(['2025']);
    expect(await readdir(join(root, '2025'))).toEqual(['manifest.json']);
    expect(lines).toEqual([]);
  });
});
