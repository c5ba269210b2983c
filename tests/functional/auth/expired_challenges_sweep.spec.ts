import { test } from '@japa/runner'
import type { ApiClient } from '@japa/api-client'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import { randomPrivateKey } from '@stacks/transactions'
import { ExpiredChallenges } from '#auth/expired_challenges'
import { SignInConfig } from '#auth/define_config'
import { runAce } from '#tests/support/ace'
import { type ManualClock, useManualClock } from '#tests/support/clock'
import { walletOf } from '#tests/support/sign_in'
import { inGlobalTransaction } from '#tests/support/database'

const signInConfig = await app.container.make(SignInConfig)

const MINUTE = 60_000
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR

async function issue(client: ApiClient) {
  const response = await client
    .post('/auth/nonce')
    .json({ wallet_address: walletOf(randomPrivateKey()) })
  response.assertStatus(200)
  return response.body().nonce as string
}

async function storedNonces() {
  const rows = await db.from('auth_challenges').select('nonce')
  return rows.map((row) => row.nonce as string).sort()
}

test.group('Sweeping expired sign-in challenges', (group) => {
  let clock: ManualClock

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const manual = await useManualClock()
    clock = manual.clock
    return manual.restore
  })

  test('deletes, batch after batch, the challenges expired more than a day ago and keeps the others', async ({
    client,
    assert,
  }) => {
    const long = [await issue(client), await issue(client), await issue(client)]
    clock.advance(20 * HOUR)
    const recentlyExpired = await issue(client)
    clock.advance(10 * HOUR)
    const live = await issue(client)

    const challenges = await app.container.make(ExpiredChallenges)
    const deleted = await challenges.sweep({ keepExpiredMs: DAY, batchSize: 2 })

    assert.equal(deleted, long.length)
    assert.deepEqual(await storedNonces(), [recentlyExpired, live].sort())
  })

  test('a challenge is kept until the retention after its expiry has passed, by the clock', async ({
    client,
    assert,
  }) => {
    const nonce = await issue(client)
    const challenges = await app.container.make(ExpiredChallenges)

    clock.advance(signInConfig.challengeTtlMs + DAY)
    assert.equal(await challenges.sweep(signInConfig.sweep), 0)
    assert.deepEqual(await storedNonces(), [nonce])

    clock.advance(1)
    assert.equal(await challenges.sweep(signInConfig.sweep), 1)
    assert.deepEqual(await storedNonces(), [])
  })

  test('asking for a nonce deletes nothing, however old the other challenges: the sweep does', async ({
    client,
    assert,
  }) => {
    const old = await issue(client)
    clock.advance(7 * DAY)
    const fresh = await issue(client)

    assert.deepEqual(await storedNonces(), [old, fresh].sort())
  })
})

/** The job as the scheduler runs it: a real process on the test database, on the real clock. */
test.group('node ace challenges:sweep', (group) => {
  group.each.teardown(async () => {
    await db.from('auth_challenges').delete()
  })

  test('deletes the challenges expired more than a day ago and says how many', async ({
    assert,
  }) => {
    const now = Date.now()
    const row = (nonce: string, expiresAt: number) => ({
      nonce,
      wallet_address: walletOf(randomPrivateKey()),
      message: 'm',
      domain: 'localhost',
      uri: 'http://localhost',
      chain_id: 2147483648,
      issued_at: new Date(expiresAt - 5 * MINUTE),
      expires_at: new Date(expiresAt),
    })
    await db
      .table('auth_challenges')
      .multiInsert([row('a-week-ago', now - 7 * DAY), row('an-hour-ago', now - HOUR)])

    const run = await runAce(['challenges:sweep'])

    assert.equal(run.code, 0, run.output)
    assert.include(run.output, 'expired challenges deleted: 1')
    assert.deepEqual(await storedNonces(), ['an-hour-ago'])
  })
})
