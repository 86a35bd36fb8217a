import { writeFile } from 'node:fs/promises';
import type { SimAccount, Simulator } from '../../src/sim/server.js';

/** The variable that holds one credential of a simulated account, as a config names it ('ACCT_002_KEY'). */
const envName = (a: SimAccount, field: 'KEY' | 'SECRET' | 'PASSPHRASE'): string =>
  `${a.name.toUpperCase().replace(/-/g, '_')}_${field}`;

/**
 * Writes a config file (docs/accounts.md) naming every account of `sim` at its address, with the variables that
 * hold its credentials, after the `settings` given (an `ipLimit`, ...); returns those variables and their values,
 * for the environment of the commands that read it.
 *
 * @example
 * const credentials = await writeSimAccountsConfig(join(dir, 'ledgerpipe.config.json'), sim, { ipLimit: 600 });
 */
export async function writeSimAccountsConfig(
  path: string,
  sim: Pick<Simulator, 'baseUrl' | 'accounts'>,
  settings: Record<string, unknown> = {},
): Promise<Record<string, string>> {
  const accounts = sim.accounts.map((a) => ({
    name: a.name,
    baseUrl: sim.baseUrl,
    env: { key: envName(a, 'KEY'), secret: envName(a, 'SECRET'), passphrase: envName(a, 'PASSPHRASE') },
  }));
  await writeFile(path, JSON.stringify({ ...settings, accounts }));
  return Object.fromEntries(
    sim.accounts.flatMap((a) => [
      [envName(a, 'KEY'), a.credentials.apiKey],
      [envName(a, 'SECRET'), a.credentials.secretKey],
      [envName(a, 'PASSPHRASE'), a.credentials.passphrase],
    ]),
  );
}
