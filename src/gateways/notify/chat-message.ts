/**
 * The chat message: a Slack-compatible incoming-webhook body (also accepted by Mattermost,
 * Rocket.Chat and the Slack-compatible endpoints of other chat tools). `text` is the fallback shown
 * in notifications; `blocks` lay the alert out. Pure.
 *
 * No `channel`: an incoming webhook posts to the channel chosen when it was installed and ignores
 * any other ("You cannot override the default channel … when you're using incoming webhooks",
 * https://api.slack.com/messaging/webhooks), so the channel's `channel_name` is a label for people.
 * The incident link is a mrkdwn link. A page with action links (src/action-links) also gets an
 * `actions` block of two URL buttons, Acknowledge and Resolve: a URL button opens its link in the
 * browser whatever the app does with the interaction payload Slack also sends (Block Kit button
 * element, https://docs.slack.dev/reference/block-kit/block-elements/button-element); the links
 * are in the text too, for Slack-compatible tools that drop blocks they do not know.
 */
import { alertSummary, statusWord, valueAgainstThreshold } from './alert-text.js';
import type { AlertMessage } from './port.js';

/** Slack's mrkdwn gives &, < and > a meaning; user-supplied text must not create links or mentions. */
export const escapeMrkdwn = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

const STATUS_MARK = {
  triggered: ':red_circle:',
  acknowledged: ':large_yellow_circle:',
  resolved: ':large_green_circle:',
} as const;

export function chatMessage(message: AlertMessage) {
  const field = (label: string, value: string) => ({
    type: 'mrkdwn',
    text: clip(`*${label}*\n${escapeMrkdwn(value)}`, 2000),
  });
  const mrkdwnLink = (url: string, label: string) => `<${url.replace(/[|>]/g, encodeURIComponent)}|${label}>`;
  const link = mrkdwnLink(message.incidentUrl, 'Open incident');
  const actions = message.actions;
  const actionLinks = actions
    ? ` · ${mrkdwnLink(actions.acknowledgeUrl, 'Acknowledge')} · ${mrkdwnLink(actions.resolveUrl, 'Resolve')}`
    : '';
  return {
    text: `${escapeMrkdwn(alertSummary(message))} ${link}${actionLinks}`,
    blocks: [
      { type: 'header', text: { type: 'plain_text', text: clip(`${statusWord(message)}: ${message.title}`, 150) } },
      {
        type: 'section',
        fields: [
          field('Severity', `${message.severity}`),
          ...(message.ruleName === null ? [field('Source', message.source)] : [field('Rule', message.ruleName)]),
          ...(message.metric === null
            ? [field('Detail', message.detail ?? '-')]
            : [field('Metric', message.metric), field('Value vs threshold', valueAgainstThreshold(message))]),
          field('Cluster', message.cluster ?? '-'),
          field('Status', message.status),
        ],
      },
      { type: 'section', text: { type: 'mrkdwn', text: `${STATUS_MARK[message.status]} ${link}${actionLinks}` } },
      ...(actions
        ? [
            {
              type: 'actions',
              elements: [
                {
                  type: 'button',
                  action_id: 'acknowledge',
                  text: { type: 'plain_text', text: 'Acknowledge' },
                  style: 'primary',
                  url: actions.acknowledgeUrl,
                },
                {
                  type: 'button',
                  action_id: 'resolve',
                  text: { type: 'plain_text', text: 'Resolve' },
                  url: actions.resolveUrl,
                },
              ],
            },
          ]
        : []),
      {
        type: 'context',
        elements: [{ type: 'mrkdwn', text: escapeMrkdwn(`Incident ${message.incidentId} · ${message.occurredAt}`) }],
      },
    ],
  };
}
