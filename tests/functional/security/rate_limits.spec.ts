import { test } from '@japa/runner'
import type { ApiClient, ApiResponse } from '@japa/api-client'
import type { Assert } from '@japa/assert'
import db from '@adonisjs/lucid/services/db'
import { randomPrivateKey } from '@stacks/transactions'
import type { RateLimitName } from '#config/rate_limits'
import { rawCall } from '#tests/support/fuzz'
import { pushHeaders, registerPushAndUploadFeeds } from '#tests/support/hosted_mirror'
import { newOwner, registerProvider } from '#tests/support/providers'
import {
  forgetRateLimitCounts,
  setRateLimits,
  trustLoopbackProxy,
} from '#tests/support/rate_limits'
import { signIn, signMessage, walletOf } from '#tests/support/sign_in'
import { inGlobalTransaction } from '#tests/support/database'

/** The refusal a client sees past a limit: 429, the code, and when to come back. */
function assertTooManyRequests(assert: Assert, response: ApiResponse, windowSeconds = 60) {
  response.assertStatus(429)
  assert.equal(response.body().error.code, 'too_many_requests')
  assert.match(response.body().error.message, /^Too many requests/)
  const retryAfter = Number(response.header('retry-after'))
  assert.isTrue(
    Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= windowSeconds,
    `Retry-After: ${response.header('retry-after')}`
  )
}

function askNonce(client: ApiClient, walletAddress: string, clientAddress?: string) {
  const request = client.post('/auth/nonce')
  if (clientAddress) request.header('x-forwarded-for', clientAddress)
  return request.json({ wallet_address: walletAddress })
}

async function challengesOf(walletAddress: string) {
  const rows = await db.from('auth_challenges').where('wallet_address', walletAddress)
  return rows.length
}

/** A signed-in wallet with a registered Partner Bridge provider (feed `btc-price`). */
async function ownerWithProvider(client: ApiClient) {
  const owner = await newOwner(client)
  const { provider } = await registerProvider(client, owner.token, {
    handle: `p-${Math.random().toString(36).slice(2, 10)}`,
  })
  return { ...owner, providerId: provider.id }
}

type Owner = Awaited<ReturnType<typeof ownerWithProvider>>

/** Each route a signed-in wallet may call only so often; the body does not matter to the limit. */
const SIGNED_IN_ROUTES: Array<{
  route: string
  limit: RateLimitName
  send: (client: ApiClient, owner: Owner) => Promise<ApiResponse>
}> = [
  {
    route: 'POST /providers',
    limit: 'registration',
    send: (client, owner) => client.post('/providers').bearerToken(owner.token).json({}),
  },
  {
    route: 'POST …/feeds',
    limit: 'feedChanges',
    send: (client, owner) =>
      client.post(`/providers/id/${owner.providerId}/feeds`).bearerToken(owner.token).json({}),
  },
  {
    route: 'PATCH …/feeds/:slug',
    limit: 'feedChanges',
    send: (client, owner) =>
      client
        .patch(`/providers/id/${owner.providerId}/feeds/btc-price`)
        .bearerToken(owner.token)
        .json({ display_name: 'BTC' }),
  },
  {
    route: 'PATCH …/feeds/:slug/state',
    limit: 'feedChanges',
    send: (client, owner) =>
      client
        .patch(`/providers/id/${owner.providerId}/feeds/btc-price/state`)
        .bearerToken(owner.token)
        .json({ status: 'paused' }),
  },
  {
    route: 'POST …/feeds/:slug/upload',
    limit: 'feedChanges',
    send: (client, owner) =>
      client
        .post(`/providers/id/${owner.providerId}/feeds/btc-price/upload`)
        .bearerToken(owner.token)
        .json({ price: 1 }),
  },
  {
    route: 'POST …/feeds/:slug/push-secret/rotate',
    limit: 'feedChanges',
    send: (client, owner) =>
      client
        .post(`/providers/id/${owner.providerId}/feeds/btc-price/push-secret/rotate`)
        .bearerToken(owner.token),
  },
  {
    route: 'DELETE …/feeds/:slug',
    limit: 'feedChanges',
    send: (client, owner) =>
      client.delete(`/providers/id/${owner.providerId}/feeds/btc-price`).bearerToken(owner.token),
  },
  {
    route: 'POST …/mode',
    limit: 'feedChanges',
    send: (client, owner) =>
      client
        .post(`/providers/id/${owner.providerId}/mode`)
        .bearerToken(owner.token)
        .json({ integration_mode: 'hosted_mirror', feeds: [] }),
  },
  {
    route: 'POST …/hmac/rotate',
    limit: 'feedChanges',
    send: (client, owner) =>
      client.post(`/providers/id/${owner.providerId}/hmac/rotate`).bearerToken(owner.token),
  },
  {
    route: 'POST …/feeds/:slug/source/test',
    limit: 'sourceTests',
    send: (client, owner) =>
      client
        .post(`/providers/id/${owner.providerId}/feeds/btc-price/source/test`)
        .bearerToken(owner.token),
  },
  {
    route: 'POST …/hmac/test',
    limit: 'hmacTests',
    send: (client, owner) =>
      client.post(`/providers/id/${owner.providerId}/hmac/test`).bearerToken(owner.token),
  },
  {
    route: 'POST …/withdraw',
    limit: 'withdrawals',
    send: (client, owner) =>
      client.post(`/providers/id/${owner.providerId}/withdraw`).bearerToken(owner.token).json({}),
  },
  {
    route: 'POST …/link-wallet/nonce',
    limit: 'walletLinking',
    send: (client, owner) =>
      client
        .post(`/providers/id/${owner.providerId}/link-wallet/nonce`)
        .bearerToken(owner.token)
        .json({ wallet_address: walletOf(randomPrivateKey()) }),
  },
  {
    route: 'POST …/link-wallet',
    limit: 'walletLinking',
    send: (client, owner) =>
      client
        .post(`/providers/id/${owner.providerId}/link-wallet`)
        .bearerToken(owner.token)
        .json({}),
  },
]

