/** One HTTP request from a test, its answer parsed: JSON when it is JSON, the text otherwise (e.g. /metrics). */
export interface HttpAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export async function fetchAnswer(url: string, init: RequestInit, label: string): Promise<HttpAnswer> {
  const response = await fetch(url, init).catch((error: Error & { cause?: Error }) => {
    // undici says only "fetch failed"; the cause (a reset socket, a refused connection) is what helps.
    throw new Error(`${label}: ${error.message}: ${error.cause?.message ?? 'no cause given'}`, { cause: error });
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: response.status, headers: response.headers, body: parsed };
}
