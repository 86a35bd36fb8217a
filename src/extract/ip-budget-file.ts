import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { pidNamespace, withLockFile } from '../util/lock-file.js';

/**
 * The machine's IP budget for one platform address, as a file every process reading that address shares
 * (docs/many-accounts.md, "One budget per machine"). It holds, per process id, the requests each was granted and
 * until when each grant counts: a grant made at `at` may be spent until `at` plus the lease, and each request
 * then stays in the platform's window for a minute (plus the arrival margin), so the grant counts until `until`.
 * (A process is its pid and, on Linux, its pid namespace: containers sharing the folder may have the same pids.)
 * A grant is made only while the grants still counting, with it, stay within the limit: requests granted in any
 * window of the platform's minute are then never more than the limit, whichever processes sent them, and a
 * process that ends leaves its last minute in the file for the next one to see. Nothing else is kept: no address
 * (the file is named by a hash of it), no key, no account.
 */
const grantSchema = z.object({ at: z.number(), until: z.number(), n: z.number().int().positive() });
const processSchema = z.object({
  pid: z.number().int(),
  ns: z.string().optional(),
  waitingUntil: z.number().optional(),
  grants: z.array(grantSchema),
});
const stateSchema = z.object({ version: z.literal(1), processes: z.array(processSchema) });

export type BudgetState = z.infer<typeof stateSchema>;
type ProcessEntry = z.infer<typeof processSchema>;

/**
 * A process that wanted requests and was refused says so for this long; while any other process says so, each takes
 * no more than its equal share of the limit. Refreshed at every claim it makes (at least once a second).
 */
export const WAITING_MS = 2500;

export interface ClaimRequest {
  pid: number;
  /** The process's pid namespace, when known (pidNamespace). */
  ns?: string;
  now: number;
  /** Requests asked for. */
  want: number;
  /** Requests already waiting in the process: granted fewer, the process is marked waiting. */
  needed: number;
  /** The limit over every process, in any window of the platform's minute. */
  perMinute: number;
  /** How long a grant made now counts: the lease plus the window. */
  holdMs: number;
  /**
   * The process's previous grant, whose lease has ended: only `used` of its `n` were spent, the rest are given back.
   */
  settle?: { at: number; n: number; used: number };
}

export interface ClaimResult {
  granted: number;
  /** The grant's time (the claim's `now`): its lease runs from here. */
  at: number;
  /** When granted fewer than asked: the earliest time more may be free (a grant that stops counting). */
  retryAt?: number;
}

/**
 * One claim against the state, in place: what has stopped counting is dropped, the previous grant settled, then
 * up to `want` granted out of what the limit leaves. While other processes wait, the claimer takes no more than
 * its share (the limit over the processes that want some), so two runs at once share the address evenly.
 *
 * @example
 * const { granted } = claimIn(state, { pid: 42, now: Date.now(), want: 90, needed: 3, perMinute: 5400, holdMs: 61_600 });
 */
export function claimIn(state: BudgetState, request: ClaimRequest): ClaimResult {
  const { now, pid, ns } = request;
  prune(state, now);
  let me = state.processes.find((p) => p.pid === pid && p.ns === ns);
  if (me === undefined) {
    me = { pid, ...(ns === undefined ? {} : { ns }), grants: [] };
    state.processes.push(me);
  }
  const settle = request.settle;
  if (settle !== undefined) {
    const grant = me.grants.find((g) => g.at === settle.at && g.n === settle.n);
    if (grant !== undefined) grant.n = settle.used;
    me.grants = me.grants.filter((g) => g.n > 0);
  }
  const counted = (p: ProcessEntry) => p.grants.reduce((sum, g) => sum + g.n, 0);
  const total = state.processes.reduce((sum, p) => sum + counted(p), 0);
  const free = Math.max(0, request.perMinute - total);
  const waiting = state.processes.filter((p) => p !== me && (p.waitingUntil ?? 0) > now).length;
  const share =
    waiting === 0 ? free : Math.min(free, Math.max(0, Math.floor(request.perMinute / (waiting + 1)) - counted(me)));
  const granted = Math.max(0, Math.min(request.want, share));
  // More frees up when a grant stops counting: one of this process's when its share holds it back, else anyone's.
  const holding = share < free ? me.grants : state.processes.flatMap((p) => p.grants);
  const retryAt = granted < request.want ? Math.min(...holding.map((g) => g.until), now + request.holdMs) : undefined;
  if (granted > 0) me.grants.push({ at: now, until: now + request.holdMs, n: granted });
  if (granted < request.needed) me.waitingUntil = now + WAITING_MS;
  else delete me.waitingUntil;
  prune(state, now);
  return { granted, at: now, ...(retryAt === undefined ? {} : { retryAt }) };
}

