import type { FastifySerializerCompiler } from 'fastify/types/schema';
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod';
import { $ZodType, safeEncode } from 'zod/v4/core';

/**
 * The serializer of the routes' answers (issue #15): the same JSON text as fastify-type-provider-zod's
 * (the answer encoded by its zod schema, then `JSON.stringify`), made without building the encoded copy.
 *
 * zod's encode walks the whole answer generically and runs each checked value twice (once without its
 * checks, once with them); under load that was a tenth of the server's time on the invoice detail.
 * Here each schema becomes, once, a function that writes the JSON text of a value as the encoded copy
 * would be written: objects (strip mode) field by field in the shape's order, unknown keys left out,
 * arrays item by item, `optional`, `nullable` and `default` around them, an empty record as `{}`, and a
 * plain value (string, number, boolean, null, literal, enum) checked by its own zod schema with all its
 * checks (a trim included). Anything else (unions, other records, transforms, codecs, refinements, …)
 * is encoded by zod itself and the result written with `JSON.stringify`. Whenever a value does not
 * pass, or its shape is one this file does not follow exactly, the whole answer goes to
 * fastify-type-provider-zod's serializer, which then answers as it always did (its error included):
 * the fast way only ever gives the text zod's would.
 */

/** A value that does not pass its schema here: the answer is left to zod's serializer. */
const FAIL = Symbol('fail');
type Out = string | undefined | typeof FAIL;
type Writer = (value: unknown) => Out;

interface ZodInternals {
  def: {
    type: string;
    checks?: unknown[];
    coerce?: boolean;
    catchall?: unknown;
    shape?: Record<string, $ZodType>;
    element?: $ZodType;
    innerType?: $ZodType;
    keyType?: $ZodType;
  };
  optin?: string;
  optout?: string;
  values?: Set<unknown>;
  traits: Set<string>;
  run(payload: { value: unknown; issues: unknown[] }, ctx: { async: false }): unknown;
}

const internals = (schema: $ZodType) => (schema as unknown as { _zod: ZodInternals })._zod;

/** Plain values whose parse is the same in both directions: checked by zod's own `run`. */
const PLAIN = new Set(['string', 'number', 'boolean', 'null', 'literal', 'enum']);
const FORWARD = { async: false } as const;

const writers = new WeakMap<$ZodType, Writer>();

function writerOf(schema: $ZodType): Writer {
  let writer = writers.get(schema);
  if (!writer) {
    writer = makeWriter(schema);
    writers.set(schema, writer);
  }
  return writer;
}

function makeWriter(schema: $ZodType): Writer {
  const z = internals(schema);
  const { def } = z;
  const checked = (def.checks?.length ?? 0) > 0;
  if (def.type === 'object' && !checked && def.catchall === undefined) return objectWriter(schema);
  if (def.type === 'array' && !checked && def.element) return arrayWriter(def.element);
  if (def.type === 'nullable' && !checked && def.innerType) {
    const inner = writerOf(def.innerType);
    return (value) => (value === null ? 'null' : inner(value));
  }
  if (
    def.type === 'optional' &&
    !checked &&
    def.innerType &&
    !z.traits.has('$ZodExactOptional') &&
    internals(def.innerType).optin !== 'defaulted'
  ) {
    const inner = writerOf(def.innerType);
    return (value) => (value === undefined ? undefined : inner(value));
  }
  // An encode passes a default's value through as it is (zod's $ZodDefault and $ZodPrefault).
  if ((def.type === 'default' || def.type === 'prefault') && !checked && def.innerType)
    return writerOf(def.innerType);
  // A record of any keys that is empty (an event's details, mostly): `{}`; any other, zod's.
  if (def.type === 'record' && !checked && def.keyType && internals(def.keyType).values === undefined) {
    const whole = zodWriter(schema);
    return (value) => (isEmptyPlainObject(value) ? '{}' : whole(value));
  }
  // A string without checks; `z.uuid()`, `z.iso.date()` and the like check their format themselves.
  if (def.type === 'string' && !checked && !def.coerce && !z.traits.has('$ZodStringFormat'))
    return (value) => (typeof value === 'string' ? JSON.stringify(value) : FAIL);
  // `z.number().int()`, the minor units of every amount: zod's number and safe-integer check.
  if (
    def.type === 'number' &&
    !def.coerce &&
    !z.traits.has('$ZodNumberFormat') &&
    def.checks?.length === 1 &&
    isSafeIntCheck(def.checks[0])
  )
    return (value) => (typeof value === 'number' && Number.isSafeInteger(value) ? String(value) : FAIL);
  if (PLAIN.has(def.type) && !def.coerce)
    return (value) => {
      const result = z.run({ value, issues: [] }, FORWARD) as { value: unknown; issues: unknown[] };
      if (result instanceof Promise || result.issues.length > 0) return FAIL;
      return JSON.stringify(result.value) ?? FAIL;
    };
  return zodWriter(schema);
}

