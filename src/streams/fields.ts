import { z } from 'zod';

/**
 * A decimal amount as the platform writes it: a JSON string, optional sign, optional fraction, no exponent,
 * and within DECIMAL(38,18) (20 whole digits, 18 decimals), so the warehouse holds it exactly. Anything else
 * is quarantined rather than rounded.
 */
export const decimalString = z
  .string()
  .regex(/^[+-]?\d+(\.\d+)?$/, { message: 'not a plain decimal string', abort: true })
  .regex(/^[+-]?0*\d{1,20}(\.\d{1,18}0*)?$/, 'more digits than DECIMAL(38,18) holds exactly');
/** An amount the platform may leave out or empty (lp_amount reads both as NULL), else a plain decimal as above. */
export const optionalDecimalString = z.preprocess(
  (value) => (value === '' ? undefined : value),
  decimalString.nullish(),
);
/** A Unix-millisecond time as the platform writes it: digits in a string. */
export const msString = z.string().regex(/^\d{1,16}$/, 'not a Unix millisecond time');
/** An id the platform pages on: digits in a string. */
export const idString = z.string().regex(/^\d{1,30}$/, 'not a numeric id');
/** Text the platform may leave out or send as null. */
export const optionalText = z.string().nullish();
