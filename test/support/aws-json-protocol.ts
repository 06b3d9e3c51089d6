/** The AWS JSON 1.1 protocol as the stand-ins of AWS services speak it (Redshift Data API, Athena). */
import type { IncomingMessage, ServerResponse } from 'node:http';

export async function readJson(request: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  const text = Buffer.concat(chunks).toString('utf8');
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}

/** An answer; `errorType` makes it an AWS error the SDK maps to its typed exception. */
export function reply(response: ServerResponse, status: number, body: unknown, errorType?: string): void {
  response.writeHead(status, {
    'content-type': 'application/x-amz-json-1.1',
    'x-amzn-requestid': 'standin-request',
    ...(errorType ? { 'x-amzn-errortype': errorType } : {}),
  });
  response.end(JSON.stringify(body));
}
