/**
 * A command without If-Match that kept losing its append to other writers for its whole time budget.
 * Not a conflict: the client did nothing wrong and the same request will land once the stream is
 * quieter, so the HTTP layer answers 503 with Retry-After (docs/http-conventions.md), never 409.
 */
export class StreamBusyError extends Error {
  override readonly name = 'StreamBusyError';
  constructor(
    readonly resourceName: string,
    /** When the client may try again (whole seconds, at least 1). */
    readonly retryAfterSeconds: number,
  ) {
    super(`${resourceName} is being changed by many writers at once; retry the request`);
  }
}

export const isStreamBusy = (error: unknown): error is StreamBusyError => error instanceof StreamBusyError;