/** Drops the grants that no longer count, and the processes left with nothing (a dead one's go with its minute). */
function prune(state: BudgetState, now: number): void {
  for (const p of state.processes) p.grants = p.grants.filter((g) => g.until > now);
  state.processes = state.processes.filter((p) => p.grants.length > 0 || (p.waitingUntil ?? 0) > now);
}

/** The machine's budget file of one platform address. */
export interface BudgetFile {
  /** Where it is (for messages). */
  path: string;
  /** One claim under the lock (claimIn); `replaced` when the file held something else and was started afresh. */
  claim(request: Omit<ClaimRequest, 'pid' | 'ns' | 'now'>): Promise<ClaimResult & { replaced?: boolean }>;
}

export interface BudgetFileOptions {
  /** The folder of the budget files (`<state dir>/ip-budget`). */
  dir: string;
  /** The platform's address; only a hash of it names the file. */
  origin: string;
  clock: () => number;
  sleep: (ms: number) => Promise<void>;
  pid?: number;
  /** The pid namespace (default this process's). */
  ns?: string;
  isAlive?: (pid: number) => boolean;
}

/**
 * Files no process has written for this long belong to addresses no longer read: removed when the folder is first used.
 */
const FORGET_AFTER_MS = 86_400_000;

/**
 * The budget file of `origin` under `dir`: `<dir>/<first 16 hex of the origin's SHA-256>.json`, read, claimed
 * against and written whole (to a temporary name, then renamed) under `<file>.lock`, so a reader never sees half a
 * file. The folder is made (0700) on the first claim; a folder or file that cannot be written throws.
 *
 * @example
 * const file = budgetFile({ dir: join(stateDir(process.env), 'ip-budget'), origin: 'https://api.bitget.com', clock: Date.now, sleep });
 * const { granted } = await file.claim({ want: 90, needed: 3, perMinute: 5400, holdMs: 61_600 });
 */
export function budgetFile(options: BudgetFileOptions): BudgetFile {
  const name = createHash('sha256').update(options.origin).digest('hex').slice(0, 16);
  const path = join(options.dir, `${name}.json`);
  const pid = options.pid ?? process.pid;
  const ns = options.ns ?? pidNamespace();
  let ready = false;
  return {
    path,
    claim: async (request) => {
      if (!ready) {
        mkdirSync(options.dir, { recursive: true, mode: 0o700 });
        forgetOld(options.dir, options.clock());
        ready = true;
      }
      const lock = {
        clock: options.clock,
        sleep: options.sleep,
        pid,
        ...(ns === undefined ? {} : { ns }),
        ...(options.isAlive === undefined ? {} : { isAlive: options.isAlive }),
      };
      return withLockFile(
        `${path}.lock`,
        () => {
          const { state, replaced } = readState(path);
          const result = claimIn(state, { ...request, pid, ...(ns === undefined ? {} : { ns }), now: options.clock() });
          const temporary = `${path}.${pid}.tmp`;
          writeFileSync(temporary, `${JSON.stringify(state)}\n`, { mode: 0o600 });
          renameSync(temporary, path);
          return replaced ? { ...result, replaced } : result;
        },
        lock,
      );
    },
  };
}

function readState(path: string): { state: BudgetState; replaced: boolean } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return { state: { version: 1, processes: [] }, replaced: false };
    throw error;
  }
  try {
    return { state: stateSchema.parse(JSON.parse(text)), replaced: false };
  } catch {
    return { state: { version: 1, processes: [] }, replaced: true };
  }
}

/**
 * Removes what was left in the folder long ago: budgets of addresses no longer read, a temporary file of a killed
 * process.
 */
function forgetOld(dir: string, now: number): void {
  for (const entry of readdirSync(dir)) {
    try {
      if (statSync(join(dir, entry)).mtimeMs < now - FORGET_AFTER_MS) unlinkSync(join(dir, entry));
    } catch {
      // Removed by another process meanwhile, or not ours to remove: nothing to do.
    }
  }
}
