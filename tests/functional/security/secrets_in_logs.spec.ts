import { readFile } from 'node:fs/promises'
import { test } from '@japa/runner'
import encryption from '@adonisjs/core/services/encryption'
import { randomPrivateKey } from '@stacks/transactions'
import Provider from '#models/provider'
import { deriveKey } from '#partner_verifier'
import { transfer } from '#tests/support/devnet'
import { rawCall } from '#tests/support/fuzz'
import { pushHeaders } from '#tests/support/hosted_mirror'
import { findSecrets } from '#tests/support/log_secrets'
import { paymentHeader, usePaidCallStack } from '#tests/support/paid_calls'
import { type PartnerServer, startPartnerServer } from '#tests/support/partner_server'
import { registerProvider } from '#tests/support/providers'
import { runLogFile } from '#tests/support/run_log'
import { signIn } from '#tests/support/sign_in'

/**
 * The whole run logs at debug level (the most the app logs) to one file, scanned for secrets by
 * shape at its end (tests/support/run_log.ts). This test knows the exact
 * secrets of one provider's life — session token, Partner Bridge secret
 * before and after rotation, the custodial key, a signed payment and its
 * header, then a switch to Hosted Mirror with a push feed and its push
 * secret before and after rotation, each secret's key K — and looks for
 * each in the log its requests wrote.
 */
/** A secret's HMAC key K as the log could show it: hex or base64. */
function keysOf(kind: string, secret: string) {
  const key = deriveKey(secret)
  return [
    { kind: `${kind} key K`, value: key.toString('hex') },
    { kind: `${kind} key K`, value: key.toString('base64') },
  ]
}

test.group('Attacks | secrets in the logs', (group) => {
  const stack = usePaidCallStack(group, { blockTimeMs: 0, settlementBudgetMs: 3_000 })
  let partner: PartnerServer
  group.each.setup(async () => {
    partner = await startPartnerServer({ routes: ['/v1/prices'] })
    return () => partner.close()
  })

  test('no secret of a provider, its owner or a buyer reaches the log', async ({
    client,
    assert,
  }) => {
    const logFile = runLogFile()
    assert.isString(logFile, 'bin/test.ts sets LOG_FILE for the run')
    const before = await readFile(logFile!, 'utf8').catch(() => '')

    const ownerKey = randomPrivateKey()
    const owner = await signIn(client, ownerKey)
    const registered = await registerProvider(client, owner.token, {
      partner_endpoint: partner.url,
    })
    const rotated = await client
      .post(`/providers/id/${registered.provider.id}/hmac/rotate`)
      .bearerToken(owner.token)
    partner.secret = rotated.body().hmac_secret
    const handshake = await client
      .post(`/providers/id/${registered.provider.id}/hmac/test`)
      .bearerToken(owner.token)
    assert.equal(handshake.body().result, 'ok')

    const path = '/feeds/p/acme-data/btc-price'
    const quote = await client.get(path)
    const tx = await transfer({
      recipient: stack.payTo,
      amount: BigInt(quote.body().accepts[0].amount),
    })
    const header = paymentHeader(quote.body(), tx.serialize())
    const paid = await client
      .get(path)
      .header('payment-signature', header)
      .header('authorization', `Bearer ${owner.token}`)
    paid.assertStatus(200)

    const providerPath = `/providers/id/${registered.provider.id}`
    const switched = await client
      .post(`${providerPath}/mode`)
      .bearerToken(owner.token)
      .json({
        integration_mode: 'hosted_mirror',
        feeds: [{ slug: 'btc-price', source: { type: 'webhook_push' } }],
      })
    const pushSecret: string = switched.body().push_secrets['btc-price']
    /** Pushes `body` signed with `secret`; answers the status. */
    const push = (secret: string, body: string) =>
      rawCall('POST', '/ingest/acme-data/btc-price', {
        body,
        headers: pushHeaders(secret, '/ingest/acme-data/btc-price', body),
      }).then((answer) => answer.status)
    assert.equal(await push(pushSecret, '{"BTC":97000}'), 202)
    const rotatedPush = await client
      .post(`${providerPath}/feeds/btc-price/push-secret/rotate`)
      .bearerToken(owner.token)
    const newPushSecret: string = rotatedPush.body().push_secret
    assert.equal(await push(pushSecret, '{"BTC":98000}'), 401, 'the old secret is refused')
    assert.equal(await push(newPushSecret, '{"BTC":98000}'), 202)

    const provider = await Provider.findOrFail(registered.provider.id)
    const known = [
      { kind: 'owner wallet key', value: ownerKey },
      { kind: 'session token', value: owner.token },
      { kind: 'Partner Bridge secret', value: registered.hmac_secret! },
      { kind: 'rotated Partner Bridge secret', value: partner.secret! },
      ...keysOf('Partner Bridge', registered.hmac_secret!),
      ...keysOf('rotated Partner Bridge', partner.secret!),
      { kind: 'push secret', value: pushSecret },
      { kind: 'rotated push secret', value: newPushSecret },
      ...keysOf('push', pushSecret),
      ...keysOf('rotated push', newPushSecret),
      { kind: 'custodial key', value: encryption.decrypt<string>(provider.custodialKeyEncrypted)! },
      { kind: 'signed payment', value: tx.serialize() },
      { kind: 'payment-signature header', value: header },
    ]
    const all = await readFile(logFile!, 'utf8')
    const written = all.slice(before.length)

    for (const logged of [
      '/hmac/rotate',
      '/hmac/test',
      `"path":"${path}","status":200`,
      '/push-secret/rotate',
      '"path":"/ingest/acme-data/btc-price","status":202',
      '"path":"/ingest/acme-data/btc-price","status":401',
    ]) {
      assert.include(written, logged, 'the requests above were logged')
    }
    assert.deepEqual(findSecrets(written, known), [])
  })
})
