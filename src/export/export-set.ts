import { readFileSync } from 'node:fs';
import { readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LedgerpipeError } from '../errors/ledgerpipe-error.js';
import { UsageError } from '../errors/usage-error.js';

/** The journal of the export set in `--out`: which files a set holds, and how far it got. */
export const JOURNAL = '.ledgerpipe-export.json';

/** One file of a set: written as `temp`, then renamed to `final` (both names inside `--out`). */
export interface SetFile {
  temp: string;
  final: string;
}

export interface Journal {
  /** writing: temporary files being written; renaming: all written, being put in place; complete: done. */
  state: 'writing' | 'renaming' | 'complete';
  files: SetFile[];
  /** The process writing the set: while it lives, no other run touches the set. */
  pid: number;
  /** While writing: the complete set's journal before this one, put back if this set is rolled back. */
  previous?: Journal;
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

/**
 * Whether process `pid` may be a ledgerpipe export: it exists and, where /proc tells, runs Node. A pid that a
 * reboot gave to another program must not hold a set forever.
 */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  let command: string;
  try {
    command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
  } catch {
    return true;
  }
  return /node/i.test(command);
}

/** The journal in `out`, if any; one that cannot be read is said, never guessed at. */
async function readJournal(out: string): Promise<Journal | undefined> {
  let text: string;
  try {
    text = await readFile(join(out, JOURNAL), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const journal = JSON.parse(text) as Journal;
    if (
      ['writing', 'renaming', 'complete'].includes(journal.state) &&
      Array.isArray(journal.files) &&
      Number.isInteger(journal.pid)
    )
      return journal;
  } catch {
    // Said below.
  }
  throw new UsageError(
    `--out ${out} holds an export journal (${JOURNAL}) that ledgerpipe cannot read; remove that file (the exports beside it are kept) and run again`,
  );
}

/**
 * What an earlier export left in `out`, put right before anything else happens: a set that was being renamed
 * (every file complete) is finished; a set that was being written is rolled back (its temporary files removed,
 * the previous files and their journal stay); temporary files of a killed export that no journal names are
 * removed when the process that wrote them is gone. A set whose writer still runs is refused (exit 75): two
 * exports into one folder would mix their sets. Files that are not ledgerpipe's are never touched. Returns
 * what it did.
 *
 * @example
 * await recoverExportSet('./exports', EXPORT_FILE_NAMES); // 'finished', 'rolled back' or 'nothing to do'
 */
export async function recoverExportSet(
  out: string,
  knownFiles: readonly string[],
): Promise<'finished' | 'rolled back' | 'nothing to do'> {
  let names: string[];
  try {
    names = await readdir(out);
  } catch {
    return 'nothing to do';
  }
  let outcome: 'finished' | 'rolled back' | 'nothing to do' = 'nothing to do';
  const journal = names.includes(JOURNAL) ? await readJournal(out) : undefined;
  if (journal !== undefined && journal.state !== 'complete') {
    if (journal.pid !== process.pid && alive(journal.pid)) {
      throw new LedgerpipeError(
        `another ledgerpipe (process ${journal.pid}) is writing exports to --out ${out}; try later (if none runs, remove ${join(out, JOURNAL)})`,
        { code: 'LP_OUT_BUSY', exit: 'locked' },
      );
    }
    if (journal.state === 'renaming') {
      for (const f of journal.files) if (names.includes(f.temp)) await rename(join(out, f.temp), join(out, f.final));
      await writeJournal(out, { state: 'complete', files: journal.files, pid: process.pid });
      outcome = 'finished';
    } else {
      for (const f of journal.files) await rm(join(out, f.temp), { force: true });
      await restoreJournal(out, journal.previous);
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

/** Puts back the journal of the complete set before a set that was given up, or none if there was none. */
async function restoreJournal(out: string, previous: Journal | undefined): Promise<void> {
  if (previous === undefined) await rm(join(out, JOURNAL), { force: true });
  else await writeJournal(out, previous);
}

/**
 * Records that the set of `files` is being written, with the journal of the set in place before: if this run
 * dies now, the next one rolls it back and puts that journal back. Returns it, for abandonExportSet.
 */
export async function beginExportSet(out: string, files: readonly SetFile[]): Promise<Journal | undefined> {
  const previous = await readJournal(out);
  const complete =
    previous?.state === 'complete' ? { state: previous.state, files: previous.files, pid: previous.pid } : undefined;
  await writeJournal(out, {
    state: 'writing',
    files: [...files],
    pid: process.pid,
    ...(complete === undefined ? {} : { previous: complete }),
  });
  return complete;
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
export async function abandonExportSet(
  out: string,
  files: readonly SetFile[],
  previous: Journal | undefined,
): Promise<void> {
  await Promise.all(files.map((f) => rm(join(out, f.temp), { force: true }).catch(() => undefined)));
  await restoreJournal(out, previous).catch(() => undefined);
}
