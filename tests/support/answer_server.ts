import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import fc from 'fast-check'
import { jsonText, nastyValue } from '#tests/support/fuzz'

/** One answer of a source (partner, upstream, mirrored URL): what a fuzz run makes it say. */
export interface SourceAnswer {
  status: number
  headers: Record<string, string>
  body: Buffer
  /** `close`: the connection is cut after the headers; `short`: fewer bytes than announced. */
  end: 'normal' | 'close' | 'short'
}

/**
 * A real HTTP server on 127.0.0.1 that gives, to every request, the answer a
 * test set last: a source as broken as a fuzz run wants it.
 */
export async function startAnswerServer() {
  const state = {
    url: '',
    answer: { status: 200, headers: {}, body: Buffer.from('{}'), end: 'normal' } as SourceAnswer,
    requests: 0,
  }
  const server = createServer((_request, response) => {
    state.requests++
    const { status, headers, body, end } = state.answer
    response.on('error', () => {})
    response.writeHead(status, {
      ...headers,
      'content-length': String(end === 'short' ? body.length + 10 : body.length),
    })
    if (end === 'close') return response.socket?.destroy()
    response.write(body)
    if (end === 'short') return response.socket?.end()
    response.end()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return Object.assign(state, {
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  })
}

export type AnswerServer = Awaited<ReturnType<typeof startAnswerServer>>

/** JSON texts PostgreSQL or a parser may choke on, beside any JSON value. */
const awkwardJson = fc.constantFrom(
  '{"a":"\\u0000"}',
  '{"a\\u0000":1}',
  '{"a":"\\ud800"}',
  '["\\udfff"]',
  '{"price":1e400}',
  '{"n":-0}',
  '{"__proto__":{"polluted":true}}',
  '\ufeff{"bom":true}',
  '"just a string"',
  'null',
  '12345678901234567890123',
  '['.repeat(20_000) + ']'.repeat(20_000),
  '{"a":'.repeat(5_000) + '1' + '}'.repeat(5_000),
  '{"a":1}{"b":2}',
  '{"a":1,}'
)

const bodies: fc.Arbitrary<Buffer> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.jsonValue({ maxDepth: 4 }).map((v) => Buffer.from(JSON.stringify(v))),
  },
  { weight: 2, arbitrary: awkwardJson.map((text) => Buffer.from(text)) },
  {
    weight: 2,
    arbitrary: nastyValue.map((v) => Buffer.from(jsonText({ data: v }))),
  },
  { weight: 1, arbitrary: fc.uint8Array({ maxLength: 200 }).map((bytes) => Buffer.from(bytes)) },
  { weight: 1, arbitrary: fc.string({ maxLength: 100 }).map((text) => Buffer.from(text)) },
  {
    weight: 1,
    arbitrary: fc.constant(
      Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d])
    ),
  }
)

const contentTypes = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=utf-16',
  'application/problem+json',
  'text/plain',
  'text/html',
  'application/octet-stream',
  ''
)

/** Answers a source could give: mostly 200 with some JSON, else any status, type and framing. */
export const sourceAnswers: fc.Arbitrary<SourceAnswer> = fc.record({
  status: fc.oneof(
    { weight: 5, arbitrary: fc.constant(200) },
    {
      weight: 2,
      arbitrary: fc.constantFrom(201, 204, 206, 301, 302, 304, 307, 401, 404, 429, 500, 503),
    },
    { weight: 1, arbitrary: fc.integer({ min: 200, max: 599 }) }
  ),
  headers: fc.record(
    {
      'content-type': contentTypes,
      'content-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x-unknown'),
      'location': fc.constantFrom('/elsewhere', 'http://127.0.0.1:1/', 'http://[::1]/', '%%', ''),
      'etag': fc.string({ maxLength: 20 }).map((text) => text.replace(/[^\x21-\x7e]/g, 'x')),
      'last-modified': fc.constantFrom('Wed, 21 Oct 2015 07:28:00 GMT', 'yesterday', ''),
    },
    { requiredKeys: ['content-type'] }
  ),
  body: bodies,
  end: fc.constantFrom('normal', 'normal', 'normal', 'normal', 'close', 'short'),
})
