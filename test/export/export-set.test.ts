import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LedgerpipeError } from '../../src/errors/ledgerpipe-error.js';
import { UsageError } from '../../src/errors/usage-error.js';
import { JOURNAL, recoverExportSet, tempName } from '../../src/export/export-set.js';
import { EXPORT_FILE_NAMES } from '../../src/export/files.js';

let out: string;
/** A process that has ended: what a killed export leaves its pid as. */
const dead = spawnSync(process.execPath, ['-e', '']).pid as number;

beforeEach(async () => {
  out = await mkdtemp(join(tmpdir(), 'lp-set-'));
});
afterEach(() => rm(out, { recursive: true, force: true }));

const put = (name: string, text: string) => writeFile(join(out, name), text);
const read = async () =>
  Object.fromEntries(
    await Promise.all(
      (await readdir(out))
        .sort()
        .map(async (n) => [
          n,
          n === JOURNAL ? JSON.parse(await readFile(join(out, n), 'utf8')).state : await readFile(join(out, n), 'utf8'),
        ]),
    ),
  );
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
    expect(await read()).toEqual({
      [JOURNAL]: 'complete',
      'koinly.csv': 'new',
      'ledger.csv': 'new',
      'ledger.parquet': 'new',
      'notes.txt': 'mine',
    });
  });

  it('is rolled back when it was being written: its temporary files go, the previous files and their journal stay', async () => {
    await put('ledger.csv', 'old');
    await put(files[0]!.temp, 'half');
    await put(files[1]!.temp, 'half');
    const previous = {
      state: 'complete',
      files: [{ final: 'ledger.csv', temp: tempName('ledger.csv', dead) }],
      pid: dead,
    };
    await put(JOURNAL, JSON.stringify({ state: 'writing', files, pid: dead, previous }));
    expect(await recoverExportSet(out, EXPORT_FILE_NAMES)).toBe('rolled back');
    expect(await read()).toEqual({ [JOURNAL]: 'complete', 'ledger.csv': 'old' });
    expect(JSON.parse(await readFile(join(out, JOURNAL), 'utf8'))).toEqual(previous);
    // The first set ever written leaves no journal when rolled back.
    await put(files[0]!.temp, 'half');
    await put(JOURNAL, JSON.stringify({ state: 'writing', files, pid: dead }));
    expect(await recoverExportSet(out, EXPORT_FILE_NAMES)).toBe('rolled back');
    expect(await read()).toEqual({ 'ledger.csv': 'old' });
  });

  it("loses the temporary files no journal names when their process is gone, keeps a live one's and anything not ledgerpipe's", async () => {
    await put(tempName('ledger.csv', dead), 'stray');
    await put(tempName('withdrawals.parquet', process.ppid), 'being written');
    await put(tempName('notes.txt', dead), 'mine');
    expect(await recoverExportSet(out, EXPORT_FILE_NAMES)).toBe('nothing to do');
    expect(await read()).toEqual({
      [tempName('notes.txt', dead)]: 'mine',
      [tempName('withdrawals.parquet', process.ppid)]: 'being written',
    });
  });

  it('is refused, exit 75, while the process writing it runs, and left as it is', async () => {
    const live = ['ledger.csv'].map((final) => ({ final, temp: tempName(final, process.ppid) }));
    await put(live[0]!.temp, 'half');
    await put(JOURNAL, JSON.stringify({ state: 'writing', files: live, pid: process.ppid }));
    const refusal = await recoverExportSet(out, EXPORT_FILE_NAMES).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(LedgerpipeError);
    expect([
      (refusal as LedgerpipeError).message,
      (refusal as LedgerpipeError).code,
      (refusal as LedgerpipeError).exit,
    ]).toEqual([
      `another ledgerpipe (process ${process.ppid}) is writing exports to --out ${out}; try later (if none runs, remove ${join(out, JOURNAL)})`,
      'LP_OUT_BUSY',
      'locked',
    ]);
    expect(await read()).toEqual({ [JOURNAL]: 'writing', [live[0]!.temp]: 'half' });
  });

  it('is rolled back when its pid now belongs to a program that is not Node (a pid reused after a reboot)', async () => {
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      const reused = ['ledger.csv'].map((final) => ({ final, temp: tempName(final, other.pid as number) }));
      await put(reused[0]!.temp, 'half');
      await put(JOURNAL, JSON.stringify({ state: 'writing', files: reused, pid: other.pid }));
      expect(await recoverExportSet(out, EXPORT_FILE_NAMES)).toBe('rolled back');
      expect(await read()).toEqual({});
    } finally {
      other.kill();
    }
  });

  it('stops at a journal it cannot read, saying which file to remove, and touches nothing', async () => {
    await put('ledger.csv', 'old');
    await put(JOURNAL, '{"state":"wri');
    await expect(recoverExportSet(out, EXPORT_FILE_NAMES)).rejects.toThrow(
      new UsageError(
        `--out ${out} holds an export journal (${JOURNAL}) that ledgerpipe cannot read; remove that file (the exports beside it are kept) and run again`,
      ),
    );
    expect((await readdir(out)).sort()).toEqual([JOURNAL, 'ledger.csv']);
  });
});
