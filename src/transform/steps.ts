/** A step of a transform and how long it took. */
export interface Step {
  name: string;
  ms: number;
}

/**
 * The transform's steps as it takes them, each timed: the SQL files it runs and the checks. The transform stage logs
 * them (src/transform/stage.ts: their sum, and each at debug level).
 */
export class Steps {
  readonly files: Step[] = [];
  readonly checks: Step[] = [];

  constructor(private readonly clock: () => number) {}

  /** Runs `work`, recorded as a file's step (or a check's) under `name`. */
  async time<T>(name: string, work: () => Promise<T>, kind: 'files' | 'checks' = 'files'): Promise<T> {
    const started = this.clock();
    const result = await work();
    this[kind].push({ name, ms: Math.round(this.clock() - started) });
    return result;
  }

  /** A step that took no time of its own, said for the record (what was typed again). */
  note(name: string): void {
    this.files.push({ name, ms: 0 });
  }
}
