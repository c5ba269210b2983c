import fc from 'fast-check'
import env from '#start/env'
import db from '@adonisjs/lucid/services/db'
import type { Group } from '@japa/runner/core'
import { ERROR_CODES, type ErrorCodeEntry, isErrorCode } from '#core/error_codes'
import { inGlobalTransaction } from '#tests/support/database'

/**
 * Property-based fuzzing at the edge (docs/testing.md, "Security testing"). Runs are bounded
 * so the suite stays quick in `npm test`, with a fixed seed so CI replays the
 * same inputs; FUZZ_RUNS asks for more runs per property, FUZZ_SEED for other
 * inputs (a number, or `random`). A failure prints its seed and shrunk input.
 */
const DEFAULT_RUNS = 25
const DEFAULT_SEED = 13_2026

export const fuzzRuns = Number(process.env.FUZZ_RUNS) || DEFAULT_RUNS
export const fuzzSeed =
  process.env.FUZZ_SEED === 'random'
    ? Math.floor(Math.random() * 2 ** 31)
    : Number(process.env.FUZZ_SEED) || DEFAULT_SEED

/** Checks an async property over `runs` inputs (default fuzzRuns; scaled runs for slow ones). */
export async function fuzz<T>(
  arbitrary: fc.Arbitrary<T>,
  property: (input: T) => Promise<void>,
  options: { runs?: number } = {}
) {
  await fc.assert(fc.asyncProperty(arbitrary, property), {
    numRuns: options.runs ?? fuzzRuns,
    seed: fuzzSeed,
    // Shrinking replays HTTP calls: a bounded number keeps a failure's report quick.
    endOnFailure: false,
    interruptAfterTimeLimit: 120_000,
  })
}

/** The slower properties (a signed transaction or a partner per run) run a fifth as often. */
export const slowRuns = () => Math.max(5, Math.ceil(fuzzRuns / 5))

export interface RawAnswer {
  status: number
  headers: Headers
  text: string
  /** The parsed body, or undefined when it is not JSON. */
  json: any
}

const base = () => `http://${env.get('HOST')}:${env.get('PORT')}`

/** A request with a raw body (bytes a JSON client would refuse to build) and its whole answer. */
export async function rawCall(
  method: string,
  path: string,
  options: { body?: string | Uint8Array; token?: string; headers?: Record<string, string> } = {}
): Promise<RawAnswer> {
  const response = await fetch(`${base()}${path}`, {
    method,
    body: options.body,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
  })
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, headers: response.headers, text, json }
}

/**
 * The edge's contract for any input: never a 500, and every error answer —
 * a 4xx, or a 502/503 naming what was unavailable —
 * `{error: {code}}`, or an x402 402/202 body's `error` string — carries a
 * code declared in app/core/error_codes.ts with the status it declares.
 */
export function assertDeclaredAnswer(answer: RawAnswer, input?: unknown) {
  const where = () => `${answer.status} ${answer.text.slice(0, 300)} for ${show(input)}`
  if (answer.status < 400 && answer.status !== 202) return
  const code = typeof answer.json?.error === 'string' ? answer.json.error : answer.json?.error?.code
  if (code === undefined && (answer.status === 402 || answer.status === 202)) return
  if (answer.status === 500 || code === 'internal_error') {
    throw new Error(`a server error: ${where()}`)
  }
  if (typeof code !== 'string' || !isErrorCode(code)) {
    throw new Error(`an undeclared error code: ${where()}`)
  }
  const declared = (ERROR_CODES[code] as ErrorCodeEntry).status
  const x402Surface = typeof answer.json.error === 'string'
  if (!x402Surface && declared !== answer.status) {
    throw new Error(`${code} is declared ${declared}, answered ${where()}`)
  }
}

/**
 * One fuzzed request at the edge, checked: a declared answer, and when it is
 * a refusal, nothing written. `input` names what was fuzzed in a failure.
 */
export async function callAtTheEdge(
  method: string,
  path: string,
  options: Parameters<typeof rawCall>[2],
  input: unknown
) {
  const before = await databaseFingerprint()
  const answer = await rawCall(method, path, options)
  assertDeclaredAnswer(answer, input)
  if (isRefusal(answer)) await assertNothingWritten(before, input)
  return answer
}

/** An answer that refused the input (4xx/5xx, or a 202 that settled nothing). */
export function isRefusal(answer: RawAnswer) {
  return answer.status >= 400
}

function show(input: unknown) {
  const text = typeof input === 'string' ? input : JSON.stringify(input)
  return text === undefined ? String(input) : text.slice(0, 300)
}

/** Rows that change on every authenticated request (not a write of the request's own). */
const VOLATILE_COLUMNS: Record<string, string[]> = {
  auth_access_tokens: ['last_used_at', 'updated_at'],
}

/**
 * A fingerprint of every row of every table: equal fingerprints before and
 * after a refused request mean it wrote nothing (insert, update or delete).
 * The rate limiter's counters are left out: every limited request counts,
 * refused or not.
 */
export async function databaseFingerprint(): Promise<Record<string, string>> {
  const tables = await db
    .from('pg_tables')
    .where('schemaname', 'public')
    .whereNot('tablename', 'like', 'adonis_schema%')
    .whereNot('tablename', 'rate_limits')
    .orderBy('tablename')
    .select('tablename')
  const parts = tables.map(({ tablename }: { tablename: string }) => {
    const row = ['to_jsonb(t)', ...(VOLATILE_COLUMNS[tablename] ?? []).map((c) => `'${c}'`)].join(
      ' - '
    )
    return `(SELECT count(*) || ':' || coalesce(md5(string_agg((${row})::text, '|' ORDER BY (${row})::text)), '') FROM "${tablename}" t) AS "${tablename}"`
  })
  const result = await db.rawQuery(`SELECT ${parts.join(', ')}`)
  return result.rows[0]
}

