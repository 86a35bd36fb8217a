import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlatformError } from '../../src/errors/platform-error.js';
import { TransportError } from '../../src/errors/transport-error.js';
import { accountOpening, ACCOUNT_INFO } from '../../src/extract/account-opening.js';
import type { Logger } from '../../src/util/logger.js';
import type { Warehouse } from '../../src/warehouse/warehouse.js';
import { rows, tempWarehouse } from '../helpers/raw.js';

let warehouse: Warehouse;
let dispose: () => Promise<void>;
let warnings: string[];
const log: Logger = { debug: () => {}, info: () => {}, warn: (m) => warnings.push(m), error: () => {} };
const NOW = Date.parse('2026-01-10T08:00:00Z');
const refused = (platformCode: string, platformMessage: string) => () =>
  Promise.reject(new PlatformError({ path: ACCOUNT_INFO.path, httpStatus: 400, platformCode, platformMessage }));

beforeEach(async () => {
  ({ warehouse, dispose } = await tempWarehouse());
  warnings = [];
});
afterEach(() => dispose());

describe('the account opening (docs/history.md)', () => {
  it('is asked once and recorded: a later run reads it from the warehouse', async () => {
    let asked = 0;
    const fetch = () => Promise.resolve(((asked += 1), Date.parse('2022-10-04T16:44:21Z')));
    expect(await accountOpening({ warehouse, account: 'main', fetch, now: () => NOW, log })).toEqual({
      at: Date.parse('2022-10-04T16:44:21Z'),
    });
    expect(await accountOpening({ warehouse, account: 'main', fetch, now: () => NOW, log })).toEqual({
      at: Date.parse('2022-10-04T16:44:21Z'),
    });
    expect(asked).toBe(1);
    expect(
      await rows(
        warehouse,
        "SELECT account, strftime(registered_at AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S') AS at FROM account_openings",
      ),
    ).toEqual([{ account: 'main', at: '2022-10-04T16:44:21' }]);
  });

  it('is unknown, with one warning and nothing recorded, for a key without the permission (40014) or a network failure', async () => {
    expect(
      await accountOpening({
        warehouse,
        account: 'main',
        fetch: refused('40014', 'Incorrect permissions'),
        now: () => NOW,
        log,
      }),
    ).toEqual({
      unknown: `GET ${ACCOUNT_INFO.path} answered HTTP 400, code 40014`,
    });
    expect(warnings).toEqual([
      `main: the platform did not say when the account was opened (GET ${ACCOUNT_INFO.path} answered HTTP 400, code 40014); the history before the range is not read: give --history-from DATE to read it from a date (docs/history.md)`,
    ]);
    const down = () =>
      Promise.reject(
        new TransportError(
          'the platform did not answer GET /api/v2/spot/account/info: ECONNRESET; run again later to resume',
          'LP_NETWORK',
        ),
      );
    expect(await accountOpening({ warehouse, account: 'main', fetch: down, now: () => NOW, log })).toMatchObject({
      unknown: expect.stringContaining('ECONNRESET'),
    });
    expect(await rows(warehouse, 'SELECT count(*) AS n FROM account_openings')).toEqual([{ n: '0' }]);
  });

  it('stops the run on refused credentials, as any request would (exit 3)', async () => {
    await expect(
      accountOpening({
        warehouse,
        account: 'main',
        fetch: refused('40037', 'Apikey does not exist'),
        now: () => NOW,
        log,
      }),
    ).rejects.toMatchObject({ exit: 'auth', platformCode: '40037' });
    expect(warnings).toEqual([]);
  });
});
