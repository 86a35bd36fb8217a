import { z } from 'zod';
import { OTHER_ACCOUNT_MODE, PlatformError } from '../errors/platform-error.js';
import { ExtractError } from '../errors/extract-error.js';
import { TransportError } from '../errors/transport-error.js';
import type { AccountMode } from '../streams/stream.js';
import type { Logger } from '../util/logger.js';
import { recordAccountMode, type RecordedMode } from '../reads/account-modes.js';
import type { Warehouse } from '../warehouse/warehouse.js';

/**
 * GET /api/v3/account/settings, "Get Account Info": 20 requests a second per UID, permission "UTA mgt. (read)"; its
 * `accountMode` is `unified`, `hybrid`, `upgrading` ("Unified Account Upgrading") or `switching` ("Classic Account
 * Switching") (https://www.bitget.com/api-doc/uta/account/Get-Account-Setting; docs mirror sebastianganser/Bitget_API
 * uta/account/Get-Account-Setting.md). Public clients tell the two kinds of key apart by asking a v3 endpoint:
 * a classic key is refused with 40084 "Classic Account mode" (enarjord/passivbot#601, TraderAlice/OpenAlice#951).
 * Only `accountMode` is read: the answer's uid and trading settings are never kept.
 */
export const ACCOUNT_SETTINGS = { path: '/api/v3/account/settings', ratePerSecond: 20 } as const;

const settingsSchema = z.looseObject({ accountMode: z.string() });

/** Reads the account mode out of the endpoint's `data`; an answer without one is no settings answer (LP_BAD_PAGE). */
export const readAccountModeField = (data: unknown): string => settingsSchema.parse(data).accountMode;

/** Modes the settings endpoint names while an account moves between the two kinds (docs/unified-accounts.md). */
const MOVING = new Set(['upgrading', 'switching']);

/**
 * The account's mode (docs/unified-accounts.md, "Which kind of account"), asked of the platform on every run that
 * reads it, and recorded (table account_modes): an answer means a unified account; 40084 (a classic key), or an
 * address that does not serve the path (HTTP 404, as the simulator of a classic account and an older platform
 * answer), a classic one. Refused credentials stop the run as anywhere; any other failure leaves it classic, as
 * public clients do "on any uncertainty" (enarjord/passivbot#601), with a warning: a unified key then finds every
 * classic stream refused, and the run says so (exit 4).
 */
export async function accountMode(options: {
  warehouse: Warehouse;
  account: string;
  fetch: () => Promise<string>;
  now: () => number;
  log: Logger;
}): Promise<RecordedMode> {
  const { account, log } = options;
  let found: RecordedMode;
  try {
    const accountModeField = await options.fetch();
    found = {
      mode: 'uta',
      accountMode: accountModeField,
      how: `GET ${ACCOUNT_SETTINGS.path} answered accountMode "${accountModeField}"`,
    };
    if (MOVING.has(accountModeField)) {
      log.warn(
        `${account}: the platform says the account is ${accountModeField === 'upgrading' ? 'being upgraded to a unified account' : 'switching back to a classic account'}; it is read as a unified account, and a record of its other kind may be missing until the switch is done (docs/unified-accounts.md)`,
      );
    }
  } catch (error) {
    if (error instanceof PlatformError && error.exit === 'auth') throw error;
    if (!(error instanceof PlatformError || error instanceof TransportError || error instanceof ExtractError))
      throw error;
    const refused =
      error instanceof PlatformError ? `HTTP ${error.httpStatus}, code ${error.platformCode}` : error.message;
    const classic =
      error instanceof PlatformError && (OTHER_ACCOUNT_MODE.has(error.platformCode) || error.httpStatus === 404);
    if (!classic)
      log.warn(
        `${account}: GET ${ACCOUNT_SETTINGS.path} could not tell the account's kind (${refused}); read as a classic account (docs/unified-accounts.md)`,
      );
    found = {
      mode: 'classic' as AccountMode,
      accountMode: null,
      how: `GET ${ACCOUNT_SETTINGS.path} refused: ${refused}`,
    };
  }
  await options.warehouse.transaction((c) => recordAccountMode(c, { account, found, now: options.now() }));
  return found;
}