/** Asserts a refused input left the database as it was, naming the tables it changed. */
export function assertNothingWritten(before: Record<string, string>, input: unknown) {
  return assertWroteOnly(before, [], input)
}

/** Asserts an input changed no table but `tables`, naming the others it changed. */
export async function assertWroteOnly(
  before: Record<string, string>,
  tables: string[],
  input: unknown
) {
  const after = await databaseFingerprint()
  const changed = Object.keys(before).filter(
    (table) => before[table] !== after[table] && !tables.includes(table)
  )
  if (changed.length > 0) {
    const what = tables.length === 0 ? 'a refused input' : 'an input'
    throw new Error(`${what} changed ${changed.join(', ')}: ${show(input)}`)
  }
}

/**
 * A fuzz group: each test in a global DB transaction (unless the group's
 * stack already opens one), with a time-out that
 * grows with FUZZ_RUNS, and failing when a promise rejection went unhandled
 * while it ran (it would otherwise end the process without naming its input).
 */
export function useFuzzGroup(group: Group, options: { globalTransaction?: boolean } = {}) {
  const rejections: unknown[] = []
  const record = (reason: unknown) => rejections.push(reason)
  group.each.timeout(Math.max(30_000, fuzzRuns * 400))
  if (options.globalTransaction !== false) {
    group.each.setup(() => inGlobalTransaction())
  }
  group.each.setup(() => {
    rejections.length = 0
    process.on('unhandledRejection', record)
    return () => {
      process.off('unhandledRejection', record)
    }
  })
  group.each.teardown(() => {
    if (rejections.length > 0) {
      throw new Error(`unhandled rejections: ${rejections.map(String).join('; ')}`)
    }
  })
}

/* ----------------------------- arbitraries ----------------------------- */

const RAW_TOKEN = '\u0000raw\u0000'

/** Values that have broken parsers before: edges of numbers, strings, encodings and types. */
export const nastyValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '0',
    '-1',
    '1e309',
    '0x10',
    'NaN',
    'Infinity',
    '9'.repeat(40),
    '0.0000001',
    '__proto__',
    'constructor',
    '../../etc/passwd',
    '%00',
    '\u202e',
    '\ud800',
    '\uffff',
    'ST1SJ3DTE5DN7X54YDH5D64R3BCB6A2AG2ZQ8YPD5',
    'SP000000000000000000002Q6VF78',
    'http://127.0.0.1:1/',
    'https://169.254.169.254/latest',
    'javascript:alert(1)',
    'x'.repeat(5_000)
  ),
  fc.integer(),
  fc.double(),
  fc.bigInt({ min: -(2n ** 70n), max: 2n ** 70n }).map((n) => `${RAW_TOKEN}${n}`),
  fc.constantFrom('1e400', '-0', '1.0000000000000000001', '-1e-400').map((n) => RAW_TOKEN + n),
  // Deeper than JSON.stringify can write back out (JSON.parse takes it).
  fc.constant(`${RAW_TOKEN}${'['.repeat(20_000)}${']'.repeat(20_000)}`),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 5 }),
  fc.constant(Array.from({ length: 200 }, (_, i) => i)),
  fc.constant(JSON.parse('{"a":'.repeat(60) + '1' + '}'.repeat(60)))
)

type Json = Record<string, unknown>

/** Every path (key list) of a body's fields, nested objects included. */
function pathsOf(value: Json, prefix: string[] = []): string[][] {
  return Object.entries(value).flatMap(([key, child]) => {
    const path = [...prefix, key]
    return child && typeof child === 'object' && !Array.isArray(child)
      ? [path, ...pathsOf(child as Json, path)]
      : [path]
  })
}

function withPath(value: Json, path: string[], replace: (old: unknown) => unknown): Json {
  const [head, ...rest] = path
  const copy = { ...value }
  if (rest.length === 0) {
    const next = replace(copy[head])
    if (next === undefined) delete copy[head]
    else copy[head] = next
  } else {
    copy[head] = withPath((copy[head] ?? {}) as Json, rest, replace)
  }
  return copy
}

/** JSON text, with a raw number token (1e400, 2^70, -0) put in where a value asked for one. */
export function jsonText(value: unknown) {
  return JSON.stringify(value).replace(/"\\u0000raw\\u0000([^"]*)"/g, '$1')
}

/**
 * Bodies near a valid one: a field replaced by a nasty value, a field
 * dropped, unknown or prototype keys added, the whole body replaced by any
 * JSON, or text that is not JSON at all. Mostly valid-looking, so the input
 * gets past the first checks and reaches the deeper ones.
 */
export function bodyAround(valid: Json): fc.Arbitrary<string> {
  const paths = pathsOf(valid)
  const mutated = fc.oneof(
    { weight: 5, arbitrary: fc.tuple(fc.constantFrom(...paths), nastyValue) },
    { weight: 2, arbitrary: fc.tuple(fc.constantFrom(...paths), fc.constant(undefined)) }
  )
  return fc.oneof(
    {
      weight: 8,
      arbitrary: fc
        .array(mutated, { minLength: 1, maxLength: 3 })
        .map((changes) =>
          jsonText(
            changes.reduce((body, [path, value]) => withPath(body, path, () => value), valid)
          )
        ),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra'), nastyValue)
        .map(([key, value]) =>
          jsonText(valid).replace(/^\{/, `{${JSON.stringify(key)}:${jsonText(value)},`)
        ),
    },
    { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.string({ maxLength: 60 }),
        fc.nat({ max: 200 }).map((cut) => jsonText(valid).slice(0, cut))
      ),
    }
  )
}
