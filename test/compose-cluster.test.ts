/**
 * docker-compose.yml's `cluster` profile, read as data: three instances behind HAProxy, each with a
 * DATA_DIR of its own and the same stores, keys and identity; a 3-node EventStoreDB cluster; a
 * 3-member MongoDB replica set; and the default `docker compose up` left as it was. `.ci/run`
 * validates the file with docker-compose itself; this checks what that cannot: that the parts
 * agree with each other and that every instance's environment is one the platform accepts.
 */
import test from 'ava';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadConfig } from '../src/config.js';

// js-yaml 3 comes with ava (through supertap) and has no type declarations: this is all we use.
const { safeLoad } = createRequire(import.meta.url)('js-yaml') as { safeLoad(text: string): unknown };

interface Service {
  image?: string;
  profiles?: string[];
  command?: string | string[];
  environment?: Record<string, string>;
  volumes?: string[];
  ports?: string[];
  depends_on?: string[] | Record<string, { condition: string }>;
}
const compose = safeLoad(readFileSync(new URL('../docker-compose.yml', import.meta.url), 'utf8')) as {
  services: Record<string, Service>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const inCluster = Object.entries(services).filter(([, service]) => service.profiles?.includes('cluster'));
const clusterService = (name: string) => {
  const service = services[name];
  if (!service?.profiles?.includes('cluster')) throw new Error(`${name} is not a service of the cluster profile`);
  return service;
};

/** Compose's `${NAME:-default}` with nothing set in the environment, as `docker compose config` resolves it. */
const interpolate = (value: string) => value.replace(/\$\{[A-Z_]+:-([^}]*)\}/g, '$1');
const environmentOf = (service: Service) =>
  Object.fromEntries(
    Object.entries(service.environment ?? {}).map(([name, value]) => [name, interpolate(String(value))]),
  );
const dependencies = (service: Service) =>
  Array.isArray(service.depends_on)
    ? Object.fromEntries(service.depends_on.map((name) => [name, 'service_started']))
    : Object.fromEntries(Object.entries(service.depends_on ?? {}).map(([name, d]) => [name, d.condition]));
/** `volume:/target[:ro]` → { source, target, readOnly }. */
const mounts = (service: Service) =>
  (service.volumes ?? []).map((spec) => {
    const [source, target, mode] = spec.split(':') as [string, string, string | undefined];
    return { source, target, readOnly: mode === 'ro' };
  });

const balancer = clusterService('balancer');
const haproxy = environmentOf(balancer).HAPROXY_CONFIG ?? '';
/** The instances are the balancer's servers: `server <name> <host>:<port>`. */
const servers = [...haproxy.matchAll(/^\s*server (\S+) ([\w-]+):(\d+)\b(.*)$/gm)].map((m) => ({
  name: m[1]!,
  host: m[2]!,
  port: m[3]!,
  options: m[4]!,
}));
const apps = servers.map((server) => ({
  ...server,
  service: clusterService(server.host),
  environment: environmentOf(clusterService(server.host)),
}));
const eventStoreNodes = inCluster.filter(([, service]) => service.image?.startsWith('eventstore/eventstore:'));
const mongoMembers = inCluster.filter(
  ([, service]) => service.image?.startsWith('mongo:') && (service.command as string[] | undefined)?.[0] === 'mongod',
);
const seconds = (value: string) =>
  Number(/^(\d+)(s|m|h)$/.exec(value)?.[1]) * { s: 1, m: 60, h: 3600 }[/(s|m|h)$/.exec(value)?.[1] as 's' | 'm' | 'h'];
const setting = (name: string) => new RegExp(`^\\s*${name} (.+)$`, 'm').exec(haproxy)?.[1]?.trim();

test('the default `docker compose up` is what it was: one app on its EventStoreDB, MongoDB and PostgreSQL', (t) => {
  const defaults = Object.entries(services)
    .filter(([, service]) => !service.profiles)
    .map(([name]) => name);
  t.deepEqual(defaults.sort(), ['app', 'eventstore', 'mongodb', 'postgres']);
  t.like(environmentOf(services.app!), {
    EVENTSTORE_URL: 'esdb://eventstore:2113?tls=false',
    MONGODB_URL: 'mongodb://mongodb:27017',
    BASE_URL: 'http://localhost:3000',
  });
  t.is(environmentOf(services.eventstore!).EVENTSTORE_CLUSTER_SIZE, '1');
  t.deepEqual(
    Object.keys(dependencies(services.app!)).sort(),
    ['eventstore', 'mongodb', 'postgres'],
    'the single app needs nothing of the cluster',
  );
  for (const name of defaults) t.false(JSON.stringify(services[name]).includes('cluster'), name);
});

