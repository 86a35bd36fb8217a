import { describe, expect, it } from 'vitest';
import { parseInstant, yearRange } from '../../src/time/instant.js';

const at = (text: string, zone: string) => new Date(parseInstant(text, zone)).toISOString();

describe('local times where the clocks change', () => {
  it('moves a skipped time forward by the jump, the same way in every zone', () => {
    // Berlin and New York both jump from 02:00 to 03:00: 02:30 is 03:30 local in both.
    expect(at('2025-03-30T02:30', 'Europe/Berlin')).toBe('2025-03-30T01:30:00.000Z');
    expect(at('2025-03-09T02:30', 'America/New_York')).toBe('2025-03-09T07:30:00.000Z');
  });

  it('starts a day whose midnight is skipped when its clocks jump, not an hour early', () => {
    // The clocks go from 00:00 to 01:00 local: the day begins at 01:00 local.
    expect(at('2025-09-07', 'America/Santiago')).toBe('2025-09-07T04:00:00.000Z');
    expect(at('2025-03-09', 'America/Havana')).toBe('2025-03-09T05:00:00.000Z');
    expect(at('2024-10-06', 'America/Asuncion')).toBe('2024-10-06T04:00:00.000Z');
    // The day before is an ordinary one, and ends where that one begins.
    expect(at('2025-09-06', 'America/Santiago')).toBe('2025-09-06T04:00:00.000Z');
  });

  it('takes a repeated time at its first occurrence', () => {
    expect(at('2025-10-26T02:30', 'Europe/Berlin')).toBe('2025-10-26T00:30:00.000Z');
    expect(at('2025-11-02T01:30', 'America/New_York')).toBe('2025-11-02T05:30:00.000Z');
  });

  it('gives years that meet end to end, in zones near both sides of the date line', () => {
    const nz = yearRange(2025, 'Pacific/Auckland');
    expect([new Date(nz.from).toISOString(), new Date(nz.to).toISOString()]).toEqual([
      '2024-12-31T11:00:00.000Z',
      '2025-12-31T11:00:00.000Z',
    ]);
    expect(yearRange(2026, 'Pacific/Auckland').from).toBe(nz.to);
    expect(new Date(yearRange(2025, 'Pacific/Pago_Pago').from).toISOString()).toBe('2025-01-01T11:00:00.000Z');
  });
});
