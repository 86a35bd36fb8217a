import type { DuckDBConnection } from '@duckdb/node-api';
import { timestampTz } from './time-values.js';

/** The version `model_versions` records for `name` (type_catalog, typed_at_load); undefined before the first. */
export async function readModelVersion(c: DuckDBConnection, name: string): Promise<string | undefined> {
  const row = (await c.runAndReadAll('SELECT version FROM model_versions WHERE name = $name', { name })).getRows()[0];
  return row === undefined ? undefined : String(row[0]);
}

/** Records `version` as `name`'s, replacing the one before. */
export async function recordModelVersion(c: DuckDBConnection, name: string, version: string, now: number): Promise<void> {
  await c.run('INSERT OR REPLACE INTO model_versions VALUES ($name, $version, $now)', { name, version, now: timestampTz(now) });
}

/** Forgets `name`'s version: nothing holds for it any more. */
export async function forgetModelVersion(c: DuckDBConnection, name: string): Promise<void> {
  await c.run('DELETE FROM model_versions WHERE name = $name', { name });
}
