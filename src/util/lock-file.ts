import {
  closeSync,
  linkSync,
  openSync,
  readFileSync,
  readlinkSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { randomBytes } from 'node:crypto';

export interface LockFileOptions {
  /** The time written into the lock and read back from others' (Date.now between processes). */
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  /** Whether a process of this machine is still running (default: signal 0, as `kill -0` asks). */
  isAlive?: (pid: number) => boolean;
  /** A lock held longer than this is broken (default 5 s: the work under it takes well under a millisecond). */
  staleMs?: number;
  /** The holder's id written into the lock (default this process's). */
  pid?: number;
  /** The holder's pid namespace (default this process's, pidNamespace()). */
  ns?: string;
}

const STALE_MS = 5000;
/** How long to wait before trying a held lock again, plus up to as much again at random. */
const RETRY_MS = 2;

/**
 * Runs `work` holding the lock file `path`: a file created with O_EXCL (`wx`) holding the holder's pid, the time it was
 * taken and a nonce, removed after. `work` is synchronous, so the lock is held for as long as it takes and no longer: a
 * busy event loop (DuckDB's appends) cannot keep other processes waiting. A lock whose holder is no longer running (a
 * holder of this pid namespace), or older than `staleMs` (a holder stopped, in another container or on another
 * machine), is broken: moved aside under a name of its own, then removed if it is still the one judged stale (a lock
 * another process took meanwhile is put back). Errors other than a held lock (a folder that cannot be written) are
 * thrown.
 *
 * @example
 * const state = await withLockFile(`${file}.lock`, () => update(file), { clock: Date.now, sleep });
 */
export async function withLockFile<T>(path: string, work: () => T, options: LockFileOptions): Promise<T> {
  const pid = options.pid ?? process.pid;
  const ns = options.ns ?? pidNamespace();
  const isAlive = options.isAlive ?? processAlive;
  const staleMs = options.staleMs ?? STALE_MS;
  for (;;) {
    // The nonce tells this lock from one taken later by the same pid at the same millisecond (an inode is reused).
    const mine = `${JSON.stringify({ pid, ...(ns === undefined ? {} : { ns }), at: options.clock(), nonce: randomBytes(4).toString('hex') })}\n`;
    if (tryCreate(path, mine)) {
      try {
        return work();
      } finally {
        release(path, mine);
      }
    }
    const holder = readHolder(path);
    // Gone between the two: try again at once.
    if (holder === undefined) continue;
    // A pid means something only in its own namespace: another container's holder is judged by its age alone.
    const ours = holder.pid !== undefined && holder.ns === ns;
    const stale = holder.at + staleMs <= options.clock() || (ours && !isAlive(holder.pid as number));
    if (stale) breakLock(path, holder.text);
    else await options.sleep(RETRY_MS * (1 + Math.random()));
  }
}

/** Creates the lock with its content; false when another holds it. */
function tryCreate(path: string, content: string): boolean {
  let fd: number;
  try {
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, content);
    return true;
  } finally {
    closeSync(fd);
  }
}

interface Holder {
  /** The lock's content, which tells it from any other. */
  text: string;
  pid?: number;
  ns?: string;
  /**
   * When it was taken; for a lock without its content (its holder ended between creating and writing it), its mtime.
   */
  at: number;
}

function readHolder(path: string): Holder | undefined {
  try {
    const { mtimeMs } = statSync(path);
    const text = readFileSync(path, 'utf8');
    try {
      const { pid, ns, at } = JSON.parse(text) as { pid?: unknown; ns?: unknown; at?: unknown };
      if (typeof pid === 'number' && typeof at === 'number')
        return { text, pid, at, ...(typeof ns === 'string' ? { ns } : {}) };
    } catch {
      // Not the JSON a holder writes: judged by its age alone.
    }
    return { text, at: mtimeMs };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Reads a lock's content; undefined when there is none. */
function contentOf(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/** Removes a stale lock, and only that one: another process may have broken it and taken a new one meanwhile. */
function breakLock(path: string, judged: string): void {
  const aside = `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    renameSync(path, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  if (contentOf(aside) !== judged) {
    // A fresh lock, moved by mistake: back where it was, unless yet another was taken since (link never replaces).
    try {
      linkSync(aside, path);
    } catch {
      // That one holds now; the two holders' work may overlap once (see docs/many-accounts.md).
    }
  }
  unlinkSync(aside);
}

/** Removes the lock if it is still ours (a holder stopped longer than staleMs may have lost it to another). */
function release(path: string, mine: string): void {
  if (contentOf(path) !== mine) return;
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}

/**
 * The pid namespace of this process (Linux: the number of /proc/self/ns/pid), undefined elsewhere. Processes of two
 * containers that share a folder may have the same pid, and neither can see whether the other's runs.
 *
 * @example
 * pidNamespace(); // '4026531836' on a Linux host
 */
export function pidNamespace(): string | undefined {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1];
  } catch {
    return undefined;
  }
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
