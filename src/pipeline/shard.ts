import { createHash } from 'node:crypto';
import { UsageError } from '../errors/usage-error.js';

/** `--shard i/n`: this process runs the i-th of n parts of the config's accounts (docs/many-accounts.md). */
export interface Shard {
  index: number;
  count: number;
}

/** Reads `--shard i/n`, i from 0 to n-1 (a Kubernetes completion index as it comes). */
export function parseShard(text: string | undefined): Shard | undefined {
  if (text === undefined) return undefined;
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  const index = Number(match?.[1]);
  const count = Number(match?.[2]);
  if (match === null || count < 1 || index >= count)
    throw new UsageError(
      `--shard ${text} is not i/n with i from 0 to n-1 (such as 0/4); give the part this process runs`,
    );
  return { index, count };
}

/**
 * The part an account belongs to: the first 48 bits of the SHA-256 of its name, modulo n. It depends on the
 * name and n alone, so every process computes the same split, each account is in exactly one part, and adding or
 * removing an account moves no other; changing n moves most of them.
 */
export function shardOf(name: string, count: number): number {
  return Number(BigInt(`0x${createHash('sha256').update(name).digest('hex').slice(0, 12)}`) % BigInt(count));
}
