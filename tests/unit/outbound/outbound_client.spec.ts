import type { IncomingMessage, ServerResponse } from 'node:http'
import { test } from '@japa/runner'
import { isPublicAddress } from '#outbound/address_policy'
import type { OutboundClientOptions } from '#outbound/outbound_client'
import { OutboundFailure } from '#outbound/outbound_failure'
import type { Resolver } from '#outbound/resolver'
import { ManualClock } from '#tests/support/clock'
import { outboundClient } from '#tests/support/outbound'
import { closedPort, startServer, type TestServer } from './test_server.js'

/** The routes of the partner stand-in. */
function partner(request: IncomingMessage, response: ServerResponse, body: string) {
  const url = new URL(request.url ?? '/', 'http://partner')
  const hop = /^\/hop\/(\d+)$/.exec(url.pathname)
  if (hop) {
    const left = Number(hop[1])
    if (left === 0) return response.end('arrived')
    response.writeHead(302, { location: `/hop/${left - 1}` })
    return response.end()
  }
  switch (url.pathname) {
    case '/ok':
      response.setHeader('X-Answer', '42')
      return response.end('hello')
    case '/echo':
      response.setHeader('content-type', 'application/json')
      return response.end(
        JSON.stringify({
          method: request.method,
          host: request.headers.host,
          userAgent: request.headers['user-agent'],
          authorization: request.headers.authorization ?? null,
          signature: request.headers['x-signature'] ?? null,
          body,
        })
      )
    case '/to':
      response.writeHead(Number(url.searchParams.get('status') ?? 302), {
        location: url.searchParams.get('location')!,
      })
      return response.end()
    case '/hang':
      return
    case '/stall-body':
      response.writeHead(200, { 'content-length': '100' })
      return response.write('only part of it')
    case '/big':
      return response.end('x'.repeat(50_000))
    case '/stream': {
      response.writeHead(200, { 'content-type': 'text/plain' })
      const timer = setInterval(() => response.write('y'.repeat(1_000)), 5)
      return response.on('close', () => clearInterval(timer))
    }
    default:
      response.statusCode = 404
      return response.end()
  }
}

/** An injected resolver: the table's answers, ENOTFOUND for any other name; records each question. */
function fakeDns(table: Record<string, string[]>) {
  const asked: string[] = []
  const resolve: Resolver = async (hostname) => {
    asked.push(hostname)
    const addresses = table[hostname]
    if (!addresses) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' })
    }
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }))
  }
  return { resolve, asked }
}

const noDns: Resolver = async (hostname) => {
  throw new Error(`no DNS expected, asked for ${hostname}`)
}

/** A client on a manual clock: nothing times out unless a test moves it. */
function client(options: Partial<OutboundClientOptions> = {}) {
  return outboundClient({
    allowPrivateTargets: true,
    httpsOnly: false,
    resolve: noDns,
    timeoutMs: 900,
    clock: new ManualClock(),
    ...options,
  })
}

async function failureOf(promise: Promise<unknown>): Promise<OutboundFailure> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught
  )
  if (error instanceof OutboundFailure) return error
  throw new Error(`expected an OutboundFailure, got ${String(error)}`)
}

