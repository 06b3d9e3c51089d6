/** Whether a live feed is connected; and, while live updates are paused, the note saying why. */
import type { FeedState } from '../api/event-feed';

const WORDS: Record<FeedState, string> = {
  live: '● live',
  connecting: '○ connecting',
  reconnecting: '○ reconnecting',
  paused: '○ paused, refreshing',
};

export function FeedBadge({ state, note }: { state: FeedState; note?: string }) {
  return (
    <span class={`feed feed-${state}`} data-feed-state={state} title={note}>
      {WORDS[state]}
    </span>
  );
}

/** "Live updates are paused: …; refreshing every 15 s", shown under a page's heading while paused. */
export function FeedPausedNote({ state, note }: { state: FeedState; note?: string }) {
  if (state !== 'paused' || !note) return null;
  return (
    <p class="feed-note" role="status" data-testid="feed-paused-note">
      {note}
    </p>
  );
}
