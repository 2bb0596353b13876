/**
 * Resolves with `check()`'s first truthy value, polling every `intervalMs`; rejects after `timeoutMs` naming `what`
 * ("timed out after 5000 ms waiting for <what>"). For conditions that other work makes true: a subscriber count, a
 * log line, a call that reached a simulator, an answer from a server. An asynchronous check is awaited: its promise
 * is never itself the truthy value (which would end the wait before anything was checked).
 */
export async function until<T>(
  what: string,
  check: () => T | Promise<T>,
  timeoutMs = 10_000,
  intervalMs = 10,
): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
