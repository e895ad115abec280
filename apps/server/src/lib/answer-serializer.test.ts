import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { errorResponseSchema, invoiceDetailSchema, listInvoicesResponseSchema } from '@portal/contracts';
import { serializerCompiler } from 'fastify-type-provider-zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { answerSerializerCompiler } from './answer-serializer';

const route = (schema: unknown) => ({ schema, method: 'GET', url: '/api/x', httpStatus: '200' }) as never;

/** The text (or the error) of fastify-type-provider-zod's serializer and of ours, for one value. */
function both(schema: z.ZodType, value: unknown) {
  const run = (serialize: (data: unknown) => string) => {
    try {
      return { text: serialize(value) };
    } catch (err) {
      return { error: String(err), cause: String((err as { cause?: unknown }).cause) };
    }
  };
  return { zod: run(serializerCompiler(route(schema))), ours: run(answerSerializerCompiler(route(schema))) };
}

const row = z.object({
  name: z.string().trim().min(1),
  note: z.string().trim().default(''),
  qty: z.number().int().positive(),
  price: z.number().int(),
  share: z.number(),
  done: z.boolean().default(false),
});
const schema = z.object({
  id: z.uuid(),
  kind: z.enum(['a', 'b']),
  level: z.literal(3),
  label: z.string().nullable(),
  extra: z.string().optional(),
  maybe: z.number().int().nullable().optional(),
  rows: z.array(row),
  tags: z.array(z.string()).min(1).optional(),
  details: z.record(z.string(), z.union([z.string(), z.number()])),
  choice: z.discriminatedUnion('type', [
    z.object({ type: z.literal('x'), x: z.number() }),
    z.object({ type: z.literal('y'), y: z.string() }),
  ]),
  when: z.iso.datetime(),
  count: z.int().optional(),
  mail: z.email().optional(),
});
const valid = {
  // Keys in another order than the schema's, and one the schema does not have.
  kind: 'a',
  id: '0190b4a4-7c1e-7cc5-9a77-4b3c1a6f9e10',
  unknown: 'left out',
  level: 3,
  label: null,
  rows: [
    { qty: 2, name: '  Work ', price: -5, share: 0.25, note: ' n ', done: true, more: 1 },
    { name: 'Part', qty: 1, price: 0, share: -0, note: '', done: false },
  ],
  details: {},
  choice: { type: 'y', y: 'why', z: 'dropped' },
  when: '2026-11-27T17:03:09.487Z',
};

describe('answerSerializerCompiler: the text of zod’s serializer, made faster', () => {
  const cases: [string, unknown][] = [
    ['a valid answer (keys reordered, unknown keys, trims, -0)', valid],
    ['optional fields given', { ...valid, extra: 'e"\u2028\n', maybe: 7, tags: ['t'] }],
    ['an optional field given as undefined', { ...valid, extra: undefined, maybe: undefined }],
    ['null where nullable and optional', { ...valid, maybe: null }],
    ['a record with entries', { ...valid, details: { b: 1, a: 'x', 10: 2 } }],
    ['the other union member', { ...valid, choice: { type: 'x', x: 1.5 } }],
    ['a fraction where an integer is due', { ...valid, rows: [{ ...valid.rows[1], price: 1.5 }] }],
    ['an integer beyond the safe range', { ...valid, rows: [{ ...valid.rows[1], price: 2 ** 53 }] }],
    ['a string where a number is due', { ...valid, rows: [{ ...valid.rows[1], qty: '1' }] }],
    ['a failed check (min after trim)', { ...valid, rows: [{ ...valid.rows[1], name: '   ' }] }],
    [
      'a default left out (encode does not fill it)',
      { ...valid, rows: [{ name: 'a', qty: 1, price: 1, share: 1 }] },
    ],
    ['a required field missing', { ...valid, label: undefined }],
    ['null where not nullable', { ...valid, kind: null }],
    ['an unknown enum value', { ...valid, kind: 'c' }],
    ['a bad uuid', { ...valid, id: 'nope' }],
    ['z.int() and z.email() that pass', { ...valid, count: 12, mail: 'a@example.com' }],
    ['a fraction for z.int()', { ...valid, count: 1.5 }],
    ['a bad e-mail address', { ...valid, mail: 'nope' }],
    ['an empty array against min(1)', { ...valid, tags: [] }],
    ['an array where an object is due', []],
    ['NaN', { ...valid, rows: [{ ...valid.rows[1], share: Number.NaN }] }],
    ['a record that is a class instance', { ...valid, details: new Map() }],
  ];
  it.each(cases)('%s', (_name, value) => {
    const { zod, ours } = both(schema, value);
    expect(ours).toEqual(zod);
  });

  it('answers the invoice detail and list of the bench data byte for byte', () => {
    const detail = JSON.parse(readFileSync(join(__dirname, 'answer-serializer.fixture.json'), 'utf8'));
    for (const [s, value] of [
      [invoiceDetailSchema, detail.detail],
      [listInvoicesResponseSchema, detail.list],
    ] as const) {
      const { zod, ours } = both(s, value);
      expect(zod.text).toBeDefined();
      expect(ours).toEqual(zod);
    }
  });

  it('answers the error shape as zod does, details and issues included', () => {
    for (const value of [
      { code: 'auth.unauthorized' },
      { code: 'validation.invalid', issues: [{ path: 'a.b', code: 'validation.invalid' }] },
      { code: 'server.unavailable', retryAfterSeconds: 1 },
      { code: 'invoices.invalid', details: { limit: 5, name: 'x' } },
    ]) {
      const { zod, ours } = both(errorResponseSchema, value);
      expect(zod.text).toBeDefined();
      expect(ours).toEqual(zod);
    }
  });
});
