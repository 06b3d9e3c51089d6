/**
 * A loopback stand-in for Anthropic's Messages API (POST /v1/messages), for the real SDK pointed at
 * it through `baseURL`. Each request is recorded and answered by a script: a message (text and
 * `tool_use` blocks), an API error with a status, or no answer at all (the client's timeout or abort
 * ends it). It checks what the real API would refuse: a missing key or version header, a version the
 * API does not know, a request without model, max_tokens or messages, tool results that do not
 * answer the tool_use blocks of the assistant turn before them, and sampling parameters under
 * `anthropic-version: 2026-10-21`.
 *
 * The versions and what 2026-10-21 removed: "Versions", https://platform.claude.com/docs/en/api/versioning
 * (2023-01-01, 2023-06-01, and 2026-10-21: "temperature, top_p and top_k removed: 400 error, even at
 * their default values"), as the migration guide for API version 2026-10-21 and the SDK 1.0.0
 * release notes repeat (the TypeScript SDK 1.x sends 2026-10-21 by default; older majors 2023-06-01).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Socket } from 'node:net';

export interface StandinRequest {
  index: number;
  headers: IncomingHttpHeaders;
  body: any;
}

export type ToolUseBlock = { type: 'tool_use'; id: string; name: string; input: unknown };
export type ContentBlock = { type: 'text'; text: string } | ToolUseBlock;

export type StandinReply =
  | { content: ContentBlock[]; stop_reason?: string; usage?: { input_tokens: number; output_tokens: number } }
  | { status: number; errorType: string; message: string }
  | { hang: true };

export type Script = (request: StandinRequest) => StandinReply | Promise<StandinReply>;

export interface AnthropicStandin {
  url: string;
  requests: StandinRequest[];
  script(script: Script): void;
  close(): Promise<void>;
}

export const text = (value: string): ContentBlock => ({ type: 'text', text: value });
export const toolUse = (
  name: string,
  input: unknown,
  id = `toolu_${randomUUID().replaceAll('-', '').slice(0, 20)}`,
): ToolUseBlock => ({ type: 'tool_use', id, name, input });

export interface SeenToolResult {
  name: string;
  input: unknown;
  content: string;
  is_error: boolean;
}

/** The tool results of the request's last user turn, with the name and input of the call each answers. */
export function toolResults(request: StandinRequest): SeenToolResult[] {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const last = messages.at(-1);
  const previous = messages.at(-2);
  if (!last || !Array.isArray(last.content) || !previous || !Array.isArray(previous.content)) return [];
  const uses = new Map(
    (previous.content as ContentBlock[]).flatMap((block) =>
      block.type === 'tool_use' ? [[block.id, block] as const] : [],
    ),
  );
  return (last.content as { type: string; tool_use_id: string; content: string; is_error?: boolean }[])
    .filter((block) => block.type === 'tool_result')
    .map((block) => {
      const use = uses.get(block.tool_use_id) as Extract<ContentBlock, { type: 'tool_use' }>;
      return { name: use.name, input: use.input, content: block.content, is_error: block.is_error === true };
    });
}

/** The key a request carries: `x-api-key`, or a bearer token (the SDK 1.x sends its apiKey that way). */
export function apiKeyOf(headers: IncomingHttpHeaders): string | undefined {
  const direct = headers['x-api-key'];
  if (typeof direct === 'string' && direct !== '') return direct;
  const bearer = /^Bearer (.+)$/.exec(headers.authorization ?? '');
  return bearer?.[1];
}

/** The `anthropic-version` values the API knows; any other is a 400. */
export const API_VERSIONS = ['2023-01-01', '2023-06-01', '2026-10-21'] as const;
/** The sampling parameters API version 2026-10-21 removed (a 400 whatever their value). */
const REMOVED_IN_2026_10_21 = ['temperature', 'top_p', 'top_k'];

function protocolError(body: any, headers: IncomingHttpHeaders): string | undefined {
  if (apiKeyOf(headers) === undefined) return 'missing x-api-key header';
  const version = headers['anthropic-version'];
  if (typeof version !== 'string') return 'missing anthropic-version header';
  if (!(API_VERSIONS as readonly string[]).includes(version)) return `anthropic-version: unknown version ${version}`;
  if (version >= '2026-10-21') {
    const removed = REMOVED_IN_2026_10_21.find((field) => body !== null && typeof body === 'object' && field in body);
    if (removed) return `${removed}: Extra inputs are not permitted`;
  }
  if (
    typeof body?.model !== 'string' ||
    typeof body?.max_tokens !== 'number' ||
    !Array.isArray(body?.messages) ||
    body.messages.length === 0
  ) {
    return 'model, max_tokens and messages are required';
  }
  const messages = body.messages as { role: string; content: unknown }[];
  for (let i = 0; i < messages.length; i++) {
    const content = messages[i]!.content;
    if (!Array.isArray(content)) continue;
    const results = content.filter((block: { type: string }) => block.type === 'tool_result') as {
      tool_use_id: string;
    }[];
    if (results.length === 0) continue;
    const before = messages[i - 1];
    const ids = new Set(
      Array.isArray(before?.content)
        ? (before.content as ContentBlock[]).flatMap((b) => (b.type === 'tool_use' ? [b.id] : []))
        : [],
    );
    if (results.length !== ids.size || results.some((r) => !ids.has(r.tool_use_id)))
      return `messages.${i}: tool_result blocks must answer every tool_use of the previous turn`;
  }
  return undefined;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${randomUUID()}` });
  res.end(JSON.stringify(body));
}

export async function startAnthropicStandin(initial?: Script): Promise<AnthropicStandin> {
  let script: Script = initial ?? (() => ({ content: [text('no script')] }));
  const requests: StandinRequest[] = [];
  const sockets = new Set<Socket>();
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url?.split('?')[0] !== '/v1/messages') {
      return send(res, 404, {
        type: 'error',
        error: { type: 'not_found_error', message: `no route ${req.method} ${req.url}` },
      });
    }
    let body: any;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: 'body is not JSON' } });
    }
    const refused = protocolError(body, req.headers);
    if (refused)
      return send(res, refused.startsWith('missing x-api-key') ? 401 : 400, {
        type: 'error',
        error: {
          type: refused.startsWith('missing x-api-key') ? 'authentication_error' : 'invalid_request_error',
          message: refused,
        },
      });
    const request: StandinRequest = { index: requests.length, headers: req.headers, body };
    requests.push(request);
    const reply = await script(request);
    if ('hang' in reply) return; // the client's timeout or abort closes the connection
    if ('status' in reply) {
      // retry-after-ms: 0 lets the SDK retry at once, so a test of its retries does not sleep.
      res.writeHead(reply.status, { 'content-type': 'application/json', 'retry-after-ms': '0' });
      return res.end(JSON.stringify({ type: 'error', error: { type: reply.errorType, message: reply.message } }));
    }
    const stop =
      reply.stop_reason ?? (reply.content.some((block) => block.type === 'tool_use') ? 'tool_use' : 'end_turn');
    send(res, 200, {
      id: `msg_${randomUUID().replaceAll('-', '')}`,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: reply.content,
      stop_reason: stop,
      stop_sequence: null,
      usage: reply.usage ?? { input_tokens: 100, output_tokens: 20 },
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    script(next) {
      script = next;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
