import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** The journal of the export set in `--out`: which files a set holds, and how far it got. */
export const JOURNAL = '.ledgerpipe-export.json';

/** One file of a set: written as `temp`, then renamed to `final` (both names inside `--out`). */
export interface SetFile {
  temp: string;
  final: string;
}

interface Journal {
  /** writing: temporary files being written; renaming: all written, being put in place; complete: done. */
  state: 'writing' | 'renaming' | 'complete';
  files: SetFile[];
  /** The process writing the set: while it lives, no other run touches the set. */
  pid: number;
}

/** The temporary name of a file of the set: hidden, and naming the process that writes it. */
export function tempName(final: string, pid: number = process.pid): string {
  return `.${final}.${pid}.tmp`;
}

/** The temporary files a killed export of any release may leave: `.<file>.<pid>.tmp`, nothing else. */
const TEMP = /^\.(.+)\.(\d+)\.tmp$/;

async function writeJournal(out: string, journal: Journal): Promise<void> {
  // Written aside and renamed, so the journal is always whole.
  const aside = join(out, `${JOURNAL}.tmp`);
  await writeFile(aside, `${JSON.stringify(journal)}\n`);
  await rename(aside, join(out, JOURNAL));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * What an earlier export left in `out`, put right before anything else happens: a set that was being renamed
 * (every file complete) is finished; a set that was being written is rolled back (its temporary files removed,
 * the previous files stay); temporary files of a killed export that no journal names are removed when the
 * process that wrote them is gone. A set whose writer still runs is left to it. Files that are not
 * ledgerpipe's are never touched. Returns what it did.
 *
 * @example
 * await recoverExportSet('./exports'); // 'finished', 'rolled back' or 'nothing to do'
 */
export async function recoverExportSet(out: string, knownFiles: readonly string[]): Promise<'finished' | 'rolled back' | 'nothing to do'> {
  let names: string[];
  try {
    names = await readdir(out);
  } catch {
    return 'nothing to do';
  }
  let outcome: 'finished' | 'rolled back' | 'nothing to do' = 'nothing to do';
  if (names.includes(JOURNAL)) {
    const journal = JSON.parse(await readFile(join(out, JOURNAL), 'utf8')) as Journal;
    if (journal.state !== 'complete' && journal.pid !== process.pid && alive(journal.pid)) return 'nothing to do';
    if (journal.state === 'renaming') {
      for (const f of journal.files) if (names.includes(f.temp)) await rename(join(out, f.temp), join(out, f.final));
      await writeJournal(out, { state: 'complete', files: journal.files, pid: process.pid });
      outcome = 'finished';
    } else if (journal.state === 'writing') {
      for (const f of journal.files) await rm(join(out, f.temp), { force: true });
      await rm(join(out, JOURNAL), { force: true });
      outcome = 'rolled back';
    }
  }
  for (const name of await readdir(out)) {
    const match = TEMP.exec(name);
    if (match === null || !knownFiles.includes(match[1] as string) || alive(Number(match[2]))) continue;
    await rm(join(out, name), { force: true });
  }
  return outcome;
}

/**
 * Records that the set of `files` is being written: if this run dies now, the next one rolls it back. Returns
 * the journal of the set in place before, for abandonExportSet to put back.
 */
export async function beginExportSet(out: string, files: readonly SetFile[]): Promise<string | undefined> {
  const previous = await readFile(join(out, JOURNAL), 'utf8').catch(() => undefined);
  await writeJournal(out, { state: 'writing', files: [...files], pid: process.pid });
  return previous;
}

/**
 * Puts a written set in place: records that every file is complete, renames them, and records the set
 * complete last. If this run dies between two renames, the next one finishes the renames.
 */
export async function commitExportSet(out: string, files: readonly SetFile[]): Promise<void> {
  await writeJournal(out, { state: 'renaming', files: [...files], pid: process.pid });
  for (const f of files) await rename(join(out, f.temp), join(out, f.final));
  await writeJournal(out, { state: 'complete', files: [...files], pid: process.pid });
}

/** Gives up a set being written: its temporary files go, and the journal of the set before is put back. */
export async function abandonExportSet(out: string, files: readonly SetFile[], previous: string | undefined): Promise<void> {
  await Promise.all(files.map((f) => rm(join(out, f.temp), { force: true }).catch(() => undefined)));
  if (previous === undefined) await rm(join(out, JOURNAL), { force: true }).catch(() => undefined);
  else await writeFile(join(out, JOURNAL), previous).catch(() => undefined);
}
