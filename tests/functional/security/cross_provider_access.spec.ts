import { randomUUID } from 'node:crypto'
import { test } from '@japa/runner'
import router from '@adonisjs/core/services/router'
import { randomPrivateKey } from '@stacks/transactions'
import { assertNothingWritten, databaseFingerprint, rawCall } from '#tests/support/fuzz'
import { newOwner, registerProvider } from '#tests/support/providers'
import { walletOf } from '#tests/support/sign_in'
import { inGlobalTransaction } from '#tests/support/database'

const OWNED_PREFIX = '/providers/id/:id'

interface OwnedRoute {
  name: string
  method: string
  pattern: string
}

function ownedRouteEntries() {
  return Object.values(router.toJSON())
    .flat()
    .filter((route) => route.pattern.startsWith(OWNED_PREFIX))
}

/**
 * Every route under /providers/id/:id, read from the router itself: a route
 * added later is attacked too, without touching this file.
 */
function ownedRoutes(): OwnedRoute[] {
  return ownedRouteEntries().flatMap((route) =>
    route.methods
      .filter((method) => method !== 'HEAD')
      .map((method) => ({ name: route.name ?? route.pattern, method, pattern: route.pattern }))
  )
}

/**
 * Bodies the owner could send, so the attacker's request is valid and only
 * ownership can refuse it. A route not listed gets `{}`: were ownership
 * checked after the body (by hand, in a handler, instead of by the group's
 * middleware), this test would fail and name it.
 */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'providers.owned.update': { display_name: 'Taken over' },
  'providers.owned.feeds.store': {
    slug: 'stolen',
    display_name: 'Stolen',
    price_stx: '0.01',
    source_path: '/v1/stolen',
  },
  'providers.owned.feeds.update': { price_stx: '0.0001' },
  'providers.owned.feeds.state': { active: false },
  'providers.owned.mode': {
    integration_mode: 'hosted_mirror',
    feeds: [{ slug: 'btc-price', source: { type: 'codehost_raw', url: 'http://127.0.0.1:1/x' } }],
  },
  'providers.owned.link_wallet.nonce': { wallet_address: walletOf(randomPrivateKey()) },
  'providers.owned.link_wallet': {
    wallet_address: walletOf(randomPrivateKey()),
    nonce: 'a'.repeat(32),
    signature: 'ab'.repeat(65),
  },
  'providers.withdrawals.withdraw': {
    amount_microstx: 1_000_000,
    destination_address: walletOf(randomPrivateKey()),
    idempotency_key: randomUUID(),
  },
}

function urlOf(pattern: string, providerId: string) {
  return pattern
    .replace(':id', providerId)
    .replace(':slug', 'btc-price')
    .replace(/:[a-z_]+/g, () => randomUUID())
}

test.group("Attacks | another provider's session on every owner route", (group) => {
  group.each.setup(() => inGlobalTransaction())

  test('the router lists the owner routes this suite attacks', ({ assert }) => {
    const names = ownedRoutes().map(({ name }) => name)
    assert.includeMembers(names, Object.keys(VALID_BODIES))
    assert.includeMembers(names, ['providers.owned.show', 'providers.owned.hmac.rotate'])
  })

  test('every owner route runs the session check, then the one ownership check, first', ({
    assert,
  }) => {
    // A route declared under the prefix outside `ownerRoutes` would have to
    // check ownership by hand: it fails here, whatever its handler does.
    for (const route of ownedRouteEntries()) {
      const named = [...route.middleware.all()].flatMap((entry) =>
        typeof entry !== 'function' && entry.name ? [entry.name] : []
      )
      assert.deepEqual(named.slice(0, 2), ['auth', 'ownedProvider'], route.pattern)
    }
  })

  test('{method} {pattern} refuses provider B and changes nothing')
    .with(ownedRoutes)
    .run(async ({ client, assert }, { name, method, pattern }) => {
      const alice = await newOwner(client)
      const { provider } = await registerProvider(client, alice.token)
      const mallory = await newOwner(client)
      await registerProvider(client, mallory.token, { handle: 'mallory-data' })
      const url = urlOf(pattern, provider.id)
      const body = method === 'GET' ? undefined : JSON.stringify(VALID_BODIES[name] ?? {})

      const before = await databaseFingerprint()
      const attack = await rawCall(method, url, { body, token: mallory.token })

      assert.oneOf(attack.status, [403, 404], `${method} ${url}: ${attack.text}`)
      assert.oneOf(attack.json.error.code, ['not_owner', 'provider_not_found'])
      await assertNothingWritten(before, `${method} ${url} as another provider`)

      // The same request from the owner is not refused for ownership: the refusal above was.
      const own = await rawCall(method, url, { body, token: alice.token })
      assert.notEqual(own.json?.error?.code, attack.json.error.code, `${method} ${url}`)
    })
})
