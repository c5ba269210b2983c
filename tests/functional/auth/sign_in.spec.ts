import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import {
  addressFromVersionHash,
  addressToString,
  privateKeyToAddress,
  privateKeyToPublic,
  randomPrivateKey,
} from '@stacks/transactions'
import { SignInConfig } from '#auth/define_config'
import { AppConfig } from '#core/app_config'
import { type ManualClock, useManualClock } from '#tests/support/clock'
import {
  assertRefused,
  signIn,
  signMessage,
  useManualClockAndPublicUrl,
  walletOf,
} from '#tests/support/sign_in'
import { ChainConfig } from '#chain/define_config'
import { inGlobalTransaction } from '#tests/support/database'

const signInConfig = await app.container.make(SignInConfig)
const appConfig = await app.container.make(AppConfig)

const MINUTE = 60_000
const HOUR = 60 * MINUTE

async function issue(client: ApiClient, walletAddress: string) {
  const response = await client.post('/auth/nonce').json({ wallet_address: walletAddress })
  response.assertStatus(200)
  return response.body() as { nonce: string; message: string; expires_at: string }
}

/** A wallet with a key: its nonce, the issued message and its own signature of it. */
async function signedChallenge(client: ApiClient, key = randomPrivateKey()) {
  const walletAddress = walletOf(key)
  const challenge = await issue(client, walletAddress)
  return {
    key,
    walletAddress,
    ...challenge,
    body: {
      wallet_address: walletAddress,
      nonce: challenge.nonce,
      signature: signMessage(challenge.message, key),
    },
  }
}

