import test, { type ExecutionContext } from 'ava';
import { channelConfigSchemas, channelDecider, type ChannelCommand } from '../commands/channels.js';
import { DomainRejection } from '../src/commanding/domain-rejection.js';
import { maskChannelConfig, maskSecret, maskSecretUrl } from '../src/events/channel-secrets.js';
import type { ChannelEvent } from '../src/events/channel.js';
import { deciderSpec, TEST_CONTEXT } from './support/decider-spec.js';

const id = '5b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d';
const pagerConfig = {
  integration_key: 'R0UTINGKEY0000000000000000123456',
  severity_mapping: { critical: 'critical', high: 'error', medium: 'warning', low: 'info' },
};
const created: ChannelEvent = {
  type: 'ChannelCreated',
  data: { channelId: id, name: 'Pager', type: 'pager', config: pagerConfig },
};
const deleted: ChannelEvent = { type: 'ChannelDeleted', data: { channelId: id } };

test('create on a new stream records ChannelCreated', (t) => {
  deciderSpec(t, channelDecider)
    .given([])
    .when({ kind: 'CreateChannel', channelId: id, name: 'Pager', type: 'pager', config: pagerConfig })
    .then([created]);
});

test('create twice is a conflict', (t) => {
  deciderSpec(t, channelDecider)
    .given([created])
    .when({ kind: 'CreateChannel', channelId: id, name: 'Pager', type: 'pager', config: pagerConfig })
    .thenRejects('conflict');
});

test('update keeps a secret that comes back masked', (t) => {
  const masked = { ...pagerConfig, integration_key: maskSecret(pagerConfig.integration_key) };
  deciderSpec(t, channelDecider)
    .given([created])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Renamed', type: 'pager', config: masked })
    .then([{ type: 'ChannelUpdated', data: { channelId: id, name: 'Renamed', type: 'pager', config: pagerConfig } }]);
});

test('update replaces a secret that is sent in clear', (t) => {
  const fresh = { ...pagerConfig, integration_key: 'NEWKEY99999999999999999999999999' };
  deciderSpec(t, channelDecider)
    .given([created])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Pager', type: 'pager', config: fresh })
    .then([{ type: 'ChannelUpdated', data: { channelId: id, name: 'Pager', type: 'pager', config: fresh } }]);
});

test('update keeps masked webhook header values and takes new ones', (t) => {
  const stored = {
    url: 'https://hooks.example.com/x',
    method: 'POST',
    headers: { Authorization: 'Bearer secret-token-1', 'X-Team': 'data-platform' },
  };
  const sentBack = { ...stored, headers: { Authorization: maskSecret('Bearer secret-token-1'), 'X-Team': 'new-team' } };
  deciderSpec(t, channelDecider)
    .given([{ type: 'ChannelCreated', data: { channelId: id, name: 'Hook', type: 'webhook', config: stored } }])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Hook', type: 'webhook', config: sentBack })
    .then([
      {
        type: 'ChannelUpdated',
        data: {
          channelId: id,
          name: 'Hook',
          type: 'webhook',
          config: { ...stored, headers: { Authorization: 'Bearer secret-token-1', 'X-Team': 'new-team' } },
        },
      },
    ]);
});

const missing = [
  ['a channel that never existed', [] as ChannelEvent[]],
  ['a deleted channel', [created, deleted]],
] as const;

for (const [title, history] of missing) {
  test(`update of ${title} is not found`, (t) => {
    deciderSpec(t, channelDecider)
      .given([...history])
      .when({ kind: 'UpdateChannel', channelId: id, name: 'x', type: 'pager', config: pagerConfig })
      .thenRejects('not_found');
  });
  test(`delete of ${title} is not found`, (t) => {
    deciderSpec(t, channelDecider)
      .given([...history])
      .when({ kind: 'DeleteChannel', channelId: id })
      .thenRejects('not_found');
  });
}

test('delete of a live channel records ChannelDeleted', (t) => {
  deciderSpec(t, channelDecider).given([created]).when({ kind: 'DeleteChannel', channelId: id }).then([deleted]);
});

const hookConfig = {
  url: 'https://hooks.example.com/x',
  method: 'POST',
  headers: { Authorization: 'Bearer secret-token-1', 'X-Team': 'data-platform' },
};
const hookCreated: ChannelEvent = {
  type: 'ChannelCreated',
  data: { channelId: id, name: 'Hook', type: 'webhook', config: hookConfig },
};
const chatConfig = { webhook_url: 'https://hooks.slack.com/services/T000/B000/XXXXsecret', channel_name: '#ops' };
const chatCreated: ChannelEvent = {
  type: 'ChannelCreated',
  data: { channelId: id, name: 'Chat', type: 'chat', config: chatConfig },
};

