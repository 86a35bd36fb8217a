import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * Where ledgerpipe keeps what processes of one machine share (the IP budget's files, docs/many-accounts.md): the
 * user's cache directory, as the XDG Base Directory spec places it. `LEDGERPIPE_STATE_DIR` wins, as given; else
 * `$XDG_CACHE_HOME/ledgerpipe` (the spec ignores a relative XDG_CACHE_HOME, and so does this); else
 * `~/.cache/ledgerpipe`, `~` being `$HOME`, else the account's home directory. Nothing is created here: the folder is
 * made when first written, and one that cannot be is said then.
 *
 * @example
 * stateDir({ HOME: '/home/ann' }); // '/home/ann/.cache/ledgerpipe'
 * stateDir({ LEDGERPIPE_STATE_DIR: '/run/user/1000/ledgerpipe' }); // '/run/user/1000/ledgerpipe'
 */
export function stateDir(env: NodeJS.ProcessEnv): string {
  const given = env['LEDGERPIPE_STATE_DIR'];
  if (given !== undefined && given !== '') return given;
  const xdg = env['XDG_CACHE_HOME'];
  if (xdg !== undefined && isAbsolute(xdg)) return join(xdg, 'ledgerpipe');
  const home = env['HOME'];
  return join(home !== undefined && home !== '' ? home : homedir(), '.cache', 'ledgerpipe');
}
