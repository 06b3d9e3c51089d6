/** Waits until a condition holds, polling without sleeping for real seconds; fails at the deadline. */
export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  {
    timeoutMs = 5000,
    intervalMs = 5,
    message = 'condition',
  }: { timeoutMs?: number; intervalMs?: number; message?: string } = {},
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${message}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
