/**
 * Statuses that can still change, per stream (docs/platform.md, "Statuses that can still change"): a
 * record in one of them is read again by nightly until it is final.
 */
export const OPEN_STATUSES: Readonly<Record<'withdrawals' | 'deposits', readonly string[]>> = {
  withdrawals: ['pending', 'pending_review'],
  deposits: ['pending'],
};
