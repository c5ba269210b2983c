import { test } from '@japa/runner'
import app from '@adonisjs/core/services/app'
import { randomPrivateKey } from '@stacks/transactions'
import { assertNothingWritten, databaseFingerprint } from '#tests/support/fuzz'
import { registerProvider } from '#tests/support/providers'
import { signIn, signMessage, walletOf } from '#tests/support/sign_in'
import { AppConfig } from '#core/app_config'
import { inGlobalTransaction } from '#tests/support/database'

const appConfig = await app.container.make(AppConfig)

/**
 * Attacks on Sign-In With Stacks beyond tests/functional/auth/sign_in.spec.ts
 * (replayed, expired, foreign-URL and other-chain nonces, another key's
 * signature, a mismatched public key): messages an attacker rewrites for
 * another domain, URI or chain and gets the wallet to sign, and signatures
 * replayed across purposes. Each is refused and leaves nothing behind.
 */
test.group('Attacks | Sign-In With Stacks', (group) => {
  group.each.setup(() => inGlobalTransaction())

  const publicUrl = () => appConfig.publicUrl
  const rewrites: Array<{ name: string; rewrite: (message: string) => string }> = [
    {
      name: 'a foreign domain',
      rewrite: (message) => message.replace(new URL(publicUrl()).host, 'evil.example'),
    },
    {
      name: 'a foreign URI',
      rewrite: (message) => message.replace(`URI: ${publicUrl()}`, 'URI: https://evil.example'),
    },
    {
      name: 'another chain id',
      rewrite: (message) => message.replace(/Chain ID: \d+/, 'Chain ID: 1'),
    },
    {
      name: 'a later expiry',
      rewrite: (message) =>
        message.replace(/Expiration Time: .*/, 'Expiration Time: 2999-01-01T00:00:00.000Z'),
    },
  ]

  test('a message rewritten for {name} and signed by the wallet signs nobody in')
    .with(rewrites)
    .run(async ({ client, assert }, { rewrite }) => {
      const key = randomPrivateKey()
      const wallet = walletOf(key)
      const issued = await client.post('/auth/nonce').json({ wallet_address: wallet })
      const { nonce, message } = issued.body()
      const forged = rewrite(message)
      assert.notEqual(forged, message)
      const signature = signMessage(forged, key)

      const before = await databaseFingerprint()
      const sentAlong = await client
        .post('/auth/verify')
        .json({ wallet_address: wallet, nonce, signature, message: forged })
      const alone = await client
        .post('/auth/verify')
        .json({ wallet_address: wallet, nonce, signature })

      sentAlong.assertStatus(401)
      assert.equal(sentAlong.body().error.code, 'message_mismatch')
      alone.assertStatus(401)
      assert.equal(alone.body().error.code, 'signature_invalid')
      await assertNothingWritten(before, 'a rewritten sign-in message')
      // The nonce was not spent: the wallet can still sign the message it was issued.
      const honest = await client
        .post('/auth/verify')
        .json({ wallet_address: wallet, nonce, signature: signMessage(message, key) })
      honest.assertStatus(200)
    })

  test('a wallet-link signature does not sign in, and a sign-in signature links no wallet', async ({
    client,
    assert,
  }) => {
    const ownerKey = randomPrivateKey()
    const owner = await signIn(client, ownerKey)
    const { provider } = await registerProvider(client, owner.token)
    const key = randomPrivateKey()
    const wallet = walletOf(key)

    const link = await client
      .post(`/providers/id/${provider.id}/link-wallet/nonce`)
      .bearerToken(owner.token)
      .json({ wallet_address: wallet })
    const linkSignature = signMessage(link.body().message, key)
    const signedIn = await client.post('/auth/verify').json({
      wallet_address: wallet,
      nonce: link.body().nonce,
      signature: linkSignature,
    })
    signedIn.assertStatus(401)
    assert.equal(signedIn.body().error.code, 'challenge_not_found')

    const login = await client.post('/auth/nonce').json({ wallet_address: wallet })
    const loginSignature = signMessage(login.body().message, key)
    const before = await databaseFingerprint()
    const linked = await client
      .post(`/providers/id/${provider.id}/link-wallet`)
      .bearerToken(owner.token)
      .json({
        wallet_address: wallet,
        nonce: login.body().nonce,
        signature: loginSignature,
        owner_nonce: link.body().owner_challenge.nonce,
        owner_signature: signMessage(link.body().owner_challenge.message, ownerKey),
      })
    linked.assertStatus(401)
    assert.equal(linked.body().error.code, 'challenge_not_found')
    await assertNothingWritten(before, 'a sign-in signature sent to link a wallet')

    const shown = await client.get(`/providers/id/${provider.id}`).bearerToken(owner.token)
    assert.isNull(shown.body().provider.linked_withdrawal_wallet)
  })
})
