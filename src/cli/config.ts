import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { shardOf, type Shard } from '../pipeline/shard.js';
import { UsageError } from '../errors/usage-error.js';
import type { Account } from '../http/account.js';
import type { Credentials } from '../http/credentials.js';

/**
 * The name of an environment variable, in the usual upper case (MAIN_API_KEY). Anything else may be the secret
 * itself typed where its name belongs (an API key such as bg_3f2a... is a valid identifier), so it is refused,
 * and the message never repeats it.
 */
const envName = z
  .string()
  .regex(
    /^[A-Z][A-Z0-9_]{0,63}$/,
    'does not look like the name of an environment variable (such as MAIN_API_KEY): put the name of the variable that holds the value here, not the value',
  );

/**
 * The profiles file (`--config`, default ./ledgerpipe.config.json when present): accounts, each with its base
 * URL and the names of the environment variables that hold its credentials. Never the credentials themselves.
 */
export const configSchema = z.strictObject({
  /**
   * The umask of what ledgerpipe creates (warehouse, exports, their folders), in octal: default 077, the owner
   * alone (0600 files, 0700 folders); 027 lets the group read, 022 everyone.
   */
  umask: z
    .string()
    .regex(
      /^0?[0-7]{3}$/,
      'an octal umask such as 077 (only you), 027 (your group may read) or 022 (everyone may read)',
    )
    .optional(),
  /** The mode of the lake's files, in octal (docs/many-accounts.md): 640 lets a group read a shared volume. */
  lakeMode: z
    .string()
    .regex(/^0?[0-7]{3}$/, 'an octal file mode such as 600 (only you) or 640 (your group may read)')
    .optional(),
  /** The fiat every movement is also valued in (docs/values.md), as --fiat gives it; --fiat wins. */
  fiat: z
    .string()
    .regex(/^[A-Za-z]{3,5}$/, 'a currency code such as EUR, GBP or USD')
    .optional(),
  /** The user's rates file for that fiat (docs/values.md), as --fiat-rates gives it; --fiat-rates wins. */
  fiatRates: z.string().min(1).optional(),
  /** The user's own type-catalog rows (docs/ledger.md, "Adding a type"), as --catalog gives them; --catalog wins. */
  catalog: z.string().min(1).optional(),
  /** Requests a minute to one platform address over every account (docs/many-accounts.md); --ip-limit wins. */
  ipLimit: z.number().int().positive('a positive whole number of requests a minute, such as 5400').optional(),
  accounts: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]*$/, 'use letters, digits, dot, dash or underscore'),
        baseUrl: z.url({ protocol: /^https?$/ }),
        env: z.strictObject({ key: envName, secret: envName, passphrase: envName }),
        /**
         * Copy trading (docs/unified-accounts.md, "Copy trading"): the projects a follower copies (their projectId,
         * which no endpoint lists), and whether the account is a lead trader.
         */
        copyTrading: z
          .strictObject({
            projects: z.array(z.string().regex(/^\d{1,30}$/, 'a projectId, digits only')).default([]),
            leadTrader: z.boolean().default(false),
          })
          .optional(),
      }),
    )
    .min(1)
    .refine((list) => new Set(list.map((a) => a.name)).size === list.length, { message: 'account names must differ' }),
});

export type Config = z.output<typeof configSchema>;

export const DEFAULT_CONFIG_PATH = './ledgerpipe.config.json';

/** The umask files are created with unless the config says otherwise: the owner alone may read them. */
export const PRIVATE_UMASK = 0o077;

/** Reads and checks a profiles file; undefined when no --config was given and the default file is absent. */
export async function readConfig(path: string | undefined): Promise<Config | undefined> {
  const file = path ?? DEFAULT_CONFIG_PATH;
  if (path === undefined && !existsSync(file)) return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message.split('\n')[0];
    throw new UsageError(`config ${file} cannot be read (${reason}); check --config`, error);
  }
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UsageError(
      `config ${file}: ${issue?.path.join('.') || '(file)'}: ${issue?.message ?? 'invalid'}; fix that field`,
    );
  }
  return parsed.data;
}

