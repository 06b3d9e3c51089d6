/**
 * Values from the JSON Schemas of an OpenAPI document (the subset zod renders): valid ones drawn
 * with a seeded generator, and the ways to break them. Deterministic: the same seed gives the same
 * values in the same order.
 */
import { randomUUID } from 'node:crypto';

export type Schema = Record<string, any>;

/** A small seeded PRNG (mulberry32): deterministic and enough for picking. */
export function seededRandom(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let x = state;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!,
    chance: (p: number) => next() < p,
  };
}
export type Random = ReturnType<typeof seededRandom>;

const typeOf = (schema: Schema): string | undefined => {
  if (Array.isArray(schema.type)) return schema.type.find((t: string) => t !== 'null');
  if (schema.type) return schema.type;
  if (schema.properties) return 'object';
  if (schema.items || schema.prefixItems) return 'array';
  return undefined;
};

function stringValue(schema: Schema, random: Random): string {
  if (schema.format === 'uuid') return randomUUID();
  if (schema.format === 'date-time')
    return new Date(Date.UTC(2030, random.int(0, 11), random.int(1, 28), random.int(0, 23))).toISOString();
  if (schema.format === 'email') return `fuzz-${random.int(0, 1e9)}@example.com`;
  const min = schema.minLength ?? 1;
  const max = Math.min(schema.maxLength ?? 24, Math.max(min, 24));
  const length = random.int(min, max);
  const alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789 _-';
  let text = '';
  for (let i = 0; i < length; i++) text += random.pick([...alphabet]);
  // Most texts the API refuses are blank ones: start with a letter.
  return length > 0 ? `f${text.slice(1)}` : text;
}

function numberValue(schema: Schema, random: Random): number {
  const min = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
  const max =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : Math.max(min, 100));
  const value = random.int(Math.ceil(min), Math.floor(Math.max(min, Math.min(max, min + 1000))));
  return value;
}

/** A value the schema accepts (as far as the subset goes: patterns are not honoured). */
export function validValue(schema: Schema, random: Random, depth = 0): unknown {
  if ('const' in schema) return schema.const;
  if (schema.enum) return random.pick(schema.enum);
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (alternatives) return validValue(random.pick(alternatives), random, depth + 1);
  switch (typeOf(schema)) {
    case 'string':
      return stringValue(schema, random);
    case 'integer':
      return numberValue(schema, random);
    case 'number':
      return numberValue(schema, random);
    case 'boolean':
      return random.chance(0.5);
    case 'null':
      return null;
    case 'array': {
      const prefix = (schema.prefixItems ?? []).map((item: Schema) => validValue(item, random, depth + 1));
      const min = Math.max(schema.minItems ?? 0, prefix.length);
      const max = Math.min(schema.maxItems ?? min + 2, min + 2);
      const count = depth > 4 ? min : random.int(min, max);
      const rest =
        schema.items && schema.items !== false
          ? Array.from({ length: count - prefix.length }, () => validValue(schema.items, random, depth + 1))
          : [];
      const values = [...prefix, ...rest];
      return schema.uniqueItems ? [...new Map(values.map((v) => [JSON.stringify(v), v])).values()] : values;
    }
    case 'object': {
      const value: Record<string, unknown> = {};
      const required = new Set<string>(schema.required ?? []);
      const optional = Object.keys(schema.properties ?? {}).filter((name) => !required.has(name));
      for (const name of Object.keys(schema.properties ?? {})) {
        const include =
          required.has(name) ||
          (depth < 4 && random.chance(0.5)) ||
          (Object.keys(value).length < (schema.minProperties ?? 0) && name === optional.at(-1));
        if (include) value[name] = validValue(schema.properties[name], random, depth + 1);
      }
      if (Object.keys(value).length < (schema.minProperties ?? 0) && optional[0])
        value[optional[0]] = validValue(schema.properties[optional[0]], random, depth + 1);
      // A map with named keys (permission maps): a few of them.
      if (!schema.properties && schema.propertyNames?.enum && schema.additionalProperties) {
        for (let i = 0; i < 2; i++)
          value[random.pick(schema.propertyNames.enum as string[])] = validValue(
            schema.additionalProperties,
            random,
            depth + 1,
          );
      }
      return value;
    }
    default:
      return random.pick(['x', 1, true]);
  }
}

/** A value of another JSON type than the schema's. */
export function wrongType(schema: Schema): unknown {
  switch (typeOf(schema)) {
    case 'string':
      return 12345;
    case 'integer':
    case 'number':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    case 'object':
      return ['not', 'an', 'object'];
    default:
      return schema.enum || 'const' in schema ? { unexpected: true } : Symbol.for('unbreakable');
  }
}

/** The first property whose schema is of a type (string, number …) or holds strings at all. */
export function propertyOfType(schema: Schema, types: readonly string[]): string | undefined {
  return Object.entries(schema?.properties ?? {}).find(([, property]) =>
    types.includes(typeOf(property as Schema) ?? ''),
  )?.[0];
}

/** `depth` nested arrays as JSON text, without recursion. */
export const deeplyNested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
