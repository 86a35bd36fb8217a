import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { configSchema } from '../../src/cli/config.js';
import { startSimulator, type Simulator } from '../../src/sim/server.js';
import { runCliProcess } from '../helpers/cli.js';

/** The recipe's manifests (docs/kubernetes.md), as Kubernetes reads them. */
const MANIFESTS = new URL('../../deploy/kubernetes/ledgerpipe.yaml', import.meta.url);

/** A manifest as parsed: read by its known shape, which the assertions check. */
type Doc = Record<string, any>;

let docs: Doc[];
let dir: string;
let sim: Simulator;

const byKind = (kind: string) => docs.find((d) => d['kind'] === kind) as Doc;
/** The pod spec of the Job, or of the CronJob's jobs. */
const jobSpec = (kind: 'Job' | 'CronJob') =>
  kind === 'Job' ? byKind('Job')['spec'] : byKind('CronJob')['spec']['jobTemplate']['spec'];

beforeAll(async () => {
  docs = parseAllDocuments(await readFile(MANIFESTS, 'utf8')).map((d) => d.toJS() as Doc);
  dir = await mkdtemp(join(tmpdir(), 'lp-k8s-'));
  sim = await startSimulator({
    seed: 'k8s',
    from: Date.UTC(2025, 0, 1),
    to: Date.UTC(2026, 0, 1),
    records: 40,
    rateScale: 100,
    pendingMs: 0,
    accounts: 2,
  });
});
afterAll(async () => {
  await sim.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the Kubernetes recipe', () => {
  it.each(['Job', 'CronJob'] as const)(
    '%s: an Indexed job whose completion index is the shard, one per completion',
    (kind) => {
      const spec = jobSpec(kind);
      const container = spec['template']['spec']['containers'][0];
      const shard = container['args'][container['args'].indexOf('--shard') + 1];
      expect([spec['completionMode'], shard]).toEqual(['Indexed', `$(JOB_COMPLETION_INDEX)/${spec['completions']}`]);
      expect(spec['parallelism']).toBe(spec['completions']);
      expect(container['env']).toContainEqual({
        name: 'JOB_COMPLETION_INDEX',
        valueFrom: { fieldRef: { fieldPath: "metadata.annotations['batch.kubernetes.io/job-completion-index']" } },
      });
      // Each shard keeps its own warehouse: a folder of the shared volume named after its index.
      expect(container['volumeMounts']).toContainEqual({
        name: 'shared',
        mountPath: '/data',
        subPathExpr: 'shard-$(JOB_COMPLETION_INDEX)',
      });
    },
  );

  it('has a config ledgerpipe accepts, whose every credential variable the Secret holds', () => {
    const config = configSchema.parse(JSON.parse(byKind('ConfigMap')['data']['ledgerpipe.config.json']));
    const secret = Object.keys(byKind('Secret')['stringData']).sort();
    expect(config.accounts.flatMap((a) => [a.env.key, a.env.secret, a.env.passphrase]).sort()).toEqual(secret);
  });

  it("runs as the Job's pods would: each index its shard, one lake with every account", async () => {
    const config = JSON.parse(byKind('ConfigMap')['data']['ledgerpipe.config.json']) as {
      accounts: { name: string; baseUrl: string; env: Record<string, string> }[];
    };
    // The platform's address is the simulator's; account n signs with the simulator's n-th key.
    const local = { ...config, accounts: config.accounts.map((a) => ({ ...a, baseUrl: sim.baseUrl })) };
    await mkdir(join(dir, 'etc'));
    await writeFile(join(dir, 'etc', 'ledgerpipe.config.json'), JSON.stringify(local));
    const env: NodeJS.ProcessEnv = { ...process.env };
    config.accounts.forEach((a, n) => {
      const c = sim.accounts[n]!.credentials;
      Object.assign(env, {
        [a.env['key']!]: c.apiKey,
        [a.env['secret']!]: c.secretKey,
        [a.env['passphrase']!]: c.passphrase,
      });
    });
    const spec = jobSpec('Job');
    const args: string[] = spec['template']['spec']['containers'][0]['args'];
    const runs = await Promise.all(
      Array.from({ length: spec['completions'] as number }, async (_, index) => {
        await mkdir(join(dir, `shard-${index}`), { recursive: true });
        const pod = args.map((a) =>
          a
            .replace('$(JOB_COMPLETION_INDEX)', String(index))
            .replace('/etc/ledgerpipe', join(dir, 'etc'))
            .replace(/^\/data/, join(dir, `shard-${index}`))
            .replace(/^\/lake$/, join(dir, 'lake')),
        );
        // The recipe's year, cut to its last month: the shards, paths and lake are what is tried here; a whole
        // year-end is tried elsewhere.
        expect(pod.splice(2, 2, '--from', '2025-12-01', '--to', '2026-01-01')).toEqual(['--year', '2025']);
        return runCliProcess([...pod, '--rate-scale', '100', '--quiet'], { env });
      }),
    );
    for (const run of runs) expect([run.status, run.stderr]).toEqual([0, '']);
    const accounts = await runCliProcess([
      'query',
      '--lake',
      join(dir, 'lake'),
      'SELECT DISTINCT account FROM ledger ORDER BY 1',
      '--format',
      'csv',
    ]);
    expect(accounts.stdout).toBe(
      `account\n${config.accounts
        .map((a) => a.name)
        .sort()
        .join('\n')}\n`,
    );
  }, 180_000);
});
