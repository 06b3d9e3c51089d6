/**
 * Amazon SNS's HTTP(S) endpoint messages read (the JSON body SNS posts as text/plain, its
 * `x-amz-sns-message-type` header naming the type) and a CloudWatch alarm notification turned into
 * a normalized alert. Pure: commands/receiver-routes.ts verifies the signature and confirms
 * subscriptions through the SNS gateway (src/gateways/sns).
 *
 * CloudWatch's alarm message (the Notification's `Message`, itself JSON): `AlarmName`,
 * `AlarmDescription`, `AWSAccountId`, `NewStateValue` (ALARM, OK, INSUFFICIENT_DATA),
 * `NewStateReason`, `StateChangeTime`, `Region`, `AlarmArn`, `OldStateValue`, `Trigger`. ALARM
 * triggers, OK resolves, INSUFFICIENT_DATA changes nothing; the dedup key is the alarm's ARN (its
 * name when there is none), so one alarm is one open incident.
 */
import type { NormalizedAlert } from '../src/events/inbound-alert.js';
import { SNS_MESSAGE_TYPES, type SnsMessage } from '../src/gateways/sns/sns-signature.js';
import { instantOf } from './events-v2.js';
import { isObject, receiverAlert, type Read } from './receiver-alert.js';
import type { RoutedIntegration } from './routing-key-gate.js';

type Errors = { path: string; message: string }[];

export function readSnsMessage(body: Record<string, unknown>, headerType: string | undefined): Read<SnsMessage> {
  const errors: Errors = [];
  const need = (name: string) => {
    const value = body[name];
    if (typeof value !== 'string' || value === '') errors.push({ path: `/${name}`, message: 'is required (a string)' });
  };
  const optional = (name: string) => {
    // Absent or null: not sent (a Notification without Subject signs without it).
    if (body[name] !== undefined && body[name] !== null && typeof body[name] !== 'string')
      errors.push({ path: `/${name}`, message: 'must be a string' });
  };
  if (!(SNS_MESSAGE_TYPES as readonly unknown[]).includes(body.Type))
    errors.push({ path: '/Type', message: `must be one of ${SNS_MESSAGE_TYPES.join(', ')}` });
  else if (headerType !== undefined && headerType !== body.Type)
    errors.push({ path: '/Type', message: 'differs from the x-amz-sns-message-type header' });
  for (const name of ['MessageId', 'TopicArn', 'Message', 'Timestamp', 'Signature', 'SigningCertURL']) need(name);
  if (body.SignatureVersion !== '1' && body.SignatureVersion !== '2')
    errors.push({ path: '/SignatureVersion', message: 'must be "1" (SHA1) or "2" (SHA256)' });
  optional('Subject');
  optional('UnsubscribeURL');
  if (body.Type === 'SubscriptionConfirmation' || body.Type === 'UnsubscribeConfirmation') {
    need('SubscribeURL');
    need('Token');
  }
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, value: body as unknown as SnsMessage };
}

const ALARM_ACTIONS = { ALARM: 'trigger', OK: 'resolve' } as const;

/**
 * The alert of a CloudWatch alarm notification; null when there is nothing to do
 * (INSUFFICIENT_DATA); errors when the Message is not an alarm.
 */
export function readCloudWatchAlarm(message: SnsMessage, integration: RoutedIntegration): Read<NormalizedAlert | null> {
  let alarm: unknown;
  try {
    alarm = JSON.parse(message.Message);
  } catch {
    alarm = undefined;
  }
  if (!isObject(alarm) || typeof alarm.AlarmName !== 'string' || alarm.AlarmName === '')
    return {
      ok: false,
      errors: [{ path: '/Message', message: 'must be a CloudWatch alarm notification (JSON with AlarmName)' }],
    };
  const state = alarm.NewStateValue;
  if (state === 'INSUFFICIENT_DATA') return { ok: true, value: null };
  if (state !== 'ALARM' && state !== 'OK')
    return {
      ok: false,
      errors: [{ path: '/Message/NewStateValue', message: 'must be ALARM, OK or INSUFFICIENT_DATA' }],
    };
  const str = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
  const arn = str(alarm.AlarmArn);
  const reason = str(alarm.NewStateReason);
  return {
    ok: true,
    value: receiverAlert(integration, {
      dedupKey: arn ?? alarm.AlarmName,
      action: ALARM_ACTIONS[state],
      title: reason ? `${alarm.AlarmName}: ${reason}` : alarm.AlarmName,
      sender: {
        source: str(alarm.Region) ?? message.TopicArn,
        component: str(alarm.AWSAccountId),
        class: 'CloudWatch alarm',
        timestamp: typeof alarm.StateChangeTime === 'string' ? (instantOf(alarm.StateChangeTime) ?? null) : null,
        client: 'Amazon CloudWatch',
        custom_details: {
          alarm_name: alarm.AlarmName,
          alarm_arn: arn,
          alarm_description: str(alarm.AlarmDescription),
          new_state_reason: reason,
          old_state_value: str(alarm.OldStateValue),
          trigger: alarm.Trigger ?? null,
          topic_arn: message.TopicArn,
          message_id: message.MessageId,
        },
      },
    }),
  };
}
