import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { JOURNAL, recoverExportSet, tempName } from '../../src/export/export-set.js';
import { EXPORT_FILE_NAMES } from '../../src/export/exporter.js';

let out: string;
/** A process that has ended: what a killed export leaves its pid as. */
const dead = spawnSync(process.execPath, ['-e', '']).pid as number;

beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'lp-set-'));
});
afterEach(() => rm(out, { recursive: true, force: true }));

const put = (name: string, text: string) => writeFile(join(out, name), text);
const read = async () => Object.fromEntries(await Promise.all((await readdir(out)).sort().map(async (n) => [n, n === JOURNAL ? JSON.parse(await readFile(join(out, n), 'utf8')).state : await readFile(join(out, n), 'utf8')])));
const files = ['ledger.csv', 'ledger.parquet', 'koinly.csv'].map((final) => ({ final, temp: tempName(final, dead) }));

describe('an export set left by a killed run', () => {
  it('is finished when it was being renamed: every file is the new one, the set complete; other files untouched', async () => {
    await put('ledger.csv', 'new');
    await put(files[1]!.temp, 'new');
    await put('ledger.parquet', 'old');
    await put(files[2]!.temp, 'new');
    await put('koinly.csv', 'old');
    await put('notes.txt', 'mine');
    await put(JOURNAL, JSON.stringify({ state: 'renaming', files, pid: dead }));
    expect(await recoverExportSet(out, EXPORT_FILE_NAMES)).toBe('finished');
    expect(await read()).toEqual({ [JOURNAL]: 'complete', 'koinly.csv': 'new', 'ledger.csv': 'new', 'ledger.parquet': 'new', 'notes.txt': 'mine' });
  });

  it('is rolled back when it was being written: its temporary files go, the previous files stay', async () => {
    await put('ledger.csv', 'old');
    await put(files[0]!.temp, 'half');
    await put(files[1]!.temp, 'half');
    await put(JOURNAL, JSON.stringify({ state: 'writing', files, pid: dead }));
    expect(await recoverExportSet(out, EXPORT_FILE_NAMES)).toBe('rolled back');
    expect(await read()).toEqual({ 'ledger.csv': 'old' });
  });

  it('loses the temporary files no journal names when their process is gone, keeps a live one\'s and anything not ledgerpipe\'s', async () => {
    await put(tempName('ledger.csv', dead), 'stray');
    await put(tempName('withdrawals.parquet', process.ppid), 'being written');
    await put(tempName('notes.txt', dead), 'mine');
    expect(await recoverExportSet(out, EXPORT_FILE_NAMES)).toBe('nothing to do');
    expect(await read()).toEqual({ [tempName('notes.txt', dead)]: 'mine', [tempName('withdrawals.parquet', process.ppid)]: 'being written' });
  });

  it('is left alone while the process writing it runs', async () => {
    const live = ['ledger.csv'].map((final) => ({ final, temp: tempName(final, process.ppid) }));
    await put(live[0]!.temp, 'half');
    await put(JOURNAL, JSON.stringify({ state: 'writing', files: live, pid: process.ppid }));
    expect(await recoverExportSet(out, EXPORT_FILE_NAMES)).toBe('nothing to do');
    expect(await read()).toEqual({ [JOURNAL]: 'writing', [live[0]!.temp]: 'half' });
  });
});
