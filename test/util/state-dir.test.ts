import { homedir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stateDir } from '../../src/util/state-dir.js';

describe('stateDir', () => {
  it('is LEDGERPIPE_STATE_DIR as given, else the XDG cache directory, else ~/.cache, each with ledgerpipe', () => {
    expect(stateDir({ LEDGERPIPE_STATE_DIR: '/run/user/1000/lp', XDG_CACHE_HOME: '/x', HOME: '/home/ann' })).toBe(
      '/run/user/1000/lp',
    );
    expect(stateDir({ XDG_CACHE_HOME: '/x', HOME: '/home/ann' })).toBe('/x/ledgerpipe');
    expect(stateDir({ HOME: '/home/ann' })).toBe('/home/ann/.cache/ledgerpipe');
    // The XDG spec ignores a relative path; an empty variable is no value.
    expect(stateDir({ XDG_CACHE_HOME: 'cache', HOME: '/home/ann', LEDGERPIPE_STATE_DIR: '' })).toBe(
      '/home/ann/.cache/ledgerpipe',
    );
    expect(stateDir({})).toBe(join(homedir(), '.cache', 'ledgerpipe'));
  });
});
