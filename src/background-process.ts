/** A process the platform runs in the background (an evaluator, a simulator's clock, a sync scheduler). */
export interface BackgroundProcess {
  /** Called once the server listens. */
  start(): void;
  stop(): Promise<void>;
}
