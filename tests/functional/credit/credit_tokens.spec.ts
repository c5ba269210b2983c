import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import db from '@adonisjs/lucid/services/db'
import type { ApiClient } from '@japa/api-client'
import { randomPrivateKey } from '@stacks/transactions'
import { AppConfig } from '#core/app_config'
import type { ManualClock } from '#tests/support/clock'
import {
  assertRefused,
  signMessage,
  useManualClockAndPublicUrl,
  walletOf,
} from '#tests/support/sign_in'
import { forgetRateLimitCounts, setRateLimits } from '#tests/support/rate_limits'
import { inGlobalTransaction } from '#tests/support/database'

const appConfig = await app.container.make(AppConfig)

const MINUTE = 60_000

async function creditNonce(
  client: ApiClient,
  address: string,
  limits = { spend_cap_stx: '5', max_price_stx: '0.01' }
) {
  const response = await client.post('/credit/nonce').json({ address, ...limits })
  response.assertStatus(200)
  return response.body() as { nonce: string; message: string; expires_at: string; siwx: any }
}

/** A new wallet's credit message, signed by its own key. */
async function signedCreditMessage(client: ApiClient, key = randomPrivateKey()) {
  const address = walletOf(key)
  const challenge = await creditNonce(client, address)
  return {
    key,
    address,
    ...challenge,
    body: { message: challenge.message, signature: signMessage(challenge.message, key) },
  }
}

