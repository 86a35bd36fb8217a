import { createRng } from './data/rng.js';

/** The failures `--faults P` injects: what a real network and a real platform do now and then. */
export const FAULT_KINDS = ['http500', 'http502', 'reset', 'truncate', 'stall'] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/**
 * Decides, request by request, whether to fail and how. Seeded: the n-th request gets the same decision for
 * the same seed, so a failing test can be replayed.
 */
export function createFaultPlan(seed: string, probability: number): () => FaultKind | undefined {
  if (!(probability >= 0 && probability <= 1))
    throw new RangeError(`--faults must be between 0 and 1, got ${probability}`);
  const rng = createRng(`ledgerpipe-sim-faults:${seed}`);
  return () => {
    if (probability === 0 || !rng.chance(probability)) return undefined;
    return rng.pick(FAULT_KINDS);
  };
}

/** What a gateway in front of the live service answers when the service behind it is gone. */
export const BAD_GATEWAY_HTML =
  '<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n';
