/** A minimal server-sent-events reader over fetch, for tests: collects parsed events as they arrive. */
export interface SseEvent {
  id?: string;
  event?: string;
  data: any;
}

export function connectSse(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const events: SseEvent[] = [];
  const comments: string[] = [];
  let status = 0;
  const done = (async () => {
    const response = await fetch(url, { headers, signal: controller.signal });
    status = response.status;
    if (!response.body) return;
    const decoder = new TextDecoder();
    let buffer = '';
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
      buffer += decoder.decode(chunk, { stream: true });
      let end: number;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const event: SseEvent = { data: undefined };
        const data: string[] = [];
        for (const line of frame.split('\n')) {
          if (line.startsWith(':')) comments.push(line.slice(1).trim());
          else if (line.startsWith('id: ')) event.id = line.slice(4);
          else if (line.startsWith('event: ')) event.event = line.slice(7);
          else if (line.startsWith('data: ')) data.push(line.slice(6));
        }
        if (data.length > 0) events.push({ ...event, data: JSON.parse(data.join('\n')) });
      }
    }
  })().catch((error: Error) => {
    if (error.name !== 'AbortError') throw error;
  });
  return {
    events,
    comments,
    status: () => status,
    close: async () => {
      controller.abort();
      await done;
    },
  };
}
