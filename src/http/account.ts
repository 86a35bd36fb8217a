import type { Credentials } from './credentials.js';

/** One account to run: its name (the `account` column), where to reach it, and its credentials. */
export interface Account {
  name: string;
  baseUrl: string;
  credentials: Credentials;
  /** What its config says of its copy trading (docs/unified-accounts.md, "Copy trading"); none without. */
  copyTrading?: { projects: readonly string[]; leadTrader: boolean };
}