test.group('The outbound client | connecting to the checked address', (group) => {
  let server: TestServer
  group.each.setup(async () => {
    server = await startServer(partner)
    return () => server.close()
  })

  test('a literal IP is used as it is, without DNS', async ({ assert }) => {
    const response = await client().request(`${server.url}/ok`, { redirect: 'manual' })

    assert.equal(response.status, 200)
    assert.equal(response.body.toString(), 'hello')
    assert.equal(response.headers['x-answer'], '42')
    assert.equal(response.url, `${server.url}/ok`)
    assert.deepEqual(response.redirects, [])
  })

  test('a hostname is resolved once and the socket goes to the address checked', async ({
    assert,
  }) => {
    const dns = fakeDns({ 'partner.test': ['127.0.0.1'] })

    const response = await client({ resolve: dns.resolve }).request(
      `http://partner.test:${server.port}/echo`,
      { method: 'POST', body: '{"a":1}', headers: { 'X-Signature': 'sig' }, redirect: 'manual' }
    )

    // partner.test exists only in the injected resolver: reaching the server proves the socket
    // went to the address it answered.
    assert.deepEqual(dns.asked, ['partner.test'])
    assert.deepEqual(JSON.parse(response.body.toString()), {
      method: 'POST',
      host: `partner.test:${server.port}`,
      userAgent: 'tollbooth-outbound',
      authorization: null,
      signature: 'sig',
      body: '{"a":1}',
    })
  })

  test('the next address is tried when one refuses the connection', async ({ assert }) => {
    const dns = fakeDns({ 'partner.test': ['::1', '127.0.0.1'] })
    const port = server.port

    const response = await client({ resolve: dns.resolve }).request(
      `http://partner.test:${port}/ok`,
      { redirect: 'manual' }
    )

    assert.equal(response.body.toString(), 'hello')
  })

  test('the system resolver is the default', async ({ assert }) => {
    const response = await outboundClient({
      allowPrivateTargets: true,
      httpsOnly: false,
      clock: new ManualClock(),
    }).request(`http://localhost:${server.port}/ok`, { redirect: 'manual' })

    assert.equal(response.body.toString(), 'hello')
  })
})

test.group('The outbound client | target rules', (group) => {
  let server: TestServer
  group.each.setup(async () => {
    server = await startServer(partner)
    return () => server.close()
  })

  const privateAnswers: Array<[hostname: string, address: string, message: string]> = [
    ['partner.test', '10.0.0.5', 'partner.test resolves to a private address (10.0.0.5)'],
    ['partner.test', '127.0.0.1', 'partner.test resolves to a loopback address (127.0.0.1)'],
    [
      'evil.test',
      '169.254.169.254',
      'evil.test resolves to a link-local address (169.254.169.254)',
    ],
    ['cgnat.test', '100.64.0.1', 'cgnat.test resolves to a carrier-grade NAT address (100.64.0.1)'],
    ['v6.test', 'fd00::1', 'v6.test resolves to a unique-local address (fd00::1)'],
    ['mapped.test', '::ffff:10.0.0.1', 'mapped.test resolves to an IPv4-mapped address'],
  ]
  for (const [hostname, address, message] of privateAnswers) {
    test(`${hostname} → ${address} is refused before any connection`, async ({ assert }) => {
      const dns = fakeDns({ [hostname]: [address] })

      const failure = await failureOf(
        client({ allowPrivateTargets: false, resolve: dns.resolve }).request(
          `https://${hostname}:${server.port}/ok`,
          { redirect: 'manual' }
        )
      )

      assert.equal(failure.kind, 'blocked_target')
      assert.include(failure.message, message)
      assert.deepEqual(dns.asked, [hostname])
      assert.equal(server.connections, 0)
    })
  }

  test('one private address among public ones is enough to refuse', async ({ assert }) => {
    const dns = fakeDns({ 'partner.test': ['8.8.8.8', '10.0.0.5'] })

    const failure = await failureOf(
      client({ allowPrivateTargets: false, resolve: dns.resolve }).request(
        'https://partner.test/ok',
        { redirect: 'manual' }
      )
    )

    assert.equal(failure.kind, 'blocked_target')
    assert.include(failure.message, '10.0.0.5')
  })

  for (const host of ['127.0.0.1', '[::1]', '[::ffff:127.0.0.1]', '0.0.0.0', '0x7f.1']) {
    test(`the literal host ${host} is refused without DNS`, async ({ assert }) => {
      const failure = await failureOf(
        client({ allowPrivateTargets: false }).request(`https://${host}:${server.port}/ok`, {
          redirect: 'manual',
        })
      )

      assert.equal(failure.kind, 'blocked_target')
      assert.equal(server.connections, 0)
    })
  }

  test('plain http is refused when https only', async ({ assert }) => {
    const failure = await failureOf(
      client({ httpsOnly: true }).request(`${server.url}/ok`, { redirect: 'manual' })
    )

    assert.equal(failure.kind, 'blocked_target')
    assert.include(failure.message, 'only https URLs are allowed')
    assert.equal(server.connections, 0)
  })

  test('plain http is refused when private targets are not allowed', async ({ assert }) => {
    const dns = fakeDns({ 'partner.test': ['8.8.8.8'] })

    const failure = await failureOf(
      client({ allowPrivateTargets: false, resolve: dns.resolve }).request(
        'http://partner.test/ok',
        { redirect: 'manual' }
      )
    )

    assert.equal(failure.kind, 'blocked_target')
    assert.deepEqual(dns.asked, [])
  })

  test('a port outside the allowed ones is refused', async ({ assert }) => {
    const failure = await failureOf(
      client({ allowedPorts: [443] }).request(`${server.url}/ok`, { redirect: 'manual' })
    )

    assert.equal(failure.kind, 'blocked_target')
    assert.equal(failure.message, `port ${server.port} is not allowed (allowed: 443)`)
    assert.equal(server.connections, 0)
  })

  test('a user name or password in the URL is refused and not repeated', async ({ assert }) => {
    const failure = await failureOf(
      client().request(`http://user:hunter2@127.0.0.1:${server.port}/ok`, { redirect: 'manual' })
    )

    assert.equal(failure.kind, 'blocked_target')
    assert.notInclude(failure.message, 'hunter2')
    assert.equal(server.connections, 0)
  })

  for (const url of ['file:///etc/passwd', 'ftp://127.0.0.1/x', 'gopher://127.0.0.1:70/']) {
    test(`${url.split(':')[0]} URLs are refused`, async ({ assert }) => {
      const failure = await failureOf(client().request(url, { redirect: 'manual' }))

      assert.equal(failure.kind, 'blocked_target')
    })
  }

  test('a malformed URL is invalid', async ({ assert }) => {
    const failure = await failureOf(client().request('not a url', { redirect: 'manual' }))

    assert.equal(failure.kind, 'invalid_url')
  })
})

