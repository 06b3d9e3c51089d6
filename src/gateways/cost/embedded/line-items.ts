import { addDays, type EnvironmentScope } from '../port.js';

/**
 * A generated Cost and Usage Report for one environment: one line item per day and usage type,
 * computed from (environment, day, usage type) alone. No state and no fixed horizon, so any date
 * range can be asked about, and the same environment always gets the same bill (tests and demos
 * can rely on the numbers). Prices are us-east-1 list prices; magnitudes suit a small RA3
 * cluster. Weekdays carry more query load than weekends, and a few days carry injected spikes
 * (runaway concurrency scaling, an egress burst, a request storm) for the anomaly tool to find.
 */

export interface CurLineItem {
  day: string;
  productCode: string;
  usageType: string;
  usageAmount: number;
  cost: number;
}

export interface InjectedAnomaly {
  day: string;
  service: string;
  usageType: string;
}

interface UsageProfile {
  productCode: string;
  usageType: string;
  unitPrice: number;
  /** Daily usage at scale 1 on a weekday. */
  dailyUsage: (shape: EnvironmentShape) => number;
  /** Share of weekday usage that happens on a weekend day (1 = no weekly seasonality). */
  weekendShare: number;
  /** ± relative day-to-day noise. */
  noise: number;
  /** When set, about one day in `spikeEvery` multiplies usage by `spikeFactor`. */
  spikeEvery?: number;
  spikeFactor?: number;
}

interface EnvironmentShape {
  nodes: number;
  scale: number;
}

const PROFILES: UsageProfile[] = [
  {
    productCode: 'AmazonRedshift',
    usageType: 'USE1-Node:ra3.4xlarge',
    unitPrice: 3.26,
    dailyUsage: (e) => e.nodes * 24,
    weekendShare: 1,
    noise: 0,
  },
  {
    productCode: 'AmazonRedshift',
    usageType: 'USE1-RMS:GB-Month',
    unitPrice: 0.024,
    dailyUsage: (e) => (e.nodes * 4000) / 30,
    weekendShare: 1,
    noise: 0.01,
  },
  {
    productCode: 'AmazonRedshift',
    usageType: 'USE1-CS:ra3.4xlarge',
    unitPrice: 3.26,
    dailyUsage: (e) => e.nodes * 3 * e.scale,
    weekendShare: 0.15,
    noise: 0.15,
    spikeEvery: 90,
    spikeFactor: 8,
  },
  {
    productCode: 'AmazonRedshift',
    usageType: 'USE1-Spectrum:ScannedTB',
    unitPrice: 5,
    dailyUsage: (e) => 1.6 * e.scale,
    weekendShare: 0.3,
    noise: 0.2,
  },
  {
    productCode: 'AWSDataTransfer',
    usageType: 'USE1-DataTransfer-Out-Bytes',
    unitPrice: 0.09,
    dailyUsage: (e) => 90 * e.scale,
    weekendShare: 0.5,
    noise: 0.1,
    spikeEvery: 90,
    spikeFactor: 5,
  },
  {
    productCode: 'AmazonS3',
    usageType: 'USE1-TimedStorage-ByteHrs',
    unitPrice: 0.023 / 30,
    dailyUsage: (e) => 30000 * e.scale,
    weekendShare: 1,
    noise: 0.005,
  },
  {
    productCode: 'AmazonS3',
    usageType: 'USE1-Requests-Tier1',
    unitPrice: 0.005,
    dailyUsage: (e) => 600 * e.scale,
    weekendShare: 0.4,
    noise: 0.1,
    spikeEvery: 90,
    spikeFactor: 12,
  },
  {
    productCode: 'AmazonEC2',
    usageType: 'USE1-BoxUsage:m5.xlarge',
    unitPrice: 0.192,
    dailyUsage: (e) => 4 * 24 * e.scale,
    weekendShare: 1,
    noise: 0,
  },
  {
    productCode: 'AmazonCloudWatch',
    usageType: 'USE1-CW:MetricMonitorUsage',
    unitPrice: 0.3 / 30,
    dailyUsage: (e) => 400 * e.scale,
    weekendShare: 1,
    noise: 0.02,
  },
  {
    productCode: 'AWSGlue',
    usageType: 'USE1-Crawler-DPU-Hour',
    unitPrice: 0.44,
    dailyUsage: (e) => 5 * e.scale,
    weekendShare: 0.2,
    noise: 0.25,
  },
];

/** FNV-1a over the parts, then a murmur finaliser: a stable uniform number in [0, 1). */
function unitHash(...parts: string[]): number {
  let hash = 0x811c9dc5;
  for (const char of parts.join('\u0000')) {
    hash ^= char.codePointAt(0) ?? 0;
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return (hash >>> 0) / 2 ** 32;
}

const seedOf = (scope: EnvironmentScope) => `${scope.tenantId}/${scope.environmentId}`;

function shapeOf(seed: string): EnvironmentShape {
  return { nodes: 2 + Math.floor(unitHash(seed, 'nodes') * 7), scale: 0.5 + unitHash(seed, 'scale') * 2.5 };
}

const isWeekend = (day: string) => [0, 6].includes(new Date(`${day}T00:00:00Z`).getUTCDay());

/**
 * Spend grows about 1% a month, counted daily from 2024-01-01: a smooth ramp, because a monthly
 * step would make flat services (EC2) look anomalous on every first of the month.
 */
function growth(day: string): number {
  return 1 + (0.01 / 30) * ((Date.parse(`${day}T00:00:00Z`) - Date.UTC(2024, 0, 1)) / 86_400_000);
}

const isSpikeDay = (seed: string, profile: UsageProfile, day: string) =>
  profile.spikeEvery !== undefined && unitHash(seed, 'spike', profile.usageType, day) < 1 / profile.spikeEvery;

function lineItem(seed: string, shape: EnvironmentShape, profile: UsageProfile, day: string): CurLineItem {
  const jitter = 1 + profile.noise * (2 * unitHash(seed, profile.usageType, day) - 1);
  const weekly = isWeekend(day) ? profile.weekendShare : 1;
  const spike = isSpikeDay(seed, profile, day) ? (profile.spikeFactor ?? 1) : 1;
  const usageAmount = profile.dailyUsage(shape) * weekly * jitter * spike * growth(day);
  // CUR carries costs to many decimals; 6 keep sums exact enough while staying readable.
  const cost = Math.round(usageAmount * profile.unitPrice * 1e6) / 1e6;
  return {
    day,
    productCode: profile.productCode,
    usageType: profile.usageType,
    usageAmount: Math.round(usageAmount * 1e6) / 1e6,
    cost,
  };
}

/** Every line item of the environment's bill for the days from..to inclusive. */
export function generateLineItems(scope: EnvironmentScope, from: string, to: string): CurLineItem[] {
  const seed = seedOf(scope);
  const shape = shapeOf(seed);
  const items: CurLineItem[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    for (const profile of PROFILES) items.push(lineItem(seed, shape, profile, day));
  }
  return items;
}

/** Where the generator put spikes, so tests can check the anomaly tool finds them. */
export function injectedAnomalies(scope: EnvironmentScope, from: string, to: string): InjectedAnomaly[] {
  const seed = seedOf(scope);
  const found: InjectedAnomaly[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) {
    for (const profile of PROFILES) {
      if (isSpikeDay(seed, profile, day))
        found.push({ day, service: profile.productCode, usageType: profile.usageType });
    }
  }
  return found;
}