test.group('Sign-In With Stacks', (group) => {
  let clock: ManualClock

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const manual = await useManualClockAndPublicUrl()
    clock = manual.clock
    return manual.restore
  })

  test('the nonce comes with the exact message to sign, valid for 5 minutes', async ({
    client,
    assert,
  }) => {
    appConfig.publicUrl = 'https://tollbooth.example:8443'
    const walletAddress = walletOf(randomPrivateKey())

    const challenge = await issue(client, walletAddress)

    assert.match(challenge.nonce, /^[0-9a-f]{32}$/)
    const issuedAt = new Date(clock.now()).toISOString()
    const expiresAt = new Date(clock.now() + 5 * MINUTE).toISOString()
    assert.equal(
      challenge.message,
      [
        'tollbooth.example:8443 wants you to sign in with your Stacks account:',
        walletAddress,
        '',
        signInConfig.statement,
        '',
        'URI: https://tollbooth.example:8443',
        'Version: 1',
        'Chain ID: 2147483648',
        `Nonce: ${challenge.nonce}`,
        `Issued At: ${issuedAt}`,
        `Expiration Time: ${expiresAt}`,
      ].join('\n')
    )
    assert.equal(challenge.expires_at, expiresAt)
  })

  test('a wallet signs in, reads /auth/me, and its token stops working after logout', async ({
    client,
    assert,
  }) => {
    const { key, walletAddress, message, body } = await signedChallenge(client)

    const verified = await client
      .post('/auth/verify')
      .json({ ...body, public_key: privateKeyToPublic(key), message })

    verified.assertStatus(200)
    const { token, expires_at: expiresAt, user } = verified.body()
    assert.match(token, /^oat_/)
    assert.equal(expiresAt, new Date(clock.now() + 12 * HOUR).toISOString())
    assert.deepEqual(user, { wallet_address: walletAddress })
    const stored = await db.from('auth_access_tokens').select('hash')
    assert.lengthOf(stored, 1)
    assert.notInclude(token, stored[0].hash)

    const me = await client.get('/auth/me').bearerToken(token)
    me.assertStatus(200)
    me.assertBody({ user: { wallet_address: walletAddress }, providers: [] })

    const logout = await client.post('/auth/logout').bearerToken(token)
    logout.assertStatus(204)

    assertRefused(await client.get('/auth/me').bearerToken(token), 'unauthenticated')
    assertRefused(await client.post('/auth/logout').bearerToken(token), 'unauthenticated')
  })

  test('signing in again is the same user with a second session', async ({ client, assert }) => {
    const key = randomPrivateKey()

    const first = await signIn(client, key)
    const second = await signIn(client, key)

    assert.notEqual(first.token, second.token)
    const users = await db.from('users').where('wallet_address', first.walletAddress)
    assert.lengthOf(users, 1)
    await client.post('/auth/logout').bearerToken(first.token)
    const me = await client.get('/auth/me').bearerToken(second.token)
    me.assertStatus(200)
  })

  test('a 0x-prefixed signature and the publicKey alias are accepted', async ({ client }) => {
    const { key, body } = await signedChallenge(client)

    const verified = await client
      .post('/auth/verify')
      .json({ ...body, signature: `0x${body.signature}`, publicKey: privateKeyToPublic(key) })

    verified.assertStatus(200)
  })

  test('a session expires after 12 hours', async ({ client }) => {
    const { token } = await signIn(client, randomPrivateKey())

    clock.advance(12 * HOUR - 1_000)
    const lastSecond = await client.get('/auth/me').bearerToken(token)
    lastSecond.assertStatus(200)
    clock.advance(1_000)
    assertRefused(await client.get('/auth/me').bearerToken(token), 'unauthenticated')
  })

  test('an expired challenge is refused', async ({ client }) => {
    const { body } = await signedChallenge(client)

    clock.advance(5 * MINUTE)
    const verified = await client.post('/auth/verify').json(body)

    assertRefused(verified, 'challenge_expired')
  })

  test('a nonce signs in once', async ({ client }) => {
    const { body } = await signedChallenge(client)

    const first = await client.post('/auth/verify').json(body)
    const again = await client.post('/auth/verify').json(body)

    first.assertStatus(200)
    assertRefused(again, 'challenge_used')
  })

  test('an unknown nonce, or a nonce issued to another wallet, is not found', async ({
    client,
  }) => {
    const alice = await signedChallenge(client)
    const bobKey = randomPrivateKey()
    const bob = walletOf(bobKey)

    const otherWallet = await client.post('/auth/verify').json({
      wallet_address: bob,
      nonce: alice.nonce,
      signature: signMessage(alice.message, bobKey),
    })
    const unknown = await client.post('/auth/verify').json({ ...alice.body, nonce: 'f'.repeat(32) })

    assertRefused(otherWallet, 'challenge_not_found')
    assertRefused(unknown, 'challenge_not_found')
  })

  test("another key's signature is refused, whatever public key comes with it", async ({
    client,
  }) => {
    const alice = await signedChallenge(client)
    const malloryKey = randomPrivateKey()
    const forged = signMessage(alice.message, malloryKey)

    for (const hint of [privateKeyToPublic(malloryKey), privateKeyToPublic(alice.key), undefined]) {
      const verified = await client
        .post('/auth/verify')
        .json({ ...alice.body, signature: forged, public_key: hint })
      assertRefused(verified, 'signature_invalid')
    }
  })

  test("a public key that is not the signer's is refused", async ({ client }) => {
    const { body } = await signedChallenge(client)

    const verified = await client
      .post('/auth/verify')
      .json({ ...body, public_key: privateKeyToPublic(randomPrivateKey()) })

    assertRefused(verified, 'signature_invalid')
  })

  test('malformed signatures are refused and leave the nonce usable', async ({ client }) => {
    const { body } = await signedChallenge(client)

    for (const signature of ['zz', body.signature.slice(0, 128), '0x' + '0'.repeat(130)]) {
      const verified = await client.post('/auth/verify').json({ ...body, signature })
      assertRefused(verified, 'signature_invalid')
    }
    const signed = await client.post('/auth/verify').json(body)
    signed.assertStatus(200)
  })

  test('a message sent along must be the issued one, byte for byte', async ({ client }) => {
    const { message, body } = await signedChallenge(client)

    for (const tampered of [
      message.replace('Version: 1', 'Version: 2'),
      `${message}\n`,
      ` ${message}`,
      message.replace(/\n/g, '\r\n'),
    ]) {
      const verified = await client.post('/auth/verify').json({ ...body, message: tampered })
      assertRefused(verified, 'message_mismatch')
    }
  })

  test('a challenge issued under another PUBLIC_URL is refused', async ({ client }) => {
    appConfig.publicUrl = 'https://old.tollbooth.example'
    const { body } = await signedChallenge(client)

    appConfig.publicUrl = 'https://tollbooth.example'
    const verified = await client.post('/auth/verify').json(body)

    assertRefused(verified, 'challenge_foreign')
  })

  test('a challenge issued for another chain id is refused', async ({ client }) => {
    const { nonce, body } = await signedChallenge(client)
    await db.from('auth_challenges').where('nonce', nonce).update({ chain_id: 1 })

    const verified = await client.post('/auth/verify').json(body)

    assertRefused(verified, 'challenge_foreign')
  })

  test('the wallet address must be a single-signature address of the network', async ({
    client,
    assert,
  }) => {
    const key = randomPrivateKey()
    const devnetAddress = walletOf(key)
    const { network } = await app.container.make(ChainConfig)
    const { addressVersion } = network
    const multiSig = addressToString(
      addressFromVersionHash(addressVersion.multiSig, '11'.repeat(20))
    )
    for (const walletAddress of [
      'not-an-address',
      privateKeyToAddress(key, 'mainnet'),
      `${devnetAddress}.my-contract`,
      multiSig,
      42,
      undefined,
    ]) {
      const response = await client.post('/auth/nonce').json({ wallet_address: walletAddress })
      response.assertStatus(422)
      response.assertBodyContains({
        error: { code: 'validation_failed', fields: [{ field: 'wallet_address' }] },
      })
    }
    const mainnet = await client
      .post('/auth/nonce')
      .json({ wallet_address: privateKeyToAddress(key, 'mainnet') })
    assert.deepEqual(mainnet.body().error.fields, [
      {
        field: 'wallet_address',
        rule: 'stacksAddress',
        message: 'The wallet_address field must be a devnet address (ST…)',
      },
    ])
    const challenges = await db.from('auth_challenges').count('* as total')
    assert.equal(Number(challenges[0].total), 0)
  })

  test('the wallet address is compared in its canonical spelling', async ({ client, assert }) => {
    const key = randomPrivateKey()
    const walletAddress = walletOf(key)
    const lowercase = `${walletAddress.slice(0, 2)}${walletAddress.slice(2).toLowerCase()}`

    const challenge = await issue(client, lowercase)
    const verified = await client.post('/auth/verify').json({
      wallet_address: lowercase,
      nonce: challenge.nonce,
      signature: signMessage(challenge.message, key),
    })

    assert.include(challenge.message, `\n${walletAddress}\n`)
    verified.assertStatus(200)
    assert.deepEqual(verified.body().user, { wallet_address: walletAddress })
  })

  test('routes behind the auth middleware need a valid bearer token', async ({
    client,
    assert,
  }) => {
    const { token } = await signIn(client, randomPrivateKey())
    const [id, secret] = token.replace(/^oat_/, '').split('.')
    const wrongSecret = `oat_${id}.${Buffer.from('x'.repeat(40)).toString('base64url')}`
    const notAnId = `oat_${Buffer.from('abc').toString('base64url')}.${secret}`

    const missing = await client.get('/auth/me')
    assertRefused(missing, 'unauthenticated')
    assert.equal(missing.header('www-authenticate'), 'Bearer')
    for (const bad of ['garbage', 'oat_', wrongSecret, notAnId, `${token}x`]) {
      assertRefused(await client.get('/auth/me').bearerToken(bad), 'unauthenticated')
    }
    assertRefused(
      await client.get('/auth/me').header('authorization', `Basic ${token}`),
      'unauthenticated'
    )
    const valid = await client.get('/auth/me').bearerToken(token)
    valid.assertStatus(200)
  })
})

