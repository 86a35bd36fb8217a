import { z } from 'zod';

/** Every answer of the platform is wrapped in this (docs/platform.md, "Answers and errors"). */
export const envelopeSchema = z.object({
  code: z.string(),
  msg: z.string().nullish(),
  requestTime: z.union([z.number(), z.string()]).nullish(),
  data: z.unknown(),
});
export type Envelope = z.infer<typeof envelopeSchema>;

/** GET /api/v2/public/time answers `{ serverTime: "<ms>" }`. */
export const serverTimeSchema = z.object({ serverTime: z.union([z.string().regex(/^\d+$/), z.number()]) });

export const SUCCESS_CODE = '00000';
