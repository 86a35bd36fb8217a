import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../../src/util/package-root.js';

// README.md is the front door and docs/ the reference beside it: every link between them, and to the project's
// files, leads somewhere, and every #anchor is a heading of the page it names (GitHub's rule for anchors).

const ROOT = packageRoot();

/** GitHub's anchor of a heading: lower case, punctuation but - and _ dropped, spaces as -. */
export function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}\- _]/gu, '')
    .replace(/ /g, '-');
}

/** The markdown pages: README.md, ARCHITECTURE.md and every page of docs/. */
async function pages(): Promise<string[]> {
  return [
    'README.md',
    'ARCHITECTURE.md',
    ...(await readdir(join(ROOT, 'docs'))).filter((n) => n.endsWith('.md')).map((n) => `docs/${n}`),
  ];
}

/** A page's text without its fenced code blocks, whose brackets are no links. */
const prose = (text: string): string => text.replace(/^```[\s\S]*?^```/gm, '');

async function anchorsOf(page: string): Promise<Set<string>> {
  const text = prose(await readFile(join(ROOT, page), 'utf8'));
  return new Set([...text.matchAll(/^#{1,6} (.+)$/gm)].map((m) => anchorOf(m[1] as string)));
}

describe('the documentation', () => {
  it('keeps the README a front door: at most 250 lines', async () => {
    expect((await readFile(join(ROOT, 'README.md'), 'utf8')).split('\n').length).toBeLessThanOrEqual(250);
  });

  it('has no link to a file that does not exist, or to an anchor its page does not have', async () => {
    const broken: string[] = [];
    let links = 0;
    for (const page of await pages()) {
      const text = prose(await readFile(join(ROOT, page), 'utf8'));
      for (const m of text.matchAll(/\[[^\]]*\]\(([^)\s]+)\)/g)) {
        const target = m[1] as string;
        if (/^(https?:|mailto:)/.test(target)) continue;
        links += 1;
        const [file, anchor] = target.split('#') as [string, string | undefined];
        const path = file === '' ? join(ROOT, page) : resolve(dirname(join(ROOT, page)), file);
        if (!existsSync(path)) {
          broken.push(`${page}: ${target} (no such file)`);
          continue;
        }
        if (anchor !== undefined && path.endsWith('.md') && !(await anchorsOf(relative(ROOT, path))).has(anchor))
          broken.push(`${page}: ${target} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
    expect(links).toBeGreaterThan(80);
  });

  it('names docs pages that exist wherever the code and SQL point to one', async () => {
    const missing = new Set<string>();
    const walk = async (dir: string): Promise<void> => {
      for (const e of await readdir(join(ROOT, dir), { withFileTypes: true })) {
        const path = join(dir, e.name);
        if (e.isDirectory()) await walk(path);
        else if (/\.(ts|sql)$/.test(e.name))
          for (const m of (await readFile(join(ROOT, path), 'utf8')).matchAll(/docs\/([\w-]+\.md)/g))
            if (!existsSync(join(ROOT, 'docs', m[1] as string))) missing.add(`${path}: docs/${m[1]}`);
      }
    };
    for (const dir of ['src', 'sql', 'test', 'pipelines']) await walk(dir);
    expect([...missing]).toEqual([]);
  });
});