test.group('The outbound client | redirects', (group) => {
  let server: TestServer
  group.each.setup(async () => {
    server = await startServer(partner)
    return () => server.close()
  })

  /**
   * public.test stands for a public partner: it resolves to the test server,
   * and the address policy counts 127.0.0.1 (only) as public.
   */
  function publicClient(table: Record<string, string[]> = {}) {
    const dns = fakeDns({ 'public.test': ['127.0.0.1'], ...table })
    return {
      dns,
      outbound: client({
        resolve: dns.resolve,
        isAllowedAddress: (ip) => ip === '127.0.0.1' || isPublicAddress(ip),
      }),
    }
  }

  for (const [target, message] of [
    ['http://evil.test:{port}/ok', 'evil.test resolves to a link-local address (169.254.169.254)'],
    ['http://internal.test/ok', 'internal.test resolves to a private address (10.0.0.5)'],
    ['http://127.0.0.2:{port}/ok', '127.0.0.2 is a loopback address'],
    ['http://[::1]:{port}/ok', '::1 is a loopback address'],
    ['ftp://127.0.0.1/ok', 'ftp: URLs are not allowed'],
  ]) {
    test(`a redirect to ${target} is refused at the hop`, async ({ assert }) => {
      const { dns, outbound } = publicClient({
        'evil.test': ['169.254.169.254'],
        'internal.test': ['10.0.0.5'],
      })
      const location = encodeURIComponent(target.replace('{port}', String(server.port)))

      const failure = await failureOf(
        outbound.request(`http://public.test:${server.port}/to?location=${location}`, {
          redirect: 'follow',
        })
      )

      assert.equal(failure.kind, 'blocked_target')
      assert.equal(failure.message, `after a redirect from public.test:${server.port}: ${message}`)
      assert.equal(server.requests.length, 1)
      assert.equal(dns.asked[0], 'public.test')
    })
  }

  test('every hop is resolved and checked again', async ({ assert }) => {
    const answers = [['127.0.0.1'], ['10.0.0.5']]
    const asked: string[] = []
    const outbound = client({
      resolve: async (hostname) => {
        asked.push(hostname)
        return answers.shift()!.map((address) => ({ address, family: 4 as const }))
      },
      isAllowedAddress: (ip) => ip === '127.0.0.1',
    })

    const failure = await failureOf(
      outbound.request(`http://public.test:${server.port}/hop/1`, { redirect: 'same_origin' })
    )

    assert.equal(failure.kind, 'blocked_target')
    assert.deepEqual(asked, ['public.test', 'public.test'])
    assert.equal(server.requests.length, 1)
  })

  test('follows up to three redirects', async ({ assert }) => {
    const response = await client().request(`${server.url}/hop/3`, { redirect: 'follow' })

    assert.equal(response.body.toString(), 'arrived')
    assert.equal(response.url, `${server.url}/hop/0`)
    assert.deepEqual(response.redirects, [
      `${server.url}/hop/2`,
      `${server.url}/hop/1`,
      `${server.url}/hop/0`,
    ])
  })

  test('a fourth redirect is too many', async ({ assert }) => {
    const failure = await failureOf(client().request(`${server.url}/hop/4`, { redirect: 'follow' }))

    assert.equal(failure.kind, 'too_many_redirects')
    assert.equal(server.requests.length, 4)
  })

  test('same_origin follows a redirect on the same origin', async ({ assert }) => {
    const response = await client().request(`${server.url}/hop/1`, { redirect: 'same_origin' })

    assert.equal(response.body.toString(), 'arrived')
  })

  test('same_origin refuses a redirect to another host', async ({ assert }) => {
    const dns = fakeDns({ 'other.test': ['127.0.0.1'] })
    const location = encodeURIComponent(`http://other.test:${server.port}/ok`)

    const failure = await failureOf(
      client({ resolve: dns.resolve }).request(`${server.url}/to?location=${location}`, {
        redirect: 'same_origin',
      })
    )

    assert.equal(failure.kind, 'redirect_refused')
    assert.deepEqual(dns.asked, [])
    assert.equal(server.requests.length, 1)
  })

  test('manual returns the redirect as it is', async ({ assert }) => {
    const response = await client().request(`${server.url}/hop/1`, { redirect: 'manual' })

    assert.equal(response.status, 302)
    assert.equal(response.headers.location, '/hop/0')
    assert.deepEqual(response.redirects, [])
  })

  test('a 307 keeps the method and body, a 303 becomes a GET', async ({ assert }) => {
    const location = encodeURIComponent('/echo')
    const post = { method: 'POST', body: 'payload', redirect: 'follow' } as const

    const kept = await client().request(`${server.url}/to?status=307&location=${location}`, post)
    const changed = await client().request(`${server.url}/to?status=303&location=${location}`, post)

    assert.include(JSON.parse(kept.body.toString()), { method: 'POST', body: 'payload' })
    assert.include(JSON.parse(changed.body.toString()), { method: 'GET', body: '' })
  })

  test('credentials do not follow a redirect to another origin', async ({ assert }) => {
    const dns = fakeDns({ 'other.test': ['127.0.0.1'] })
    const location = encodeURIComponent(`http://other.test:${server.port}/echo`)

    const response = await client({ resolve: dns.resolve }).request(
      `${server.url}/to?location=${location}`,
      { headers: { 'Authorization': 'Bearer secret', 'X-Signature': 'sig' }, redirect: 'follow' }
    )

    assert.include(JSON.parse(response.body.toString()), {
      authorization: null,
      host: `other.test:${server.port}`,
    })
  })
})

