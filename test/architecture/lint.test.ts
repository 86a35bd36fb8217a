import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import * as prettier from 'prettier';
import { describe, expect, it } from 'vitest';
import { lintConfig } from '../../scripts/layers.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const OXLINT = join(ROOT, 'node_modules', '.bin', 'oxlint');

/** The linter's findings in `cwd` with `config`, one line each ('file:line:column: message [rule]'). */
function lint(cwd: string, config: string): string[] {
  const { stdout, status, error } = spawnSync(OXLINT, ['-c', config, '-f', 'unix', '.'], { cwd, encoding: 'utf8' });
  if (error) throw error;
  const findings = stdout.split('\n').filter((line) => /^\S+:\d+:\d+: /.test(line));
  if (status !== 0 && findings.length === 0) throw new Error(`oxlint exited ${status} with no finding:\n${stdout}`);
  return findings;
}

/** Every .ts file the project holds (git's list, so a clean clone and a working copy agree). */
function typescriptFiles(): string[] {
  const { stdout, status, error } = spawnSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '*.ts'],
    {
      cwd: ROOT,
      encoding: 'utf8',
    },
  );
  if (error !== undefined || status !== 0)
    throw new Error(`git ls-files failed (${error?.message ?? `exit ${status}`})`);
  const files = stdout.split('\n').filter((f) => f !== '' && !f.startsWith('dist/') && existsSync(join(ROOT, f)));
  if (files.length === 0) throw new Error('git lists no .ts file: the formatter would check nothing');
  return files;
}

describe('the formatter and the linter (docs/development.md, "Format and lint")', () => {
  it('the linter configuration is the one made from the layers (npm run generate)', () => {
    const written: unknown = JSON.parse(readFileSync(join(ROOT, '.oxlintrc.json'), 'utf8'));
    expect(written).toEqual(JSON.parse(JSON.stringify(lintConfig())));
  });

  it('finds nothing in the project', () => {
    const findings = lint(ROOT, '.oxlintrc.json');
    expect(findings, `npx oxlint finds:\n${findings.join('\n')}`).toEqual([]);
  });

  it('refuses an import of a caller, of its folder or a subfolder, naming the rule', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lp-lint-'));
    try {
      mkdirSync(join(dir, 'src', 'warehouse'), { recursive: true });
      mkdirSync(join(dir, 'src', 'pipeline'), { recursive: true });
      mkdirSync(join(dir, 'src', 'cli', 'commands'), { recursive: true });
      writeFileSync(join(dir, 'src', 'pipeline', 'run.ts'), 'export const run = 1;\n');
      writeFileSync(join(dir, 'src', 'cli', 'commands', 'go.ts'), 'export const go = 1;\n');
      writeFileSync(
        join(dir, 'src', 'warehouse', 'open.ts'),
        "import { run } from '../pipeline/run.js';\nimport { go } from '../cli/commands/go.js';\nexport const open = run + go;\n",
      );
      writeFileSync(join(dir, '.oxlintrc.json'), JSON.stringify(lintConfig()));
      expect(lint(dir, '.oxlintrc.json')).toEqual([
        "src/warehouse/open.ts:1:1: '../pipeline/run.js' import is restricted from being used by a pattern. " +
          '[Error/eslint(no-restricted-imports)]',
        "src/warehouse/open.ts:2:1: '../cli/commands/go.js' import is restricted from being used by a pattern. " +
          '[Error/eslint(no-restricted-imports)]',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every TypeScript file is as prettier writes it (npm run format)', async () => {
    const options = await prettier.resolveConfig(join(ROOT, 'package.json'));
    const unformatted: string[] = [];
    for (const file of typescriptFiles()) {
      const text = readFileSync(join(ROOT, file), 'utf8');
      if (!(await prettier.check(text, { ...options, filepath: join(ROOT, file) }))) unformatted.push(file);
    }
    expect(unformatted, `not formatted (npm run format):\n${unformatted.join('\n')}`).toEqual([]);
  });
});
