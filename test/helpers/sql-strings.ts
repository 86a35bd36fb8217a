/**
 * The string literals of a TypeScript file that are SQL: a literal (quoted or a template, each template counted
 * whole and each template inside one's `${}` apart) that starts a statement with one of the words below, in
 * capitals. The rule of scripts/code-figures.ts (issue 46's figure "SQL strings in src/ outside the simulator"),
 * but a template is read without its backquotes, so that one starting with SELECT counts too; read with a small
 * scanner instead of a parser: comments and regular expressions are skipped.
 */
const SQL_STATEMENT =
  /(^|[\s(])(SELECT|INSERT INTO|CREATE (OR REPLACE )?(TEMP |TEMPORARY )?(TABLE|VIEW|MACRO|INDEX|SCHEMA)|DELETE FROM|UPDATE \w|COPY |WITH \w+ AS|ALTER TABLE|DROP (TABLE|VIEW|MACRO))\b/;

/** Characters after which a `/` starts a regular expression rather than a division. */
const BEFORE_REGEX = new Set([
  '',
  '(',
  ',',
  '=',
  ':',
  '[',
  '!',
  '&',
  '|',
  '?',
  '{',
  '}',
  ';',
  '+',
  '-',
  '*',
  '%',
  '<',
  '>',
  '~',
  '^',
]);

/** Every string literal of `text` without its quotes (a template whole, `${}` and all), with the line it starts on. */
export function stringLiterals(text: string): { value: string; line: number }[] {
  const found: { value: string; line: number }[] = [];
  const lineAt = (i: number) => text.slice(0, i).split('\n').length;
  /** Scans code from `i` until an unmatched `}` (inside a template's `${}`) or the end; returns where it stopped. */
  const code = (start: number): number => {
    let i = start;
    let depth = 0;
    let previous = '';
    while (i < text.length) {
      const ch = text[i] as string;
      if (/\s/.test(ch)) {
        i++;
        continue;
      }
      if (text.startsWith('//', i)) i = text.indexOf('\n', i) < 0 ? text.length : text.indexOf('\n', i);
      else if (text.startsWith('/*', i)) i = text.indexOf('*/', i + 2) + 2;
      else if (ch === "'" || ch === '"') {
        let j = i + 1;
        while (j < text.length && text[j] !== ch) j += text[j] === '\\' ? 2 : 1;
        found.push({ value: text.slice(i + 1, j), line: lineAt(i) });
        i = j + 1;
        previous = 'x';
      } else if (ch === '`') {
        const at = i;
        i = template(i + 1);
        found.push({ value: text.slice(at + 1, i - 1), line: lineAt(at) });
        previous = 'x';
      } else if (
        ch === '/' &&
        (BEFORE_REGEX.has(previous) || /\b(return|typeof|of|in)$/.test(text.slice(Math.max(0, i - 8), i).trimEnd()))
      ) {
        let j = i + 1;
        let inClass = false;
        while (j < text.length && (text[j] !== '/' || inClass)) {
          if (text[j] === '[') inClass = true;
          else if (text[j] === ']') inClass = false;
          j += text[j] === '\\' ? 2 : 1;
        }
        i = j + 1;
        previous = 'x';
      } else {
        if (ch === '{') depth++;
        if (ch === '}') {
          if (depth === 0) return i;
          depth--;
        }
        previous = ch;
        i++;
      }
    }
    return i;
  };
  /** Scans a template's text from `start` (after its backquote); returns the index after its closing backquote. */
  const template = (start: number): number => {
    let i = start;
    while (i < text.length && text[i] !== '`') {
      if (text[i] === '\\') i += 2;
      else if (text.startsWith('${', i)) i = code(i + 2) + 1;
      else i++;
    }
    return i + 1;
  };
  code(0);
  return found;
}

/** How many SQL string literals `text` holds, and on which lines. */
export function sqlStrings(text: string): number[] {
  return stringLiterals(text)
    .filter((s) => SQL_STATEMENT.test(s.value))
    .map((s) => s.line);
}