test.group('The outbound client | time and size caps', (group) => {
  let server: TestServer
  group.each.setup(async () => {
    server = await startServer(partner)
    return () => server.close()
  })

  for (const path of ['/hang', '/stall-body']) {
    test(`a server that stops answering (${path}) times out`, async ({ assert }) => {
      const clock = new ManualClock()
      const pending = failureOf(
        client({ clock }).request(`${server.url}${path}`, { timeoutMs: 30_000, redirect: 'manual' })
      )
      await server.received(1)
      clock.advance(29_999)
      assert.equal(clock.pendingTimers, 1, 'not timed out before its time')
      clock.advance(1)

      const failure = await pending
      assert.equal(failure.kind, 'timeout')
      assert.equal(failure.message, `127.0.0.1:${server.port} did not answer within 30000 ms`)
      assert.equal(clock.pendingTimers, 0)
    })
  }

  test('a resolver that never answers times out', async ({ assert }) => {
    const clock = new ManualClock()
    let asked!: () => void
    const resolving = new Promise<void>((resolve) => (asked = resolve))
    const outbound = client({
      clock,
      resolve: () => {
        asked()
        return new Promise(() => {})
      },
      timeoutMs: 30_000,
    })

    const pending = failureOf(outbound.request('http://slow.test/ok', { redirect: 'manual' }))
    await resolving
    clock.advance(30_000)
    const failure = await pending

    assert.equal(failure.kind, 'timeout')
  })

  test('the time-out covers every hop', async ({ assert }) => {
    const clock = new ManualClock()
    const location = encodeURIComponent('/hang')

    const pending = failureOf(
      client({ clock }).request(`${server.url}/to?location=${location}`, {
        timeoutMs: 30_000,
        redirect: 'follow',
      })
    )
    await server.received(2)
    clock.advance(30_000)
    const failure = await pending

    assert.equal(failure.kind, 'timeout')
    assert.equal(server.requests.length, 2)
  })

  test('an answer read whole clears its time-out', async ({ assert }) => {
    const clock = new ManualClock()

    await client({ clock }).request(`${server.url}/ok`, { redirect: 'manual' })

    assert.equal(clock.pendingTimers, 0)
  })

  test('an answer declaring more than the cap is refused early', async ({ assert }) => {
    const failure = await failureOf(
      client({ maxBytes: 1_000 }).request(`${server.url}/big`, { redirect: 'manual' })
    )

    assert.equal(failure.kind, 'too_large')
    assert.equal(failure.message, `127.0.0.1:${server.port} answered more than 1000 bytes`)
  })

  test('a streamed answer is cut off once past the cap', async ({ assert }) => {
    // The stream never ends: only the cap ends this request (the client's clock does not move).
    const failure = await failureOf(
      client().request(`${server.url}/stream`, { maxBytes: 1_000, redirect: 'manual' })
    )

    assert.equal(failure.kind, 'too_large')
  })

  test('an answer within the cap is read whole', async ({ assert }) => {
    const response = await client({ maxBytes: 50_000 }).request(`${server.url}/big`, {
      redirect: 'manual',
    })

    assert.equal(response.body.byteLength, 50_000)
  })
})

test.group('The outbound client | unreachable targets', () => {
  test('a name that does not resolve is unreachable', async ({ assert }) => {
    const failure = await failureOf(
      client({ resolve: fakeDns({}).resolve }).request('http://nowhere.test/ok', {
        redirect: 'manual',
      })
    )

    assert.equal(failure.kind, 'unreachable')
    assert.equal(failure.message, 'nowhere.test could not be resolved')
  })

  test('a name without addresses is unreachable', async ({ assert }) => {
    const failure = await failureOf(
      client({ resolve: async () => [] }).request('http://empty.test/ok', { redirect: 'manual' })
    )

    assert.equal(failure.kind, 'unreachable')
  })

  test('a refused connection is unreachable, and the message keeps the query out', async ({
    assert,
  }) => {
    const port = await closedPort()

    const failure = await failureOf(
      client().request(`http://127.0.0.1:${port}/feed?token=secret`, { redirect: 'manual' })
    )

    assert.equal(failure.kind, 'unreachable')
    assert.equal(failure.message, `127.0.0.1:${port} refused the connection (ECONNREFUSED)`)
  })
})
