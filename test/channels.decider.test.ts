import test from 'ava';
import { channelDecider } from '../commands/channels.js';
import { maskSecret } from '../src/events/channel-secrets.js';
import type { ChannelEvent } from '../src/events/channel.js';
import { deciderSpec } from './support/decider-spec.js';

const id = '5b1c2f9e-3a7d-4e2b-9c1f-0d8e7a6b5c4d';
const pagerConfig = { integration_key: 'R0UTINGKEY123456', severity_mapping: { critical: 'critical', high: 'error', medium: 'warning', low: 'info' } };
const created: ChannelEvent = { type: 'ChannelCreated', data: { channelId: id, name: 'Pager', type: 'pager', config: pagerConfig } };
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
  const fresh = { ...pagerConfig, integration_key: 'NEWKEY9999999999' };
  deciderSpec(t, channelDecider)
    .given([created])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Pager', type: 'pager', config: fresh })
    .then([{ type: 'ChannelUpdated', data: { channelId: id, name: 'Pager', type: 'pager', config: fresh } }]);
});

test('update keeps masked webhook header values and takes new ones', (t) => {
  const stored = { url: 'https://hooks.example.com/x', method: 'POST', headers: { Authorization: 'Bearer secret-token-1', 'X-Team': 'data-platform' } };
  const sentBack = { ...stored, headers: { Authorization: maskSecret('Bearer secret-token-1'), 'X-Team': 'new-team' } };
  deciderSpec(t, channelDecider)
    .given([{ type: 'ChannelCreated', data: { channelId: id, name: 'Hook', type: 'webhook', config: stored } }])
    .when({ kind: 'UpdateChannel', channelId: id, name: 'Hook', type: 'webhook', config: sentBack })
    .then([{ type: 'ChannelUpdated', data: { channelId: id, name: 'Hook', type: 'webhook', config: { ...stored, headers: { Authorization: 'Bearer secret-token-1', 'X-Team': 'new-team' } } } }]);
});

const missing = [
  ['a channel that never existed', [] as ChannelEvent[]],
  ['a deleted channel', [created, deleted]],
] as const;

for (const [title, history] of missing) {
  test(`update of ${title} is not found`, (t) => {
    deciderSpec(t, channelDecider).given([...history]).when({ kind: 'UpdateChannel', channelId: id, name: 'x', type: 'pager', config: pagerConfig }).thenRejects('not_found');
  });
  test(`delete of ${title} is not found`, (t) => {
    deciderSpec(t, channelDecider).given([...history]).when({ kind: 'DeleteChannel', channelId: id }).thenRejects('not_found');
  });
}

test('delete of a live channel records ChannelDeleted', (t) => {
  deciderSpec(t, channelDecider).given([created]).when({ kind: 'DeleteChannel', channelId: id }).then([deleted]);
});
