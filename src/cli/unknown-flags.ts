/**
 * The line for a mistyped flag (`--fait`): yargs says "Unknown argument: fait"; this names the flag as typed and
 * the nearest of the command's own flags, when one is close.
 */

/**
 * The edit distance of `a` and `b` with a swap of two neighbouring letters counted as one edit (the optimal string
 * alignment distance): `fait` is one edit from `fiat`, where insertions, deletions and substitutions alone count two.
 *
 * @example
 * editDistance('fait', 'fiat') // 1
 */
export function editDistance(a: string, b: string): number {
  // d[i][j]: the distance of a's first i letters and b's first j, one row per i, kept whole for the swap's look back.
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  const at = (i: number, j: number): number => (d[i] as number[])[j] as number;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, at(i - 2, j - 2) + 1);
      (d[i] as number[])[j] = best;
    }
  }
  return at(a.length, b.length);
}

/**
 * The known flag nearest `typed`, or none when none is close: at most a third of the typed letters apart (one
 * edit for a short flag), so that `--xyz` is not told it meant `--tz`. Ties go to the flag declared first.
 *
 * @example
 * nearestFlag('fait', ['from', 'fiat', 'fiat-rates']) // 'fiat'
 */
export function nearestFlag(typed: string, known: readonly string[]): string | undefined {
  const most = Math.max(1, Math.floor(typed.length / 3));
  let nearest: { flag: string; distance: number } | undefined;
  for (const flag of known) {
    const distance = editDistance(typed, flag);
    if (distance <= most && (nearest === undefined || distance < nearest.distance)) nearest = { flag, distance };
  }
  return nearest?.flag;
}

/**
 * The words of `argv` that are flags yargs reported unknown ("Unknown arguments: fait, x-y, xY"), as typed
 * (`--fait`, `--x-y`, `-x`, without a value after `=`), in the order typed. yargs also reports a kebab-case flag in
 * camel case, `--no-x` as `x`, and words that are no flag (an extra positional): none of those is a word typed.
 */
export function typedFlags(unknown: readonly string[], argv: readonly string[]): string[] {
  const typed: string[] = [];
  for (const word of argv) {
    if (word === '--') break;
    const name = /^--?([^=]+)/.exec(word)?.[1];
    if (name === undefined || !(unknown.includes(name) || unknown.includes(name.replace(/^no-/, '')))) continue;
    const flag = word.split('=')[0] as string;
    if (!typed.includes(flag)) typed.push(flag);
  }
  return typed;
}

/**
 * The one line for unknown flags of `command` (or of no command): each as typed, the nearest of `known` for each
 * that has one, and the help to read.
 *
 * @example
 * unknownFlagsLine(['--fait'], ['fiat', 'from'], 'run') // 'unknown flag --fait; did you mean --fiat? (see ledgerpipe run --help)'
 */
export function unknownFlagsLine(
  flags: readonly string[],
  known: readonly string[],
  command: string | undefined,
): string {
  const help = `(see ledgerpipe ${command === undefined ? '' : `${command} `}--help)`;
  const suggested = flags.flatMap((flag) => {
    const typed = flag.replace(/^--?/, '');
    // --no-<flag> turns a boolean flag off (yargs): what follows no- may be the mistyped flag.
    const negated = /^no-(.+)$/.exec(typed)?.[1];
    const off = negated === undefined ? undefined : nearestFlag(negated, known);
    const meant = nearestFlag(typed, known) ?? (off === undefined ? undefined : `no-${off}`);
    return meant === undefined ? [] : [{ flag, near: `--${meant}` }];
  });
  if (flags.length === 1)
    return `unknown flag ${flags[0]}${suggested[0] === undefined ? '' : `; did you mean ${suggested[0].near}?`} ${help}`;
  const meant = suggested.map((s) => `${s.near} for ${s.flag}`).join(', ');
  return `unknown flags ${flags.join(', ')}${meant === '' ? '' : `; did you mean ${meant}?`} ${help}`;
}
