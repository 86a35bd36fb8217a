import { z } from 'zod';

/** A decimal amount as the platform writes it: a JSON string, optional sign, optional fraction, no exponent. */
export const decimalString = z.string().regex(/^[+-]?\d+(\.\d+)?$/, 'not a plain decimal string');
/** A Unix-millisecond time as the platform writes it: digits in a string. */
export const msString = z.string().regex(/^\d{1,16}$/, 'not a Unix millisecond time');
/** An id the platform pages on: digits in a string. */
export const idString = z.string().regex(/^\d{1,30}$/, 'not a numeric id');