test('three instances behind the balancer, each with a DATA_DIR volume of its own', (t) => {
  t.is(apps.length, 3);
  t.is(new Set(apps.map((app) => app.host)).size, 3);
  const dataVolumes = apps.map((app) => mounts(app.service).find((mount) => mount.target === app.environment.DATA_DIR));
  for (const [index, volume] of dataVolumes.entries()) {
    t.truthy(volume, `${apps[index]!.host} mounts a volume at its DATA_DIR`);
    t.true(volume!.source in compose.volumes, `${volume!.source} is a named volume`);
    t.false(volume!.readOnly);
  }
  t.is(new Set(dataVolumes.map((volume) => volume!.source)).size, 3, 'no two instances share a DATA_DIR');
  for (const app of apps) t.is(app.environment.PORT, app.port, `${app.host} listens where the balancer sends`);
});

test('every instance has the same stores, SECRETS_KEY, identity files and BASE_URL, and an environment the platform accepts', (t) => {
  const shared = [
    'EVENTSTORE_URL',
    'MONGODB_URL',
    'MONGODB_DATABASE',
    'SYNC_DATABASE_URL',
    'SECRETS_KEY',
    'IDP_SIGNING_KEY_FILE',
    'DEV_CLIENT_FILE',
    'BASE_URL',
  ];
  for (const name of shared) {
    const values = new Set(apps.map((app) => app.environment[name]));
    t.is(values.size, 1, `${name} is the same on every instance`);
    t.truthy([...values][0], `${name} is set`);
  }
  for (const app of apps) {
    const config = loadConfig(app.environment);
    t.is(config.host, '0.0.0.0', 'reachable from the balancer');
    t.is(config.auth.mode, 'embedded');
    t.truthy(config.sharedIdentity, 'the built-in identity provider reads the shared files');
    t.is(config.secrets.key?.length, 32);
  }
});

test("BASE_URL is the balancer's published address, where its frontend listens", (t) => {
  const base = new URL(apps[0]!.environment.BASE_URL!);
  const bind = /^\s*bind :(\d+)$/m.exec(haproxy.slice(haproxy.indexOf('frontend platform')))?.[1];
  t.truthy(balancer.ports?.includes(`${base.port}:${bind}`), `${base.port} is published to the frontend's ${bind}`);
  t.is(base.hostname, 'localhost');
});

test('the balancer is a maintained HAProxy LTS, round-robin, health-checking GET /health for a 200 on every instance', (t) => {
  t.regex(balancer.image ?? '', /^haproxy:(2\.8|3\.2|lts)$/, 'an LTS branch (2.8, 3.2)');
  t.is(setting('balance'), 'roundrobin');
  t.regex(haproxy, /^\s*option httpchk\s*$/m);
  t.is(setting('http-check send'), 'meth GET uri /health');
  t.is(setting('http-check expect'), 'status 200');
  t.regex(setting('default-server') ?? '', /\bcheck\b/, 'every server is checked');
  for (const app of apps) t.true(app.host in dependencies(balancer), `the balancer starts after ${app.host}`);
});

test('the balancer keeps event streams open: client and server timeouts outlast the longest heartbeat period, and a tunnel timeout is set', (t) => {
  t.notThrows(() => loadConfig({ SSE_HEARTBEAT_SECONDS: '300' }));
  t.throws(
    () => loadConfig({ SSE_HEARTBEAT_SECONDS: '301' }),
    undefined,
    'the heartbeat period is at most 300 s (if it grows, so must these)',
  );
  for (const name of ['timeout client', 'timeout server'])
    t.true(seconds(setting(name) ?? '') > 300, `${name} ${setting(name)}`);
  t.true(seconds(setting('timeout tunnel') ?? '') >= 3600);
  t.is(
    seconds(setting('timeout http-request') ?? ''),
    loadConfig({}).limits.requestTimeoutMs / 1000,
    'a slow request head is cut as the instances cut it',
  );
});

