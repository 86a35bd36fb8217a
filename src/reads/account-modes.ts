import type { DuckDBConnection } from '@duckdb/node-api';
import type { AccountMode } from '../streams/stream.js';
import { hasTables } from '../duckdb/tables.js';
import { timestampTz } from '../duckdb/time-values.js';

/** What the warehouse knows of an account's mode (table account_modes; docs/unified-accounts.md). */
export interface RecordedMode {
  mode: AccountMode;
  /** The settings endpoint's `accountMode` as served (unified, hybrid, upgrading, switching), for a unified account. */
  accountMode: string | null;
  /** How it was found, in words. */
  how: string;
}

/**
 * Every account's recorded mode; an account without one is classic (a warehouse of an earlier release holds only
 * those).
 */
export async function readAccountModes(c: DuckDBConnection): Promise<Map<string, AccountMode>> {
  if (!(await hasTables(c, ['account_modes']))) return new Map();
  const rows = (await c.runAndReadAll('SELECT account, mode FROM account_modes')).getRows();
  return new Map(rows.map((r) => [String(r[0]), String(r[1]) === 'uta' ? 'uta' : 'classic']));
}

/** One account's recorded mode: classic unless the warehouse recorded otherwise. */
export async function readAccountMode(c: DuckDBConnection, account: string): Promise<AccountMode> {
  return (await readAccountModes(c)).get(account) ?? 'classic';
}

/** Records how the platform answered for the account's mode. */
export async function recordAccountMode(
  c: DuckDBConnection,
  entry: { account: string; found: RecordedMode; now: number },
): Promise<void> {
  await c.run('INSERT OR REPLACE INTO account_modes VALUES ($account, $mode, $accountMode, $how, $now)', {
    account: entry.account,
    mode: entry.found.mode,
    accountMode: entry.found.accountMode,
    how: entry.found.how,
    now: timestampTz(entry.now),
  });
}