/** The field errors of a refused command (given → when), or a failed assertion. */
function refusedFields(t: ExecutionContext, history: ChannelEvent[], command: ChannelCommand) {
  const state = history.reduce(channelDecider.evolve, channelDecider.initialState());
  const error = t.throws(() => channelDecider.decide(command, state, TEST_CONTEXT), { instanceOf: DomainRejection });
  t.is(error?.kind, 'invalid');
  return error?.errors?.map((e) => e.path);
}

test('a masked header sent with a new url is refused, naming the header to give again', (t) => {
  const redirected = {
    ...hookConfig,
    url: 'https://attacker.example/collect',
    headers: { ...hookConfig.headers, Authorization: maskSecret(hookConfig.headers.Authorization) },
  };
  t.deepEqual(
    refusedFields(t, [hookCreated], {
      kind: 'UpdateChannel',
      channelId: id,
      name: 'Hook',
      type: 'webhook',
      config: redirected,
    }),
    ['/config/headers/Authorization'],
  );
});

test('a new url with every secret given in clear is accepted', (t) => {
  const moved = {
    ...hookConfig,
    url: 'https://elsewhere.example/hook',
    headers: { Authorization: 'Bearer another-token', 'X-Team': 'data-platform' },
  };
  deciderSpec(t, channelDecider)
    .given([hookCreated])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Hook', type: 'webhook', config: moved })
    .then([{ type: 'ChannelUpdated', data: { channelId: id, name: 'Hook', type: 'webhook', config: moved } }]);
});

test('a masked header under a header name of its own is not a secret of the channel: stored as sent', (t) => {
  const renamed = { ...hookConfig, headers: { 'X-Api-Key': maskSecret(hookConfig.headers.Authorization) } };
  deciderSpec(t, channelDecider)
    .given([hookCreated])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Hook', type: 'webhook', config: renamed })
    .then([{ type: 'ChannelUpdated', data: { channelId: id, name: 'Hook', type: 'webhook', config: renamed } }]);
});

test('the chat webhook_url is masked as scheme, host and the last four characters', (t) => {
  t.is(maskChannelConfig('chat', chatConfig).webhook_url, 'https://hooks.slack.com/****cret');
  t.is(maskSecretUrl('https://user:pw@hooks.example.com:8443/a?b=1'), 'https://hooks.example.com:8443/****');
});

test('a masked chat webhook_url means "unchanged" and keeps the stored one', (t) => {
  const sentBack = { webhook_url: maskSecretUrl(chatConfig.webhook_url), channel_name: '#ops-renamed' };
  deciderSpec(t, channelDecider)
    .given([chatCreated])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Chat', type: 'chat', config: sentBack })
    .then([
      {
        type: 'ChannelUpdated',
        data: { channelId: id, name: 'Chat', type: 'chat', config: { ...chatConfig, channel_name: '#ops-renamed' } },
      },
    ]);
});

test('a masked secret sent with a new type is refused, naming the field to give again', (t) => {
  const asHook = {
    url: 'https://attacker.example/collect',
    method: 'POST',
    headers: { integration_key: maskSecret(pagerConfig.integration_key) },
  };
  t.deepEqual(
    refusedFields(t, [created], {
      kind: 'UpdateChannel',
      channelId: id,
      name: 'Pager',
      type: 'webhook',
      config: asHook,
    }),
    ['/config/headers/integration_key'],
  );
  const chatAsHook = { url: maskSecretUrl(chatConfig.webhook_url), method: 'POST', headers: {} };
  t.deepEqual(
    refusedFields(t, [chatCreated], {
      kind: 'UpdateChannel',
      channelId: id,
      name: 'Chat',
      type: 'webhook',
      config: chatAsHook,
    }),
    ['/config/url'],
    'the masked chat webhook_url as a webhook url',
  );
});

test('a masked header moved under another header name with a new url is refused too', (t) => {
  const moved = {
    ...hookConfig,
    url: 'https://attacker.example/collect',
    headers: { 'X-Api-Key': maskSecret(hookConfig.headers.Authorization) },
  };
  t.deepEqual(
    refusedFields(t, [hookCreated], {
      kind: 'UpdateChannel',
      channelId: id,
      name: 'Hook',
      type: 'webhook',
      config: moved,
    }),
    ['/config/headers/X-Api-Key'],
  );
});

test('a new type with its secrets in clear is accepted', (t) => {
  const asHook = {
    url: 'https://hooks.example.com/pager',
    method: 'POST',
    headers: { Authorization: 'Bearer brand-new-token' },
  };
  deciderSpec(t, channelDecider)
    .given([created])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Pager', type: 'webhook', config: asHook })
    .then([{ type: 'ChannelUpdated', data: { channelId: id, name: 'Pager', type: 'webhook', config: asHook } }]);
});

