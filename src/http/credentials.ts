/** An account's API credentials. They go into request headers and signatures and nowhere else. */
export interface Credentials {
  apiKey: string;
  secretKey: string;
  passphrase: string;
}
