import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/http/redact.js';

describe('redactor', () => {
  it('takes every occurrence of every secret out, the longer first, and leaves the rest as it was', () => {
    const redact = redactor(['abcdefgh', 'abcdefghijkl', '', 'Passphrase9']);
    expect(redact('k=abcdefghijkl p=Passphrase9 again abcdefgh and Passphrase9')).toBe(
      'k=[redacted] p=[redacted] again [redacted] and [redacted]',
    );
    expect(redact('{"code":"40017","msg":"fine"}')).toBe('{"code":"40017","msg":"fine"}');
  });

  it('leaves strings shorter than the shortest credential alone: they would cut words apart', () => {
    expect(redactor(['k', 'net', 'Pass77'])('network Pass77')).toBe('network Pass77');
  });
});
