import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, writeTruth } from '../../src/sim/data/dataset.js';
import { runCliProcess, startSimProcess } from '../helpers/cli.js';
import { envelope, signedGet } from '../helpers/signed-get.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'lp-cli-sim-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('ledgerpipe sim', () => {
  it('prints the connection line first, with the truth file already complete, and serves signed requests', async () => {
    const truth = join(dir, 'truth.json');
    const sim = await startSimProcess([
      '--seed',
      '9',
      '--from',
      '2025-01-01',
      '--to',
      '2025-03-01',
      '--records',
      '300',
      '--truth',
      truth,
      '--port',
      '0',
    ]);
    try {
      expect(Object.keys(sim.info)).toEqual(['baseUrl', 'apiKey', 'secretKey', 'passphrase', 'accounts']);
      // One account by default, the same as the line's own credentials.
      const info = sim.info as unknown as Record<string, unknown>;
      expect(info['accounts']).toEqual([
        { name: 'default', apiKey: info['apiKey'], secretKey: info['secretKey'], passphrase: info['passphrase'] },
      ]);
      expect(sim.info.baseUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const written = await readFile(truth);
      // The same bytes as the library writes for the same seed and range.
      const expected = join(dir, 'expected.json');
      await writeTruth(
        generateDataset({
          seed: '9',
          from: Date.UTC(2025, 0, 1),
          to: Date.UTC(2025, 2, 1),
          records: 300,
          marginWindowDays: 366,
        }),
        expected,
      );
      expect(written.equals(await readFile(expected))).toBe(true);
      const credentials = { apiKey: sim.info.apiKey, secretKey: sim.info.secretKey, passphrase: sim.info.passphrase };
      const answer = await signedGet({ baseUrl: sim.info.baseUrl, credentials }, '/api/v2/account/all-account-balance');
      expect(answer.status).toBe(200);
      expect((envelope(answer).data as { accountType: string }[]).map((b) => b.accountType)).toEqual([
        'spot',
        'futures',
        'funding',
        'earn',
        'bots',
        'margin',
      ]);
    } finally {
      expect(await sim.stop()).toBe(0);
    }
  });

  it('serves the retail account without --seed and --records, registered before the range its history reaches back to', async () => {
    const sim = await startSimProcess([
      '--from',
      '2025-01-01',
      '--to',
      '2026-01-01',
      '--rate-scale',
      '1000',
      '--history-depth-days',
      '3650',
      '--port',
      '0',
    ]);
    try {
      const credentials = { apiKey: sim.info.apiKey, secretKey: sim.info.secretKey, passphrase: sim.info.passphrase };
      const info = envelope(await signedGet({ baseUrl: sim.info.baseUrl, credentials }, '/api/v2/spot/account/info'))
        .data as { regisTime: string };
      expect(new Date(Number(info.regisTime)).toISOString()).toBe('2022-10-04T16:44:21.277Z');
      // Its first spot record: the first deposit, on the day of its registration.
      const start = String(Date.UTC(2022, 9, 4));
      const spot = envelope(
        await signedGet({ baseUrl: sim.info.baseUrl, credentials }, '/api/v2/tax/spot-record', {
          startTime: start,
          endTime: String(Date.UTC(2022, 9, 5) - 1),
        }),
      ).data as { spotTaxType: string }[];
      expect(spot.map((r) => r.spotTaxType)).toEqual(['Deposit']);
    } finally {
      expect(await sim.stop()).toBe(0);
    }
  });

  it.each([
    [['--history-depth-days', '0'], '--history-depth-days must be a whole number of days, such as 730'],
    [['--faults', '2'], '--faults must be a share between 0 and 1, such as 0.1'],
    [['--from', '2025-02-30'], '--from "2025-02-30" is not a real calendar date or time; check the day and month'],
    [['--from', '2025-03-01', '--to', '2025-01-01'], '--from must be before --to'],
    [['--margin-window-days', '400'], '--margin-window-days must be a whole number from 1 to 366'],
    [['--colour', 'blue'], 'unknown flag --colour (see ledgerpipe sim --help)'],
    [['--record', '10'], 'unknown flag --record; did you mean --records? (see ledgerpipe sim --help)'],
  ])('refuses %j with exit 2 and one line', async (args, message) => {
    const result = await runCliProcess(['sim', ...args]);
    expect(result.status).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`ledgerpipe: ${message}\n`);
  });
});
