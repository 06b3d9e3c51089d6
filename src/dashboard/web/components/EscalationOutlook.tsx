/**
 * The incident's escalation as it stands now (never as of the slider): its rule and policy
 * (linked), the stage that fired last, what happens next (the next stage's time and whom it
 * pages, the on-call person of a schedule target by name; or no further stage; or stopped), who is
 * on call now for every schedule the policy pages through, and who was paged by which medium and
 * when (the incident's `escalation.notified`, readable with incidents:read alone).
 */
import type { Incident, NotifiedDelivery } from '../api/types';
import { time } from '../format';
import type { EscalationPlan, Outlook, PlanTarget } from './escalation-outlook';
import type { ChannelLabel } from './IncidentTimeline';
import type { OncallNow } from './use-oncall-now';
import { targetName, type TargetChoice } from './use-policy-targets';
import type { Who } from './use-people';

interface Props {
  incident: Incident;
  plan: EscalationPlan | undefined;
  outlook: Outlook;
  schedules: string[];
  oncall: OncallNow | undefined;
  choices: TargetChoice[];
  who: Who;
  channel: ChannelLabel;
  now: number;
}

/** How far off a moment is, as a person says it ("in 4 min"). */
export function until(iso: string, now: number): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  if (seconds <= 0) return 'due now';
  if (seconds < 60) return 'in under a minute';
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `in ${minutes} min` : `in ${Math.round(minutes / 60)} h`;
}

function onCallName(oncall: OncallNow | undefined, scheduleId: string): string {
  if (!oncall) return 'unknown (needs schedules:read)';
  const answer = oncall.get(scheduleId);
  if (!answer) return '…';
  if ('error' in answer) return `unknown (${answer.error})`;
  return answer.current_oncall ? answer.current_oncall.name : 'nobody';
}

function targetText(target: PlanTarget, props: Props): string {
  const media = target.channels.length > 0 ? ` by ${target.channels.join(', ')}` : '';
  switch (target.type) {
    case 'user':
      return `${props.who(target.id)}${media}`;
    case 'group':
      return `group ${targetName(props.choices, 'group', target.id)}${media}`;
    case 'schedule':
      return `${targetName(props.choices, 'schedule', target.id)} schedule (on call now: ${onCallName(props.oncall, target.id)})${media}`;
    default:
      return `${targetName(props.choices, 'channel', target.id)} (channel)`;
  }
}

function nextText(props: Props): string {
  const { outlook, now } = props;
  switch (outlook.kind) {
    case 'stopped':
      return `${outlook.because === 'acknowledged' ? 'Acknowledged' : 'Resolved'}: escalation stopped.`;
    case 'starting':
      return 'Starting: stage 1 fires now.';
    case 'not_started':
      return 'Not started: its policy was gone when the incident triggered, so nobody is paged.';
    case 'finished': {
      const repeats = props.plan && props.plan.repeatIntervalMinutes > 0;
      return `No further stages${outlook.lastStage ? `: stage ${outlook.lastStage} was the last` : ''}${props.plan && !repeats ? ' and the policy does not repeat' : ''}.`;
    }
    case 'next': {
      const when = `${time(outlook.dueAt)} (${until(outlook.dueAt, now)})`;
      if (!outlook.stage) return `Next stage at ${when}.`;
      const which = outlook.repeat
        ? `Stage ${outlook.stage.stageOrder} again (repeats every ${outlook.repeatIntervalMinutes} min)`
        : `Stage ${outlook.stage.stageOrder}`;
      const targets = outlook.stage.targets.map((target) => targetText(target, props)).join('; ');
      return `${which} at ${when} → ${targets || 'nobody'}.`;
    }
  }
}

function recipientText(delivery: NotifiedDelivery, who: Who, channel: ChannelLabel): string {
  const key = delivery.recipient ?? '';
  if (key.startsWith('channel:')) return channel(key.slice('channel:'.length)) ?? delivery.target;
  return key ? `${who(key)} (${delivery.target})` : delivery.target;
}

const KIND: Record<NotifiedDelivery['kind'], string> = {
  stage: '',
  resolution: ' (all-clear)',
  acknowledgement: ' (acknowledgement)',
};

export function EscalationOutlook(props: Props) {
  const { incident, plan, outlook, schedules, oncall, choices, who, channel } = props;
  const escalation = incident.escalation;
  const policyName = escalation?.policy_name ?? plan?.policyName ?? 'its policy';
  const current = escalation?.current_stage;
  const paged = escalation?.notified ?? [];
  return (
    <section class="outlook" aria-labelledby="outlook-heading">
      <h2 id="outlook-heading">Escalation now</h2>
      <dl class="facts" data-testid="escalation-outlook">
        <dt>{incident.rule_id === null ? 'Source' : 'Rule'}</dt>
        <dd>
          {incident.rule_id === null ? (
            incident.source
          ) : (
            <a href={`#/alert-rules/${encodeURIComponent(incident.rule_id)}`} data-testid="rule-link">
              {incident.rule_name}
            </a>
          )}
        </dd>
        <dt>Policy</dt>
        <dd>
          {incident.escalation_policy_id ? (
            <a href={`#/policies/${encodeURIComponent(incident.escalation_policy_id)}`} data-testid="policy-link">
              {policyName}
            </a>
          ) : (
            policyName
          )}
          {plan?.source === 'policy' ? <span class="muted"> (stages as the policy is now)</span> : null}
        </dd>
        <dt>Current stage</dt>
        <dd data-testid="current-stage">
          {current
            ? `stage ${current.stage_order}${current.cycle > 0 ? `, repeat ${current.cycle}` : ''}, fired ${time(current.fired_at)}`
            : 'none fired yet'}
        </dd>
        <dt>Next</dt>
        <dd data-testid="next-escalation" data-kind={outlook.kind}>
          {nextText(props)}
        </dd>
        {schedules.length > 0 ? (
          <>
            <dt>On call now</dt>
            <dd>
              <ul class="plain-list" data-testid="oncall-now">
                {schedules.map((id) => (
                  <li key={id} data-schedule-id={id}>
                    {targetName(choices, 'schedule', id)}: {onCallName(oncall, id)}
                  </li>
                ))}
              </ul>
            </dd>
          </>
        ) : null}
        <dt>Paged</dt>
        <dd>
          {paged.length === 0 ? (
            <span data-testid="paged">nobody yet</span>
          ) : (
            <ul class="plain-list" data-testid="paged">
              {paged.map((delivery, index) => (
                <li key={index} class={delivery.ok ? undefined : 'error-text'}>
                  {time(delivery.at)} {recipientText(delivery, who, channel)} by {delivery.medium ?? 'no medium'}
                  {KIND[delivery.kind]}
                  {delivery.stage_order !== null && delivery.kind === 'stage' ? `, stage ${delivery.stage_order}` : ''}
                  {delivery.ok ? '' : ` · failed${delivery.error ? `: ${delivery.error}` : ''}`}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </section>
  );
}
