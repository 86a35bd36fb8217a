import type { Credentials } from './credentials.js';

/** One account to run: its name (the `account` column), where to reach it, and its credentials. */
export interface Account {
  name: string;
  baseUrl: string;
  credentials: Credentials;
}