test.group('Rate limits', (group) => {
  let restore: Array<() => void> = []

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    await forgetRateLimitCounts()
    restore = []
    return () => restore.forEach((undo) => undo())
  })

  test('past the limit, sign-in requests from one address get 429 with Retry-After; another address is still served', async ({
    client,
    assert,
  }) => {
    restore.push(setRateLimits({ signIn: 3 }), trustLoopbackProxy())
    const key = randomPrivateKey()
    const wallet = walletOf(key)

    const allowed = [
      await askNonce(client, wallet, '203.0.113.10'),
      await askNonce(client, wallet, '203.0.113.10'),
      await askNonce(client, wallet, '203.0.113.10'),
    ]
    const refused = await askNonce(client, wallet, '203.0.113.10')
    const verify = await client
      .post('/auth/verify')
      .header('x-forwarded-for', '203.0.113.10')
      .json({ wallet_address: wallet, nonce: '0'.repeat(32), signature: signMessage('x', key) })
    const otherAddress = await askNonce(client, wallet, '203.0.113.11')

    assert.deepEqual(
      allowed.map((response) => response.status()),
      [200, 200, 200]
    )
    assertTooManyRequests(assert, refused)
    assertTooManyRequests(assert, verify)
    otherAddress.assertStatus(200)
    assert.equal(await challengesOf(wallet), 4, 'three from the first address, one from the other')
  })

  test('X-Forwarded-For names the client only when the proxy it comes through is trusted', async ({
    client,
    assert,
  }) => {
    restore.push(setRateLimits({ signIn: 2 }))
    const wallet = walletOf(randomPrivateKey())

    const allowed = [
      await askNonce(client, wallet, '198.51.100.1'),
      await askNonce(client, wallet, '198.51.100.2'),
    ]
    const sameClient = await askNonce(client, wallet, '198.51.100.3')
    restore.push(trustLoopbackProxy())
    const behindTrustedProxy = await askNonce(client, wallet, '198.51.100.3')

    assert.deepEqual(
      allowed.map((response) => response.status()),
      [200, 200]
    )
    assertTooManyRequests(assert, sameClient)
    behindTrustedProxy.assertStatus(200)
  })

  test('an overlong forwarded address or push path is still counted and answered, never a 500', async ({
    client,
    assert,
  }) => {
    restore.push(trustLoopbackProxy())
    const wallet = walletOf(randomPrivateKey())

    const nonce = await askNonce(client, wallet, 'x'.repeat(2_000))
    const push = await rawCall('POST', `/ingest/${'x'.repeat(2_000)}/${'z'.repeat(2_000)}`, {
      body: '{}',
    })

    nonce.assertStatus(200)
    assert.equal(push.status, 404)
  })

  test('{route}: a signed-in wallet is refused past its limit, another wallet is still served')
    .with(SIGNED_IN_ROUTES)
    .run(async ({ client, assert }, { limit, send }) => {
      const owner = await ownerWithProvider(client)
      const other = await ownerWithProvider(client)
      // Registering counted once already: this leaves two more.
      restore.push(setRateLimits({ [limit]: limit === 'registration' ? 3 : 2 }))

      const allowed = [await send(client, owner), await send(client, owner)]
      const refused = await send(client, owner)
      const otherWallet = await send(client, other)

      assert.notInclude(
        allowed.map((response) => response.status()),
        429
      )
      assertTooManyRequests(assert, refused, limit === 'registration' ? 3_600 : 60)
      assert.notEqual(otherWallet.status(), 429)
    })

  test('POST /ingest/:handle/:slug: signed pushes to one feed past its limit are refused, unsigned ones never count, another feed is counted on its own', async ({
    client,
    assert,
  }) => {
    const { pushSecret } = await registerPushAndUploadFeeds(client)
    restore.push(setRateLimits({ ingest: 2 }))
    const push = (path: string, document: unknown) => {
      const body = JSON.stringify(document)
      return rawCall('POST', path, { body, headers: pushHeaders(pushSecret, path, body) })
    }
    const unsigned: number[] = []
    for (let i = 0; i < 5; i++) {
      const answer = await rawCall('POST', '/ingest/mirror-co/ticker', { body: '{"price":0}' })
      unsigned.push(answer.status)
    }

    const accepted = [
      await push('/ingest/mirror-co/ticker', { price: 1 }),
      await push('/ingest/mirror-co/ticker', { price: 2 }),
    ]
    const refused = await push('/ingest/mirror-co/ticker', { price: 3 })
    const otherFeed = await push('/ingest/mirror-co/rates', { price: 3 })

    assert.notInclude(unsigned, 429)
    assert.deepEqual(
      accepted.map((answer) => answer.status),
      [202, 202]
    )
    assert.equal(refused.status, 429)
    assert.equal(refused.json.error.code, 'too_many_requests')
    assert.isAtLeast(Number(refused.headers.get('retry-after')), 1)
    assert.notEqual(otherFeed.status, 429)
    const versions = await db
      .from('feed_snapshots')
      .join('feeds', 'feeds.id', 'feed_snapshots.feed_id')
      .where('feeds.slug', 'ticker')
    assert.lengthOf(versions, 2, 'the refused push stored nothing')
  })

  test("POST /ingest/:handle/:slug: a flood of unsigned pushes from one address is refused there, and the feed still takes its provider's signed pushes", async ({
    client,
    assert,
  }) => {
    const { pushSecret } = await registerPushAndUploadFeeds(client)
    restore.push(setRateLimits({ ingest: 60, ingestPerAddress: 61 }), trustLoopbackProxy())
    const path = '/ingest/mirror-co/ticker'
    const flood = (headers: Record<string, string> = {}) =>
      rawCall('POST', path, {
        body: '{"price":0}',
        headers: { 'x-forwarded-for': '203.0.113.66', ...headers },
      })

    const unsigned: number[] = []
    for (let i = 0; i < 61; i++) {
      const answer = await flood()
      unsigned.push(answer.status)
    }
    const refusedFlood = await flood()
    const body = JSON.stringify({ price: 42 })
    const signed = await rawCall('POST', path, {
      body,
      headers: { ...pushHeaders(pushSecret, path, body), 'x-forwarded-for': '203.0.113.67' },
    })

    assert.notInclude(unsigned, 429)
    assert.equal(refusedFlood.status, 429)
    assert.equal(refusedFlood.json.error.code, 'too_many_requests')
    assert.equal(signed.status, 202)
  })

  test('IPv6 clients are counted by their /64: a new address in it shares the limit, another /64 does not; an IPv4-mapped address is its IPv4 address', async ({
    client,
    assert,
  }) => {
    restore.push(setRateLimits({ signIn: 2 }), trustLoopbackProxy())
    const wallet = walletOf(randomPrivateKey())

    const allowed = [
      await askNonce(client, wallet, '2001:db8:1:2::1'),
      await askNonce(client, wallet, '2001:db8:1:2:aaaa::2'),
    ]
    const sameNetwork = await askNonce(client, wallet, '2001:db8:1:2:ffff:ffff:ffff:3')
    const otherNetwork = await askNonce(client, wallet, '2001:db8:1:3::1')
    await askNonce(client, wallet, '203.0.113.40')
    await askNonce(client, wallet, '203.0.113.40')
    const mapped = await askNonce(client, wallet, '::ffff:203.0.113.40')

    assert.deepEqual(
      allowed.map((response) => response.status()),
      [200, 200]
    )
    assertTooManyRequests(assert, sameNetwork)
    otherNetwork.assertStatus(200)
    assertTooManyRequests(assert, mapped)
  })

  test(
    "{route}: fresh wallets from one address are refused past the address's limit, another address is still served"
  )
    .with([
      { route: 'POST /providers', limit: 'registrationPerAddress' as const },
      { route: 'POST …/feeds', limit: 'feedChangesPerAddress' as const },
      { route: 'POST …/link-wallet/nonce', limit: 'walletLinkingPerAddress' as const },
    ])
    .run(async ({ client, assert }, { route, limit }) => {
      const owners = [
        await ownerWithProvider(client),
        await ownerWithProvider(client),
        await ownerWithProvider(client),
        await ownerWithProvider(client),
      ]
      restore.push(setRateLimits({ [limit]: 2 }), trustLoopbackProxy())
      const send = (owner: Owner, address: string) =>
        (route === 'POST /providers'
          ? client.post('/providers')
          : route === 'POST …/feeds'
            ? client.post(`/providers/id/${owner.providerId}/feeds`)
            : client.post(`/providers/id/${owner.providerId}/link-wallet/nonce`)
        )
          .bearerToken(owner.token)
          .header('x-forwarded-for', address)
          .json({})

      const allowed = [await send(owners[0], '203.0.113.30'), await send(owners[1], '203.0.113.30')]
      const refused = await send(owners[2], '203.0.113.30')
      const otherAddress = await send(owners[3], '203.0.113.31')

      assert.notInclude(
        allowed.map((response) => response.status()),
        429
      )
      assertTooManyRequests(assert, refused, limit === 'registrationPerAddress' ? 3_600 : 60)
      assert.notEqual(otherAddress.status(), 429)
    })

  test("wallet linking is counted per session: a stolen session using up its budget leaves the owner's own session its own", async ({
    client,
    assert,
  }) => {
    const key = randomPrivateKey()
    const owner = await signIn(client, key)
    const { provider } = await registerProvider(client, owner.token, {
      handle: `p-${Math.random().toString(36).slice(2, 10)}`,
    })
    const stolen = await signIn(client, key)
    restore.push(setRateLimits({ walletLinking: 2 }))
    const askLinkNonce = (token: string) =>
      client
        .post(`/providers/id/${provider.id}/link-wallet/nonce`)
        .bearerToken(token)
        .json({ wallet_address: walletOf(randomPrivateKey()) })

    await askLinkNonce(stolen.token)
    await askLinkNonce(stolen.token)
    const stolenRefused = await askLinkNonce(stolen.token)
    const ownerSession = await askLinkNonce(owner.token)

    assertTooManyRequests(assert, stolenRefused)
    ownerSession.assertStatus(200)
  })

  test("when the limiter's store fails, a limited route answers 503 rate_limiter_unavailable, not 500", async ({
    client,
    assert,
  }) => {
    const limiterDb = db.connection('limiter')
    await limiterDb.rawQuery('ALTER TABLE rate_limits RENAME TO rate_limits_away')
    try {
      const wallet = walletOf(randomPrivateKey())
      const response = await askNonce(client, wallet)

      response.assertStatus(503)
      assert.equal(response.body().error.code, 'rate_limiter_unavailable')
      assert.equal(response.header('retry-after'), '5')
      assert.equal(await challengesOf(wallet), 0)
    } finally {
      await limiterDb.rawQuery('ALTER TABLE rate_limits_away RENAME TO rate_limits')
    }
  })
})
