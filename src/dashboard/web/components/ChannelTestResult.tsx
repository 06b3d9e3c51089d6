/** The downstream answer of a test send, as POST /notification-channels/{id}/test reports it. */
import type { ChannelTestAnswer } from '../api/types';

export function ChannelTestResult({ name, answer }: { name: string; answer: ChannelTestAnswer }) {
  return (
    <div
      class={`test-result card ${answer.success ? 'result-success' : 'result-failed'}`}
      role="status"
      data-testid="channel-test-result"
    >
      <p>
        <strong>
          Test of {name}: {answer.success ? 'delivered' : 'failed'}
        </strong>
        {answer.target === null || answer.target.startsWith('channel:') ? '' : ` — ${answer.target}`}
        {answer.status_code !== null ? ` — HTTP ${answer.status_code}` : ''}
        {answer.latency_ms !== null ? `, ${answer.latency_ms} ms` : ''}
      </p>
      {answer.error ? (
        <p>
          {answer.error.kind}: {answer.error.message}
        </p>
      ) : null}
      {answer.response_excerpt ? <pre class="excerpt">{answer.response_excerpt}</pre> : null}
    </div>
  );
}
