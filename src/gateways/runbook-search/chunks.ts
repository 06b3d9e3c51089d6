// Splits a runbook (markdown) into search chunks, one per `##` section, so an answer can cite the
// runbook and the section it came from. Long sections are cut at paragraph boundaries (or, for a
// single huge paragraph, at a hard character limit) so every chunk fits an embedding request and a
// vector store's text field.

export interface RunbookChunk {
  /** Stable id: the same runbook text always yields the same ids, which keeps indexing idempotent. */
  id: string;
  runbook: string;
  title: string;
  section: string;
  text: string;
}

export const MAX_CHUNK_CHARS = 1_500;

export function chunkRunbook(runbook: string, markdown: string, maxChars = MAX_CHUNK_CHARS): RunbookChunk[] {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  let title = runbook;
  const sections: { heading: string; body: string[] }[] = [];
  let current: { heading: string; body: string[] } | undefined;
  for (const line of lines) {
    const h1 = /^#\s+(.+?)\s*$/.exec(line);
    const h2 = /^##\s+(.+?)\s*$/.exec(line);
    if (h1 && !current && sections.length === 0) {
      title = h1[1]!;
      continue;
    }
    if (h2) {
      current = { heading: h2[1]!, body: [] };
      sections.push(current);
      continue;
    }
    // Text before the first `##` belongs to an "Overview" section so nothing is silently dropped.
    if (!current) {
      if (line.trim() === '') continue;
      current = { heading: 'Overview', body: [] };
      sections.push(current);
    }
    current.body.push(line);
  }
  const chunks: RunbookChunk[] = [];
  for (const { heading, body } of sections) {
    const parts = splitBounded(body.join('\n').trim(), maxChars);
    parts.forEach((text, i) => {
      const suffix = parts.length > 1 ? `-${i + 1}` : '';
      chunks.push({ id: `${runbook}#${slug(heading)}${suffix}`, runbook, title, section: heading, text });
    });
  }
  return chunks.filter((c) => c.text.length > 0);
}

function splitBounded(text: string, maxChars: number): string[] {
  if (text.length <= maxChars) return [text];
  const out: string[] = [];
  let buf = '';
  for (const para of text.split(/\n{2,}/)) {
    for (const piece of hardSplit(para, maxChars)) {
      if (buf && buf.length + 2 + piece.length > maxChars) {
        out.push(buf);
        buf = '';
      }
      buf = buf ? `${buf}\n\n${piece}` : piece;
    }
  }
  if (buf) out.push(buf);
  return out;
}

function hardSplit(para: string, maxChars: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < para.length; i += maxChars) out.push(para.slice(i, i + maxChars));
  return out;
}

export function slug(s: string): string {
  return (
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'section'
  );
}