/** A key JSON.stringify would not write in the shape's order (an array index), or zod leaves out. */
const outOfOrder = (key: string) => key === '__proto__' || /^(0|[1-9][0-9]*)$/.test(key);

function objectWriter(schema: $ZodType): Writer {
  // The fields are made on the first answer: a shape may refer to schemas defined after it.
  let fields: { prefix: string; key: string; write: Writer; optional: boolean }[] | null | undefined;
  const fieldsOf = () => {
    const shape = internals(schema).def.shape ?? {};
    const keys = Reflect.ownKeys(shape);
    if (keys.some((key) => typeof key !== 'string' || outOfOrder(key))) return null;
    return (keys as string[]).map((key) => {
      const field = internals(shape[key] as $ZodType);
      return {
        prefix: `${JSON.stringify(key)}:`,
        key,
        write: writerOf(shape[key] as $ZodType),
        optional: field.optin === 'optional' && field.optout === 'optional',
      };
    });
  };
  const whole = zodWriter(schema);
  return (value) => {
    if (fields === undefined) fields = fieldsOf();
    if (fields === null) return whole(value);
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return FAIL;
    const object = value as Record<string, unknown>;
    let text = '';
    for (const { prefix, key, write, optional } of fields) {
      const field = object[key];
      // An optional field left out is left out; a missing field that is not optional is zod's to judge.
      if (field === undefined && !optional) return FAIL;
      const out = write(field);
      if (out === FAIL) return FAIL;
      if (out === undefined) continue;
      text += text === '' ? prefix + out : `,${prefix}${out}`;
    }
    return `{${text}}`;
  };
}

function arrayWriter(element: $ZodType): Writer {
  const write = writerOf(element);
  return (value) => {
    if (!Array.isArray(value)) return FAIL;
    let text = '';
    for (let i = 0; i < value.length; i++) {
      const out = write(value[i]);
      if (out === FAIL || out === undefined) return FAIL;
      text += i === 0 ? out : `,${out}`;
    }
    return `[${text}]`;
  };
}

function isSafeIntCheck(check: unknown): boolean {
  const def = (check as { _zod?: { def?: { check?: string; format?: string; when?: unknown } } })._zod?.def;
  return def?.check === 'number_format' && def.format === 'safeint' && def.when === undefined;
}

function isEmptyPlainObject(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && Reflect.ownKeys(value).length === 0;
}

function zodWriter(schema: $ZodType): Writer {
  return (value) => {
    const result = safeEncode(schema, value);
    if (!result.success) return FAIL;
    return JSON.stringify(result.data) ?? FAIL;
  };
}

/** The routes' serializer compiler (app.ts): the fast text when it can, zod's serializer otherwise. */
export const answerSerializerCompiler: FastifySerializerCompiler<$ZodType> = (route) => {
  const zod = zodSerializerCompiler(route) as (data: unknown) => string;
  // A schema given another way (`{ properties }`, per content type) is zod's serializer's alone.
  if (!(route.schema instanceof $ZodType)) return zod;
  const write = writerOf(route.schema);
  return (data) => {
    const out = write(data);
    return typeof out === 'string' ? out : zod(data);
  };
};
