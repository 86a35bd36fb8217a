import { describe, expect, it } from 'vitest';
import { redactor } from '../../src/http/redact.js';

describe('redactor', () => {
  it('takes every occurrence of every secret out, the longer first, and leaves the rest as it was', () => {
    const redact = redactor(['abc', 'abcdef', '', 'Pass9']);
    expect(redact('k=abcdef p=Pass9 again abc and Pass9')).toBe('k=[redacted] p=[redacted] again [redacted] and [redacted]');
    expect(redact('{"code":"40017","msg":"fine"}')).toBe('{"code":"40017","msg":"fine"}');
    expect(redactor([''])('abc')).toBe('abc');
  });
});