/**
 * Without the global transaction, so concurrent requests really use separate
 * connections and race on the row; the rows are removed afterwards.
 */
test.group('Sign-In With Stacks, concurrent verifies', (group) => {
  let wallets: string[] = []

  /**
   * The racing requests leave several connections in the pool. Lucid's
   * migration rollback at the end of the run takes and releases its advisory
   * lock through the pool, and fails when the two land on different
   * connections: start the next tests from a fresh pool.
   */
  group.teardown(() => db.manager.close(db.primaryConnectionName))

  group.each.setup(async () => {
    const manual = await useManualClock()
    wallets = []
    return async () => {
      manual.restore()
      await db.from('auth_challenges').whereIn('wallet_address', wallets).delete()
      await db.from('users').whereIn('wallet_address', wallets).delete()
    }
  })

  test('of concurrent verifies of one nonce exactly one gets a token', async ({
    client,
    assert,
  }) => {
    const { walletAddress, body } = await signedChallenge(client)
    wallets.push(walletAddress)

    const answers = await Promise.all(
      Array.from({ length: 4 }, () => client.post('/auth/verify').json(body))
    )

    const statuses = answers.map((answer) => answer.status()).sort()
    assert.deepEqual(statuses, [200, 401, 401, 401])
    for (const answer of answers.filter((each) => each.status() === 401)) {
      assert.equal(answer.body().error.code, 'challenge_used')
    }
    const tokens = await db
      .from('auth_access_tokens')
      .join('users', 'users.id', 'auth_access_tokens.tokenable_id')
      .where('users.wallet_address', walletAddress)
      .count('* as total')
    assert.equal(Number(tokens[0].total), 1)
  })
})
