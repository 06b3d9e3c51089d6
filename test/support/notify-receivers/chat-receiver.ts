/**
 * A Slack-compatible incoming-webhook stand-in: the URL's path is the credential
 * (/services/T…/B…/<secret>); a wrong path is 404 "no_service", a body without `text` or with
 * malformed `blocks` is 400 "invalid_payload", a good one is 200 "ok" (what Slack answers).
 *
 * It posts where Slack posts. "Sending messages using incoming webhooks"
 * (https://api.slack.com/messaging/webhooks): "You cannot override the default channel (chosen by
 * the user who installed your app), username, or icon when you're using incoming webhooks", so a
 * message lands in the webhook's own channel and `channel`, `username`, `icon_emoji` and `icon_url`
 * are dropped (listed in `ignored`). And a button, even one with a `url`, still sends an
 * interaction payload to the app's Request URL that must be acknowledged (Block Kit button
 * element reference, https://docs.slack.dev/reference/block-kit/block-elements/button-element;
 * slackapi/node-slack-sdk#869): an app that only posts through a webhook cannot, and the user sees
 * a warning icon, so each interactive element is listed in `unacknowledgeable`.
 */
import { randomBytes } from 'node:crypto';
import { startHttpReceiver, type HttpReceiver } from './http-receiver.js';

interface PostedBody {
  text: string;
  blocks: Array<Record<string, unknown>>;
  [field: string]: unknown;
}

export interface PostedMessage {
  /** The webhook's own channel: where Slack posts whatever the body says. */
  channel: string;
  text: string;
  blocks: Array<Record<string, unknown>>;
  /** Fields an incoming webhook cannot override, which Slack drops. */
  ignored: string[];
  /** Interactive elements (buttons, menus…) whose clicks would reach no Request URL: their types. */
  unacknowledgeable: string[];
}

export interface ChatReceiver extends HttpReceiver {
  /** The full incoming-webhook URL, secret included. */
  webhookUrl: string;
  secret: string;
  /** The channel chosen when the webhook was installed. */
  channel: string;
  /** Accepted messages, as Slack would post them. */
  messages: PostedMessage[];
}

const OVERRIDES_IGNORED = ['channel', 'username', 'icon_emoji', 'icon_url'];
/** Block Kit interactive elements: they live in `actions` blocks or as a section's `accessory`. */
const INTERACTIVE =
  /^(button|checkboxes|datepicker|datetimepicker|multi_\w+|overflow|radio_buttons|\w+_select|timepicker|plain_text_input)$/;

function interactiveElements(blocks: Array<Record<string, unknown>>): string[] {
  const elements = blocks.flatMap((block) => [
    ...(block.type === 'actions' && Array.isArray(block.elements) ? (block.elements as Array<{ type?: unknown }>) : []),
    ...(block.accessory && typeof block.accessory === 'object' ? [block.accessory as { type?: unknown }] : []),
  ]);
  return elements.map((element) => String(element.type)).filter((type) => INTERACTIVE.test(type));
}

export async function startChatReceiver(channel = '#alerts-installed'): Promise<ChatReceiver> {
  const secret = randomBytes(12).toString('hex');
  const path = `/services/T0001/B0001/${secret}`;
  const messages: PostedMessage[] = [];
  const receiver = await startHttpReceiver((request) => {
    if (request.method !== 'POST' || request.path !== path) return { status: 404, body: 'no_service' };
    let body: PostedBody;
    try {
      body = JSON.parse(request.body) as PostedBody;
    } catch {
      return { status: 400, body: 'invalid_payload' };
    }
    const blocksValid =
      Array.isArray(body.blocks) &&
      body.blocks.length <= 50 &&
      body.blocks.every((block) => typeof block.type === 'string');
    if (typeof body.text !== 'string' || body.text === '' || !blocksValid)
      return { status: 400, body: 'invalid_payload' };
    messages.push({
      channel,
      text: body.text,
      blocks: body.blocks,
      ignored: OVERRIDES_IGNORED.filter((field) => field in body),
      unacknowledgeable: interactiveElements(body.blocks),
    });
    return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'ok' };
  });
  return Object.assign(receiver, { webhookUrl: `${receiver.url}${path}`, secret, channel, messages });
}
