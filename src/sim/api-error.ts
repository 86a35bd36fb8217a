/**
 * An error answer of the simulated platform: HTTP status plus the envelope's code and msg, as the live
 * service writes them (docs/platform.md, "Answers and errors").
 */
export class SimApiError extends Error {
  readonly status: number;
  readonly code: string;

  constructor(status: number, code: string, msg: string) {
    super(msg);
    this.name = 'SimApiError';
    this.status = status;
    this.code = code;
  }
}

/** Parameter errors: 40019 for a missing one, 40020 for a bad value (HTTP 400). */
export const missingParam = (name: string): SimApiError =>
  new SimApiError(400, '40019', `Parameter ${name} cannot be empty`);
export const badParam = (name: string): SimApiError => new SimApiError(400, '40020', `Parameter ${name} error`);