test('an update with some fields replaces those and keeps the others (SPEC.md: "Updates the configuration")', (t) => {
  deciderSpec(t, channelDecider)
    .given([created])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Renamed' })
    .then([{ type: 'ChannelUpdated', data: { channelId: id, name: 'Renamed', type: 'pager', config: pagerConfig } }]);
  const mapping = { critical: 'critical', high: 'critical' };
  deciderSpec(t, channelDecider)
    .given([created])
    .when({
      kind: 'UpdateChannel',
      channelId: id,
      config: { integration_key: maskSecret(pagerConfig.integration_key), severity_mapping: mapping },
    })
    .then([
      {
        type: 'ChannelUpdated',
        data: {
          channelId: id,
          name: 'Pager',
          type: 'pager',
          config: { integration_key: pagerConfig.integration_key, severity_mapping: mapping },
        },
      },
    ]);
});

test('a config sent replaces the stored one whole: a header left out is gone', (t) => {
  const withoutTeam = {
    url: hookConfig.url,
    method: 'POST',
    headers: { Authorization: maskSecret(hookConfig.headers.Authorization) },
  };
  deciderSpec(t, channelDecider)
    .given([hookCreated])
    .when({ kind: 'UpdateChannel', channelId: id, config: withoutTeam })
    .then([
      {
        type: 'ChannelUpdated',
        data: {
          channelId: id,
          name: 'Hook',
          type: 'webhook',
          config: { ...withoutTeam, headers: { Authorization: hookConfig.headers.Authorization } },
        },
      },
    ]);
});

test('the updated channel is checked whole: a config for the kept type, and a new type needs its config', (t) => {
  t.deepEqual(
    refusedFields(t, [created], {
      kind: 'UpdateChannel',
      channelId: id,
      config: { integration_key: 'KEY00000000000000000000000000032' },
    }),
    ['/config/severity_mapping'],
  );
  t.deepEqual(
    refusedFields(t, [created], {
      kind: 'UpdateChannel',
      channelId: id,
      config: { webhook_url: 'https://hooks.example.com/x', channel_name: '#ops' },
    }),
    ['/config/integration_key', '/config/severity_mapping', '/config'],
  );
  t.deepEqual(refusedFields(t, [created], { kind: 'UpdateChannel', channelId: id, type: 'email' }), ['/config']);
  deciderSpec(t, channelDecider)
    .given([created])
    .when({ kind: 'UpdateChannel', channelId: id, type: 'pager', name: 'Same type' })
    .then([{ type: 'ChannelUpdated', data: { channelId: id, name: 'Same type', type: 'pager', config: pagerConfig } }]);
});

test('a webhook channel without a signing secret gets one on an update that leaves its type out', (t) => {
  deciderSpec(t, channelDecider)
    .given([hookCreated])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Hook 2', signingSecret: 's'.repeat(32) })
    .then([
      { type: 'ChannelUpdated', data: { channelId: id, name: 'Hook 2', type: 'webhook', config: hookConfig } },
      { type: 'ChannelSigningSecretSet', data: { channelId: id, signingSecret: 's'.repeat(32) } },
    ]);
});

test("a pager severity_mapping may be partial (or empty); its values are Events API v2 severities and its keys the platform's, each refusal naming them", (t) => {
  const parse = (severity_mapping: unknown) =>
    channelConfigSchemas.pager.safeParse({ integration_key: 'KEY00000000000000000000000000032', severity_mapping });
  t.deepEqual(
    parse({ high: 'critical' }).data,
    { integration_key: 'KEY00000000000000000000000000032', severity_mapping: { high: 'critical' } },
    'stored as sent: the default applies at delivery',
  );
  t.true(parse({}).success);
  t.true(parse(pagerConfig.severity_mapping).success);
  const badValue = parse({ critical: 'sev1' }).error!.issues;
  t.deepEqual(
    badValue.map((issue) => [issue.path.join('/'), issue.message]),
    [['severity_mapping/critical', 'must be an Events API v2 severity: critical, error, warning, info']],
  );
  const badKey = parse({ critical: 'critical', urgent: 'critical' }).error!.issues;
  t.deepEqual(
    badKey.map((issue) => [issue.path.join('/'), issue.message]),
    [['severity_mapping', 'not a severity of the platform: urgent; its severities: critical, high, medium, low']],
  );
  t.false(parse(undefined).success, 'the map itself is required (SPEC.md: integration_key, severity_mapping)');
});
