/** Whether a live feed is connected. */
import type { FeedState } from '../api/event-feed';

export function FeedBadge({ state }: { state: FeedState }) {
  return (
    <span class={`feed feed-${state}`} data-feed-state={state}>
      {state === 'live' ? '● live' : state === 'connecting' ? '○ connecting' : '○ reconnecting'}
    </span>
  );
}