test.group('Credit tokens', (group) => {
  let clock: ManualClock

  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    const manual = await useManualClockAndPublicUrl()
    clock = manual.clock
    return manual.restore
  })

  test('the nonce is a Sign-In With Stacks message whose statement names the limits', async ({
    client,
    assert,
  }) => {
    appConfig.publicUrl = 'https://tollbooth.example'
    const address = walletOf(randomPrivateKey())

    const challenge = await creditNonce(client, address, {
      spend_cap_stx: '5',
      max_price_stx: '0.01',
    })

    const issuedAt = new Date(clock.now()).toISOString()
    const expiresAt = new Date(clock.now() + 5 * MINUTE).toISOString()
    assert.equal(
      challenge.message,
      [
        'tollbooth.example wants you to sign in with your Stacks account:',
        address,
        '',
        'Spend at most 5 STX of my Tollbooth credit, at most 0.01 STX per call.',
        '',
        'URI: https://tollbooth.example',
        'Version: 1',
        'Chain ID: 2147483648',
        `Nonce: ${challenge.nonce}`,
        `Issued At: ${issuedAt}`,
        `Expiration Time: ${expiresAt}`,
      ].join('\n')
    )
    assert.deepEqual(challenge.siwx, {
      domain: 'tollbooth.example',
      address,
      statement: 'Spend at most 5 STX of my Tollbooth credit, at most 0.01 STX per call.',
      uri: 'https://tollbooth.example',
      version: '1',
      chainId: 'stacks:2147483648',
      nonce: challenge.nonce,
      issuedAt,
      expirationTime: expiresAt,
    })
  })

  test('the signed message is exchanged once for a token of its limits, stored as its hash', async ({
    client,
    assert,
  }) => {
    const { address, nonce, body } = await signedCreditMessage(client)

    const exchanged = await client.post('/credit/tokens').json(body)

    exchanged.assertStatus(201)
    const token = exchanged.body().token as string
    assert.match(token, /^tbc_[A-Za-z0-9_-]{43}$/)
    assert.deepEqual(exchanged.body(), {
      token,
      address,
      spend_cap_microstx: 5_000_000,
      max_price_microstx: 10_000,
      expires_at: new Date(clock.now() + 3_600_000).toISOString(),
    })
    const stored = await db.from('credit_tokens').where('sign_in_nonce', nonce).firstOrFail()
    assert.notInclude(JSON.stringify(stored), token)
    assert.equal(stored.address, address)

    assertRefused(await client.post('/credit/tokens').json(body), 'challenge_used')
  })

  test('limits that are not amounts of STX, or a price above the cap, are refused', async ({
    client,
  }) => {
    const address = walletOf(randomPrivateKey())
    for (const limits of [
      { spend_cap_stx: '0', max_price_stx: '0.01' },
      { spend_cap_stx: '5', max_price_stx: '0.0000001' },
      { spend_cap_stx: '0.005', max_price_stx: '0.01' },
      { spend_cap_stx: 'lots', max_price_stx: '0.01' },
      { spend_cap_stx: '5', max_price_stx: '11' },
      { spend_cap_stx: '5' },
    ]) {
      const response = await client.post('/credit/nonce').json({ address, ...limits })
      response.assertStatus(422)
      response.assertBodyContains({ error: { code: 'validation_failed' } })
    }
  })

  test('a message signed by another key is refused', async ({ client }) => {
    const { message } = await signedCreditMessage(client)

    const forged = await client
      .post('/credit/tokens')
      .json({ message, signature: signMessage(message, randomPrivateKey()) })

    assertRefused(forged, 'signature_invalid')
  })

  test('a message with other limits than issued is refused', async ({ client }) => {
    const { key, message } = await signedCreditMessage(client)
    const raised = message.replace('at most 5 STX', 'at most 500 STX')

    const response = await client
      .post('/credit/tokens')
      .json({ message: raised, signature: signMessage(raised, key) })

    assertRefused(response, 'message_mismatch')
  })

  test('an expired message is refused', async ({ client }) => {
    const { body } = await signedCreditMessage(client)
    clock.advance(5 * MINUTE)

    assertRefused(await client.post('/credit/tokens').json(body), 'challenge_expired')
  })

  test('a message issued under another PUBLIC_URL is refused', async ({ client }) => {
    appConfig.publicUrl = 'https://old.tollbooth.example'
    const { body } = await signedCreditMessage(client)
    appConfig.publicUrl = 'https://tollbooth.example'

    assertRefused(await client.post('/credit/tokens').json(body), 'challenge_foreign')
  })

  test('a sign-in message buys no credit token, and a credit message signs no one in', async ({
    client,
  }) => {
    const key = randomPrivateKey()
    const address = walletOf(key)
    const signIn = await client.post('/auth/nonce').json({ wallet_address: address })
    const signInMessage = signIn.body().message as string
    const asCredit = await client
      .post('/credit/tokens')
      .json({ message: signInMessage, signature: signMessage(signInMessage, key) })
    assertRefused(asCredit, 'challenge_not_found')

    const { nonce, body } = await signedCreditMessage(client, key)
    const asSignIn = await client
      .post('/auth/verify')
      .json({ wallet_address: address, nonce, signature: body.signature })
    assertRefused(asSignIn, 'challenge_not_found')
  })

  test('a text that is no issued message is refused', async ({ client }) => {
    const key = randomPrivateKey()
    const message = 'Spend all of my credit.'

    const response = await client
      .post('/credit/tokens')
      .json({ message, signature: signMessage(message, key) })

    assertRefused(response, 'challenge_not_found')
  })
})

test.group('Credit tokens: rate limit', (group) => {
  group.each.setup(() => inGlobalTransaction())
  group.each.setup(async () => {
    await forgetRateLimitCounts()
    return setRateLimits({ creditTokens: 2 })
  })

  test('nonces and token exchanges are counted together per client address', async ({ client }) => {
    const { body } = await signedCreditMessage(client)
    const exchanged = await client.post('/credit/tokens').json(body)
    exchanged.assertStatus(201)

    const third = await client
      .post('/credit/nonce')
      .json({ address: walletOf(randomPrivateKey()), spend_cap_stx: '1', max_price_stx: '0.01' })

    third.assertStatus(429)
    third.assertBodyContains({ error: { code: 'too_many_requests' } })
  })
})