test('EventStoreDB 24.10 runs as three insecure nodes that agree on the cluster size and seed each other by gossip', (t) => {
  t.is(eventStoreNodes.length, 3);
  const names = eventStoreNodes.map(([name]) => name);
  for (const [name, node] of eventStoreNodes) {
    const environment = environmentOf(node);
    t.is(node.image, 'eventstore/eventstore:24.10');
    t.is(Number(environment.EVENTSTORE_CLUSTER_SIZE), eventStoreNodes.length, `${name}: cluster size`);
    t.is(environment.EVENTSTORE_DISCOVER_VIA_DNS, 'false', `${name}: gossip seeds, not DNS`);
    t.is(environment.EVENTSTORE_INSECURE, 'true');
    const seeds = (environment.EVENTSTORE_GOSSIP_SEED ?? '').split(',').map((seed) => seed.split(':')[0]);
    t.deepEqual(seeds.sort(), names.filter((other) => other !== name).sort(), `${name} seeds the other nodes`);
    t.is(environment.EVENTSTORE_NODE_HOST_ADVERTISE_AS, name, `${name} advertises the name the others reach it by`);
  }
});

test("the instances' EVENTSTORE_URL names all three nodes, without TLS as the nodes run", (t) => {
  const url = apps[0]!.environment.EVENTSTORE_URL!;
  const hosts = /^esdb:\/\/([^/?]+)/
    .exec(url)?.[1]
    ?.split(',')
    .map((host) => host.split(':')[0]);
  t.deepEqual(hosts?.sort(), eventStoreNodes.map(([name]) => name).sort());
  t.regex(url, /[?&]tls=false(&|$)/);
});

test("MongoDB 7 runs as a 3-member replica set: members, the one-shot rs.initiate and the instances' MONGODB_URL agree", (t) => {
  t.is(mongoMembers.length, 3);
  const replicaSets = new Set(
    mongoMembers.map(([, member]) => {
      const command = member.command as string[];
      return command[command.indexOf('--replSet') + 1];
    }),
  );
  t.is(replicaSets.size, 1, 'one replica set');
  const replicaSet = [...replicaSets][0]!;
  for (const [, member] of mongoMembers) t.is(member.image, 'mongo:7');
  const memberHosts = mongoMembers.map(([name]) => `${name}:27017`).sort();

  const init = clusterService('mongodb-init');
  const script = (init.command as string[]).at(-1)!;
  t.regex(script, new RegExp(`rs\\.initiate\\(\\{ _id: '${replicaSet}'`));
  const initiated = [...script.matchAll(/'([\w-]+:27017)'/g)].map((m) => m[1]!).sort();
  t.deepEqual(initiated, memberHosts, 'rs.initiate names every member');
  for (const [name] of mongoMembers) t.is(dependencies(init)[name], 'service_healthy');

  const url = new URL(apps[0]!.environment.MONGODB_URL!.replace(/^mongodb:\/\/[^/]+/, 'mongodb://hosts'));
  t.is(url.searchParams.get('replicaSet'), replicaSet);
  const urlHosts = /^mongodb:\/\/([^/]+)/.exec(apps[0]!.environment.MONGODB_URL!)?.[1]?.split(',').sort();
  t.deepEqual(urlHosts, memberHosts);
});

test('the instances start after the one-shot services finished and the stores are healthy', (t) => {
  for (const app of apps) {
    const needs = dependencies(app.service);
    t.is(needs['cluster-init'], 'service_completed_successfully', app.host);
    t.is(needs['mongodb-init'], 'service_completed_successfully', app.host);
    for (const [node] of eventStoreNodes) t.is(needs[node], 'service_healthy', `${app.host} waits for ${node}`);
    const postgresHost = new URL(app.environment.SYNC_DATABASE_URL!).hostname;
    t.is(needs[postgresHost], 'service_healthy', `${app.host} waits for ${postgresHost}`);
    t.regex(clusterService(postgresHost).image ?? '', /^postgres:16$/);
  }
});

test('one-shot cluster-init makes the identity files the instances read from the same volume, which they mount read-only', (t) => {
  const init = clusterService('cluster-init');
  const initEnvironment = environmentOf(init);
  t.regex(String(init.command), /npm run --silent identity:init/);
  const directory = (path: string) => path.slice(0, path.lastIndexOf('/'));
  for (const app of apps) {
    t.is(app.environment.IDP_SIGNING_KEY_FILE, initEnvironment.IDP_SIGNING_KEY_FILE);
    t.is(app.environment.DEV_CLIENT_FILE, initEnvironment.DEV_CLIENT_FILE);
    const identityMount = mounts(app.service).find(
      (mount) => mount.target === directory(app.environment.DEV_CLIENT_FILE!),
    );
    t.truthy(identityMount?.readOnly, `${app.host} mounts the identity files read-only`);
    const initMount = mounts(init).find((mount) => mount.target === identityMount!.target);
    t.is(initMount?.source, identityMount!.source, 'the same volume');
    t.false(initMount!.readOnly);
  }
});