type CredentialNames = { key: string; secret: string; passphrase: string };

/**
 * The credentials held by the variables `names` names. When some are unset, the message says which: by the
 * variables' names for ledgerpipe's own (LEDGERPIPE_API_KEY...), by the config fields for a config's
 * (accounts.0.env.key), whose value it never repeats: it may be a secret that looks like a name.
 */
function fromEnv(
  env: NodeJS.ProcessEnv,
  names: CredentialNames,
  account: { name: string; configIndex?: number },
): Credentials {
  const fields = (['key', 'secret', 'passphrase'] as const).filter((f) => (env[names[f]] ?? '') === '');
  if (fields.length > 0) {
    const what =
      account.configIndex === undefined
        ? `set ${fields.map((f) => names[f]).join(', ')} in the environment`
        : `set the variables named by the config's ${fields.map((f) => `accounts.${account.configIndex}.env.${f}`).join(', ')} in the environment`;
    throw new UsageError(`missing credentials for account ${account.name}: ${what} (a read-only API key is enough)`);
  }
  return {
    apiKey: env[names.key] as string,
    secretKey: env[names.secret] as string,
    passphrase: env[names.passphrase] as string,
  };
}

/**
 * The accounts a command runs: every profile of the config (or the one --profile names), or without a config
 * the account `default` at --base-url with LEDGERPIPE_API_KEY, LEDGERPIPE_API_SECRET, LEDGERPIPE_API_PASSPHRASE.
 */
export function resolveAccounts(options: {
  config: Config | undefined;
  profile: string | undefined;
  baseUrl: string | undefined;
  env: NodeJS.ProcessEnv;
  shard?: Shard;
}): Account[] {
  const { config, profile, env, shard } = options;
  if (shard !== undefined && config === undefined)
    throw new UsageError('--shard splits the accounts of a config file; give --config');
  if (config === undefined) {
    if (profile !== undefined)
      throw new UsageError(`--profile ${profile} needs a config file; give --config or create ${DEFAULT_CONFIG_PATH}`);
    const baseUrl = checkBaseUrl(options.baseUrl ?? env['LEDGERPIPE_BASE_URL']);
    return [
      {
        name: 'default',
        baseUrl,
        credentials: fromEnv(
          env,
          { key: 'LEDGERPIPE_API_KEY', secret: 'LEDGERPIPE_API_SECRET', passphrase: 'LEDGERPIPE_API_PASSPHRASE' },
          { name: 'default' },
        ),
      },
    ];
  }
  const chosen = profile === undefined ? config.accounts : config.accounts.filter((a) => a.name === profile);
  if (chosen.length === 0)
    throw new UsageError(
      `no profile named ${profile}; the config has ${config.accounts.map((a) => a.name).join(', ')}`,
    );
  // Before the credentials are read: a shard needs only its own accounts' variables.
  const mine = shard === undefined ? chosen : chosen.filter((a) => shardOf(a.name, shard.count) === shard.index);
  return mine.map((a) => ({
    name: a.name,
    baseUrl: checkBaseUrl(options.baseUrl ?? a.baseUrl),
    credentials: fromEnv(env, a.env, { name: a.name, configIndex: config.accounts.indexOf(a) }),
    ...(a.copyTrading === undefined ? {} : { copyTrading: a.copyTrading }),
  }));
}

/** The platform's address, checked to be an http(s) URL without a user or password in it. */
export function checkBaseUrl(value: string | undefined): string {
  if (value === undefined || value === '')
    throw new UsageError("give the platform's API address with --base-url, LEDGERPIPE_BASE_URL or a config file");
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new UsageError(`--base-url ${JSON.stringify(value)} is not a URL; use e.g. https://api.example.com`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new UsageError(`--base-url must be http or https, not ${url.protocol}`);
  if (url.username !== '' || url.password !== '')
    throw new UsageError('--base-url must not hold a user or password; credentials come from the environment');
  return url.origin + url.pathname.replace(/\/+$/, '');
}
