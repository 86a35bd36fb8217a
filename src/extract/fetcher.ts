import { z } from 'zod';
import { TransportError } from '../errors/transport-error.js';
import type { SignedClient } from '../http/client.js';
import { withRetry, type RetryDeps, type RetryPolicy } from '../http/retry.js';
import type { RateLimiter } from './rate-limiter.js';
import type { StreamStats } from './stats.js';

export interface FetcherDeps {
  client: SignedClient;
  limiter: RateLimiter;
  policy: RetryPolicy;
  retryDeps: Omit<RetryDeps, 'onEvent'>;
  stats: StreamStats;
}

/**
 * One endpoint's page reader: paced by the endpoint's limiter, retried per the policy, each attempt signed
 * afresh (or, for the public market endpoints, `signed: false`, sent without the ACCESS headers). A page whose
 * shape the stream cannot read counts as a transient failure (a proxy may have cut it).
 */
export function createFetcher<T>(
  path: string,
  read: (data: unknown) => T,
  deps: FetcherDeps,
  options: { signed?: boolean } = {},
) {
  const { client, limiter, policy, retryDeps, stats } = deps;
  const onEvent: RetryDeps['onEvent'] = (event) => {
    if (event.kind === 'rate-limited') {
      stats.rateLimited++;
      limiter.rateLimited();
    }
    if (event.kind === 'retry') stats.retries++;
  };
  return (params: Readonly<Record<string, string | undefined>>): Promise<T> =>
    withRetry(
      async () => {
        // The window counts the request from when it is written, as the platform counts its arrival.
        const sent = await limiter.reserve();
        stats.requests++;
        let data: unknown;
        try {
          data = await client.get(path, params, { ...options, onSent: sent });
        } finally {
          sent();
        }
        try {
          return read(data);
        } catch (error) {
          const detail =
            error instanceof z.ZodError
              ? error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')
              : String(error);
          throw new TransportError(`GET ${path}: an answer ledgerpipe cannot read (${detail})`, 'LP_BAD_PAGE', {
            cause: error,
          });
        }
      },
      policy,
      { ...retryDeps, onEvent },
      `GET ${path}`,
    );
}
